#pragma once
// The ZIP container of torch.save files: uncompressed ("stored") records under one top-level
// folder, ZIP64 when sizes or offsets need it, each record's data aligned to 64 bytes (an "FB"
// extra field in the local header pads it), CRC-32 per record. Readers work on bytes in memory
// (usually a MappedFile) and hand out views, so storages load without copying.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "brasa/archive/file_io.h"

namespace brasa::serialize {

struct ZipEntry {
  std::string name;          // full name inside the archive, e.g. "archive/data/0"
  uint64_t data_offset = 0;  // of the record's bytes from the start of the archive
  uint64_t size = 0;
  uint32_t crc32 = 0;
};

/// Parses the central directory of `data` (not owned; must outlive the reader). Only stored
/// (method 0), unencrypted records are accepted. Throws SerializationError naming `origin` (a path
/// or "<buffer>") and the problem: truncated archive, bad signatures, entries outside the archive
/// or overlapping the central directory, size mismatches between local and central headers,
/// compressed or encrypted records, names with "..", absolute paths or NUL bytes, duplicates.
class BRASA_API ZipReader {
 public:
  ZipReader(const uint8_t* data, size_t size, std::string origin);
  const std::vector<ZipEntry>& entries() const { return entries_; }
  /// The entry named exactly `name`, or null.
  const ZipEntry* find(std::string_view name) const;
  /// The bytes of record `name` (a view into the data). Throws SerializationError when it is
  /// missing or (verify_crc) its CRC-32 differs from the directory's.
  std::span<const uint8_t> record(std::string_view name, bool verify_crc = true) const;
  const std::string& origin() const { return origin_; }

 private:
  const uint8_t* data_;
  size_t size_;
  std::string origin_;
  std::vector<ZipEntry> entries_;
  std::vector<size_t> by_name_;  // indices of entries_ sorted by name, for find()
};

/// Streams a ZIP archive to `sink`: add() writes a record (its data 64-byte aligned), finish() the
/// central directory (ZIP64 records when needed, or always with `force_zip64`). Records are written
/// in the order added. add() throws SerializationError for unsafe names (see zip_name_problem),
/// duplicates, or calls after finish().
class BRASA_API ZipWriter {
 public:
  explicit ZipWriter(ByteSink sink, bool force_zip64 = false);
  void add(std::string_view name, const void* data, size_t n);
  void finish();

 private:
  ByteSink sink_;
  bool force_zip64_;
  uint64_t offset_ = 0;
  std::vector<ZipEntry> entries_;  // data_offset here = the local header's offset
  std::unordered_set<std::string> names_;
  bool finished_ = false;
};

/// Why `name` is not accepted as a record name (empty, longer than 65535 bytes, a ".." component, a
/// leading '/', a backslash or a NUL byte), or an empty view when it is fine.
BRASA_API std::string_view zip_name_problem(std::string_view name);

}  // namespace brasa::serialize
