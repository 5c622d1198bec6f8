#include "utils/tensorboard/event_file.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "brasa/core/error.h"
#include "utils/tensorboard/crc32c.h"
#include "utils/tensorboard/proto_writer.h"

// Note [TensorBoard event files]
// An event file is a sequence of TFRecords; each record is
//   uint64 length | uint32 masked_crc32c(length) | length bytes of data | uint32
//   masked_crc32c(data)
// (all little-endian), and each record's data is one serialized tensorboard.Event message:
//   Event { double wall_time = 1; int64 step = 2; oneof { string file_version = 3;
//           Summary summary = 5; ... } }
// The first record of a file is the file_version event "brain.Event:2"; TensorBoard picks up every
// file whose name contains "tfevents" in a run's directory. The Summary messages (summaries.cpp)
// are written by hand with ProtoWriter rather than with libprotobuf: the few messages brasa writes
// take about fifty lines of encoding (their field numbers are TensorBoard's public .proto files',
// quoted where each message is built), while libprotobuf would add a runtime dependency to
// libbrasa, protoc to the build and generated sources to the tree, all for write-only use. The
// test reads the files back with the `tensorboard` package's own reader (which parses them with
// its generated protobuf classes and checks the CRCs), so a wrong field number would be caught.

namespace brasa::tensorboard::detail {
namespace {

std::string os_reason(int err) { return std::error_code(err, std::generic_category()).message(); }

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "localhost";
  return buf;
}

void make_log_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st))
      BRASA_THROW(RuntimeError, "tensorboard::SummaryWriter: log dir '", dir,
                  "' exists and is not a directory");
    return;
  }
  fs::create_directories(dir, ec);
  if (ec)
    BRASA_THROW(RuntimeError, "tensorboard::SummaryWriter: cannot create log dir '", dir,
                "': ", ec.message());
}

std::string file_name() {
  static std::atomic<int> counter{0};
  const auto secs = static_cast<long long>(wall_time());
  char stamp[32];
  std::snprintf(stamp, sizeof stamp, "%010lld", secs);
  return "events.out.tfevents." + std::string(stamp) + "." + host_name() + "." +
         std::to_string(getpid()) + "." + std::to_string(counter++);
}

}  // namespace

double wall_time() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

EventFile::EventFile(const std::string& dir, double flush_secs)
    : flush_every_(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(flush_secs))),
      last_flush_(std::chrono::steady_clock::now()) {
  make_log_dir(dir);
  path_ = (std::filesystem::path(dir) / file_name()).string();
  file_ = std::fopen(path_.c_str(), "wb");
  if (!file_)
    BRASA_THROW(RuntimeError, "tensorboard::SummaryWriter: cannot create event file '", path_,
                "': ", os_reason(errno));
  ProtoWriter event;
  event.float64(1, wall_time()).varint(2, 0).bytes(3, "brain.Event:2");
  write_event(event.str());
  flush();  // TensorBoard sees the run as soon as the writer exists
}

EventFile::~EventFile() {
  if (file_) std::fclose(file_);
}

void EventFile::write_summary(const std::string& summary, int64_t step) {
  ProtoWriter event;
  event.float64(1, wall_time()).varint(2, step).bytes(5, summary);
  write_event(event.str());
  if (std::chrono::steady_clock::now() - last_flush_ >= flush_every_) flush();
}

void EventFile::write_event(const std::string& event) {
  BRASA_CHECK_TYPED(RuntimeError, file_, "tensorboard::SummaryWriter: writing to '", path_,
                    "' after close()");
  const uint64_t length = event.size();
  const uint32_t length_crc = masked_crc32c(&length, sizeof length);
  const uint32_t data_crc = masked_crc32c(event.data(), event.size());
  const bool ok = std::fwrite(&length, sizeof length, 1, file_) == 1 &&
                  std::fwrite(&length_crc, sizeof length_crc, 1, file_) == 1 &&
                  std::fwrite(event.data(), 1, event.size(), file_) == event.size() &&
                  std::fwrite(&data_crc, sizeof data_crc, 1, file_) == 1;
  if (!ok)
    BRASA_THROW(RuntimeError, "tensorboard::SummaryWriter: cannot write event file '", path_,
                "': ", os_reason(errno));
}

void EventFile::flush() {
  if (!file_) return;
  if (std::fflush(file_) != 0)
    BRASA_THROW(RuntimeError, "tensorboard::SummaryWriter: cannot write event file '", path_,
                "': ", os_reason(errno));
  last_flush_ = std::chrono::steady_clock::now();
}

void EventFile::close() {
  if (!file_) return;
  std::FILE* f = file_;
  file_ = nullptr;
  if (std::fclose(f) != 0)
    BRASA_THROW(RuntimeError, "tensorboard::SummaryWriter: cannot close event file '", path_,
                "': ", os_reason(errno));
}

}  // namespace brasa::tensorboard::detail
