#pragma once
// Reading idx files (the MNIST format), plain or gzip-compressed.

#include <cstdint>
#include <string>
#include <vector>

namespace brasa::data::detail {

/// An idx file of unsigned bytes: dims from the header, then the payload.
struct IdxFile {
  std::vector<int64_t> dims;
  std::vector<uint8_t> bytes;  // header included; the payload starts at payload_offset
  size_t payload_offset = 0;
};

/// The whole decompressed content of `path` (gzip or plain: zlib reads plain files as they are).
/// Throws DataFileNotFoundError when it does not exist, DataFileCorruptError on a gzip error.
std::vector<uint8_t> read_maybe_gzip(const std::string& path);

/// Parses an idx file of ubyte with `expected_dims` dims and checks that the payload has exactly
/// the size the header announces. Throws DataFileCorruptError naming `path` otherwise.
IdxFile parse_idx(std::vector<uint8_t> bytes, int64_t expected_dims, const std::string& path);

}  // namespace brasa::data::detail
