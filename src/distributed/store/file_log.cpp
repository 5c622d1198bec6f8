#include "distributed/store/file_log.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "brasa/distributed/error.h"

namespace brasa::distributed::detail {
namespace {

constexpr size_t kHeader = 1 + 4 + 8;

struct Fd {
  int fd;
  ~Fd() { ::close(fd); }  // also releases the flock
};

[[noreturn]] void fail(const std::string& path, const char* what) {
  throw DistributedError("FileStore: cannot " + std::string(what) + " \"" + path +
                         "\": " + std::strerror(errno));
}

template <typename T>
T load_le(const char* p) {
  T v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<uint8_t>(p[i])) << (8 * i);
  return v;
}

template <typename T>
void store_le(std::string& out, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

FileLog::FileLog(std::string path) : path_(std::move(path)) {
  Fd f{open_locked(false)};
  refresh(f.fd);
}

int FileLog::open_locked(bool exclusive) {
  // Retry when the file we locked was unlinked meanwhile (the last worker's cleanup).
  while (true) {
    int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) fail(path_, "open");
    while (::flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0) {
      if (errno != EINTR) {
        ::close(fd);
        fail(path_, "lock");
      }
    }
    struct stat by_fd {
    }, by_path{};
    if (::fstat(fd, &by_fd) == 0 && ::stat(path_.c_str(), &by_path) == 0 &&
        by_fd.st_ino == by_path.st_ino && by_fd.st_dev == by_path.st_dev) {
      return fd;
    }
    ::close(fd);
  }
}

void FileLog::refresh(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail(path_, "stat");
  auto size = static_cast<uint64_t>(st.st_size);
  if (static_cast<uint64_t>(st.st_ino) != inode_ || size < offset_) {  // a new file
    map_.clear();
    offset_ = 0;
    inode_ = static_cast<uint64_t>(st.st_ino);
  }
  if (size == offset_) return;
  std::string buf(size - offset_, '\0');
  size_t got = 0;
  while (got < buf.size()) {
    ssize_t n = ::pread(fd, buf.data() + got, buf.size() - got, static_cast<off_t>(offset_ + got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(path_, "read");
    got += static_cast<size_t>(n);
  }
  size_t pos = 0;
  while (buf.size() - pos >= kHeader) {
    const char kind = buf[pos];
    uint64_t klen = load_le<uint32_t>(buf.data() + pos + 1);
    uint64_t vlen = load_le<uint64_t>(buf.data() + pos + 5);
    if ((kind != 'S' && kind != 'D') || vlen > buf.size() ||
        klen + vlen > buf.size() - pos - kHeader) {
      break;  // a torn tail (a writer died mid-append): stop at the last whole record
    }
    std::string key = buf.substr(pos + kHeader, klen);
    if (kind == 'S') {
      map_[std::move(key)] = buf.substr(pos + kHeader + klen, vlen);
    } else {
      map_.erase(key);
    }
    pos += kHeader + klen + vlen;
  }
  offset_ += pos;
}

void FileLog::read(const std::function<void(const Map&)>& fn) {
  std::lock_guard<std::mutex> lock(mutex_);
  Fd f{open_locked(false)};
  refresh(f.fd);
  fn(map_);
}

void FileLog::write(const std::function<Edit(const Map&)>& fn) {
  std::lock_guard<std::mutex> lock(mutex_);
  Fd f{open_locked(true)};
  refresh(f.fd);
  Edit e = fn(map_);
  if (e.kind == 0) return;
  std::string rec;
  rec.push_back(e.kind);
  store_le<uint32_t>(rec, static_cast<uint32_t>(e.key.size()));
  store_le<uint64_t>(rec, e.value.size());
  rec += e.key;
  rec += e.value;
  size_t done = 0;
  while (done < rec.size()) {
    ssize_t n =
        ::pwrite(f.fd, rec.data() + done, rec.size() - done, static_cast<off_t>(offset_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(path_, "append to");
    done += static_cast<size_t>(n);
  }
  refresh(f.fd);
}

}  // namespace brasa::distributed::detail
