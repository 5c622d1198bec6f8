// checkpoint::load: each rank reads the overlap of the stored chunks with its pieces, in whole
// CRC-checked blocks, into staging tensors; they are copied in only when every rank succeeded.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>

#include "brasa/archive/file_io.h"
#include "brasa/autograd/grad_mode.h"
#include "brasa/brasa.h"
#include "brasa/distributed/checkpoint.h"
#include "distributed/checkpoint/dcp_group.h"

namespace brasa::distributed::checkpoint {
namespace fs = std::filesystem;
namespace dcp = serialize::dcp;

namespace {

// The shard files a load opened, each checked against the size the metadata records.
class Files {
 public:
  Files(const std::string& dir, const dcp::Metadata& meta) : dir_(dir), meta_(meta) {}
  ~Files() {
    for (auto& [i, fd] : fds_) ::close(fd);
  }
  Files(const Files&) = delete;
  Files& operator=(const Files&) = delete;

  int open(int64_t index, const std::string& tensor) {
    auto it = fds_.find(index);
    if (it != fds_.end()) return it->second;
    const auto& f = meta_.files[static_cast<size_t>(index)];
    const std::string path = (fs::path(dir_) / f.name).string();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      BRASA_THROW(SerializationError, "distributed checkpoint ", dir_, ": cannot open shard file ",
                  path, " holding tensor '", tensor, "' (", std::strerror(errno), ")");
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_size != f.size) {
      ::close(fd);
      BRASA_THROW(SerializationError, "distributed checkpoint ", dir_, ": shard file ", path,
                  " holding tensor '", tensor, "' is ", static_cast<int64_t>(st.st_size),
                  " bytes but the metadata records ", f.size, " (truncated or replaced)");
    }
    fds_[index] = fd;
    return fd;
  }
  std::string path(int64_t index) const {
    return (fs::path(dir_) / meta_.files[static_cast<size_t>(index)].name).string();
  }
  int64_t opened() const { return static_cast<int64_t>(fds_.size()); }

 private:
  std::string dir_;
  const dcp::Metadata& meta_;
  std::map<int64_t, int> fds_;
};

struct Run {
  int64_t src;  // byte offset in the chunk
  int64_t dst;  // byte offset in the piece
  int64_t n;
};

// The byte runs of `chunk` that lie in the piece [offsets, offsets + sizes), each contiguous in
// both; empty when they do not overlap.
std::vector<Run> overlap_runs(const dcp::ChunkMeta& chunk, const std::vector<int64_t>& offsets,
                              IntArrayRef sizes, int64_t elem) {
  const size_t nd = offsets.size();
  std::vector<int64_t> lo(nd), len(nd);
  for (size_t d = 0; d < nd; ++d) {
    lo[d] = std::max(chunk.offsets[d], offsets[d]);
    const int64_t hi =
        std::min(chunk.offsets[d] + chunk.lengths[d], offsets[d] + sizes[static_cast<int64_t>(d)]);
    if (hi <= lo[d]) return {};
    len[d] = hi - lo[d];
  }
  // Strides (elements) of the chunk and the piece, both row-major.
  std::vector<int64_t> cs(nd + 1, 1), ps(nd + 1, 1);
  for (size_t d = nd; d-- > 0;) {
    cs[d] = cs[d + 1] * chunk.lengths[d];
    ps[d] = ps[d + 1] * sizes[static_cast<int64_t>(d)];
  }
  // Dims [k, nd) form one contiguous run in both when the inner ones are whole in both.
  size_t k = nd;
  while (k > 0 &&
         (k == nd || (len[k] == chunk.lengths[k] && len[k] == sizes[static_cast<int64_t>(k)]))) {
    --k;
  }
  if (nd == 0) return {{0, 0, elem}};
  int64_t run = 1;
  for (size_t d = k; d < nd; ++d) run *= len[d];
  std::vector<Run> runs;
  std::vector<int64_t> idx(k, 0);
  while (true) {
    int64_t src = 0, dst = 0;
    for (size_t d = 0; d < nd; ++d) {
      const int64_t i = lo[d] + (d < k ? idx[d] : 0);
      src += (i - chunk.offsets[d]) * cs[d + 1];
      dst += (i - offsets[d]) * ps[d + 1];
    }
    runs.push_back({src * elem, dst * elem, run * elem});
    size_t d = k;
    while (d > 0 && ++idx[d - 1] == len[d - 1]) idx[--d] = 0;
    if (d == 0) break;
  }
  return runs;
}

// Reads the runs of one chunk into `piece` (bytes), block by whole block, checking each CRC.
int64_t read_runs(Files& files, const dcp::Metadata& meta, const dcp::TensorMeta& t,
                  const dcp::ChunkMeta& chunk, const std::vector<Run>& runs, uint8_t* piece) {
  const int64_t bs = meta.block_size;
  const int64_t chunk_bytes = chunk.numel() * static_cast<int64_t>(element_size(t.dtype));
  const int fd = files.open(chunk.file, t.name);
  int64_t read_bytes = 0;
  std::vector<uint8_t> buf;
  size_t i = 0;
  while (i < runs.size()) {
    // The blocks of runs[i..j), merged while they touch.
    const int64_t first = runs[i].src / bs;
    int64_t last = (runs[i].src + runs[i].n - 1) / bs;
    size_t j = i + 1;
    while (j < runs.size() && runs[j].src / bs <= last + 1) {
      last = std::max(last, (runs[j].src + runs[j].n - 1) / bs);
      ++j;
    }
    const int64_t begin = first * bs, end = std::min((last + 1) * bs, chunk_bytes);
    buf.resize(static_cast<size_t>(end - begin));
    int64_t done = 0;
    while (done < end - begin) {
      const ssize_t got = ::pread(fd, buf.data() + done, static_cast<size_t>(end - begin - done),
                                  chunk.file_offset + begin + done);
      if (got <= 0) {
        BRASA_THROW(SerializationError, "distributed checkpoint: reading tensor '", t.name,
                    "' from shard file ", files.path(chunk.file), " failed (",
                    got == 0 ? "unexpected end of file" : std::strerror(errno), ")");
      }
      done += got;
    }
    read_bytes += end - begin;
    for (int64_t b = first; b <= last; ++b) {
      const int64_t off = b * bs - begin, n = std::min(bs, chunk_bytes - b * bs);
      if (dcp::crc32(buf.data() + off, static_cast<size_t>(n)) !=
          chunk.crcs[static_cast<size_t>(b)]) {
        BRASA_THROW(SerializationError, "distributed checkpoint: shard file ",
                    files.path(chunk.file), " is corrupt: block ", b, " of tensor '", t.name,
                    "' (bytes ", chunk.file_offset + b * bs, "..", chunk.file_offset + b * bs + n,
                    ") does not match its CRC");
      }
    }
    for (size_t r = i; r < j; ++r) {
      std::memcpy(piece + runs[r].dst, buf.data() + (runs[r].src - begin),
                  static_cast<size_t>(runs[r].n));
    }
    i = j;
  }
  return read_bytes;
}

}  // namespace

dcp::Metadata read_metadata(const std::string& dir) {
  const std::string path = (fs::path(dir) / dcp::kMetadataFile).string();
  BRASA_CHECK_TYPED(SerializationError, fs::exists(path), "distributed checkpoint ", dir,
                    ": no committed checkpoint (", path, " does not exist)");
  const std::vector<uint8_t> bytes = serialize::read_file(path);
  return dcp::parse_metadata(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path);
}

LoadInfo load(StateDict& state, const std::string& dir, ProcessGroup* group) {
  group = detail::resolve_group(group);
  LoadInfo info;
  std::vector<Tensor> staged;
  std::exception_ptr error;
  try {
    const dcp::Metadata meta = read_metadata(dir);
    for (const auto& e : state.entries()) {
      const dcp::TensorMeta* t = meta.find(e.name);
      BRASA_CHECK(t != nullptr, "checkpoint::load: ", dir, " has no tensor '", e.name, "'");
      BRASA_CHECK(
          t->dtype == e.local.scalar_type() && IntArrayRef(t->shape) == IntArrayRef(e.shape),
          "checkpoint::load: tensor '", e.name, "' is ", dcp::dtype_name(t->dtype), " ",
          IntArrayRef(t->shape), " in ", dir, " but ", e.local.scalar_type(), " ",
          IntArrayRef(e.shape), " here");
    }
    Files files(dir, meta);
    for (const auto& e : state.entries()) {
      const dcp::TensorMeta& t = *meta.find(e.name);
      const int64_t elem = static_cast<int64_t>(element_size(t.dtype));
      Tensor piece = empty(e.local.sizes(), e.local.scalar_type());
      info.bytes_needed += piece.numel() * elem;
      auto* dst = static_cast<uint8_t*>(piece.data_ptr());
      if (piece.numel() > 0) {
        for (const auto& chunk : t.chunks) {
          const auto runs = overlap_runs(chunk, e.offsets, e.local.sizes(), elem);
          if (!runs.empty()) info.bytes_read += read_runs(files, meta, t, chunk, runs, dst);
        }
      }
      staged.push_back(piece);
    }
    info.files_opened = files.opened();
  } catch (...) {
    error = std::current_exception();
  }
  detail::agree(group, error, "load", dir);
  NoGradGuard no_grad;
  for (size_t i = 0; i < staged.size(); ++i) {
    Tensor local = state.entries()[i].local;
    local.copy_(staged[i]);
  }
  return info;
}

}  // namespace brasa::distributed::checkpoint
