#pragma once
// Files for serialization: read-only memory maps that tensors can keep alive (zero-copy loads),
// and atomic writes (temporary sibling file, fsync, rename, fsync of the directory) so a reader
// never sees a half-written file and a crash leaves the previous file intact.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "brasa/core/macros.h"

namespace brasa::serialize {

/// A whole file mapped copy-on-write: reads come from the page cache; a tensor viewing the map
/// may be written without touching the file. Keep it alive with a shared_ptr while views exist.
class BRASA_API MappedFile {
 public:
  /// Maps `path`. Throws SerializationError naming the path and the OS reason.
  static std::shared_ptr<MappedFile> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const uint8_t* data() const { return data_; }
  uint8_t* mutable_data() { return data_; }
  size_t size() const { return size_; }
  const std::string& path() const { return path_; }

 private:
  MappedFile(std::string path, uint8_t* data, size_t size)
      : path_(std::move(path)), data_(data), size_(size) {}
  std::string path_;
  uint8_t* data_;
  size_t size_;
};

/// Reads a whole file. Throws SerializationError naming the path and the OS reason.
BRASA_API std::vector<uint8_t> read_file(const std::string& path);

/// Writes a file atomically: `write` streams the content through the sink it is given; the data is
/// written to a temporary file next to `path`, fsync'ed and renamed over `path`, and the directory
/// is fsync'ed. If `write` throws or any step fails, the temporary file is removed, `path` is
/// untouched and the error propagates (SerializationError for I/O failures, naming the path and the
/// reason).
using ByteSink = std::function<void(const void* data, size_t n)>;
BRASA_API void write_file_atomic(const std::string& path,
                                 const std::function<void(const ByteSink& sink)>& write);
/// Convenience: atomically writes `n` bytes.
BRASA_API void write_file_atomic(const std::string& path, const void* data, size_t n);

}  // namespace brasa::serialize
