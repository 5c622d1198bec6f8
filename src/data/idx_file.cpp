// idx files: a big-endian header (magic 0x0000 08 <ndim>, then ndim uint32 sizes) and raw bytes.

#include "data/idx_file.h"

#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>

#include "brasa/data/datasets/mnist.h"

namespace brasa::data::detail {

namespace {
// The decompressed size a gzip file announces in its trailer (mod 2^32), or the size of a plain
// file: only a hint for reserving memory. A damaged or truncated file's trailer is arbitrary, so
// the hint is capped by what deflate can expand the file to (at most 1032:1).
size_t size_hint(const std::string& path) {
  std::error_code ec;
  const auto file_size = static_cast<size_t>(std::filesystem::file_size(path, ec));
  std::ifstream in(path, std::ios::binary);
  uint8_t head[2] = {0, 0};
  if (ec || !in.read(reinterpret_cast<char*>(head), 2) || head[0] != 0x1f || head[1] != 0x8b ||
      file_size < 18) {
    return ec ? 0 : file_size;
  }
  uint8_t tail[4] = {0, 0, 0, 0};
  in.seekg(-4, std::ios::end);
  in.read(reinterpret_cast<char*>(tail), 4);
  const uint32_t isize = uint32_t{tail[0]} | (uint32_t{tail[1]} << 8) | (uint32_t{tail[2]} << 16) |
                         (uint32_t{tail[3]} << 24);
  return std::min<size_t>({isize, file_size * 1032, size_t{1} << 30});
}
}  // namespace

std::vector<uint8_t> read_maybe_gzip(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    BRASA_THROW(data::datasets::DataFileNotFoundError, "MNIST: no file ", path);
  }
  std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), gzclose);
  BRASA_CHECK_TYPED(data::datasets::DataFileNotFoundError, file != nullptr, "MNIST: cannot open ",
                    path);
  gzbuffer(file.get(), 1 << 20);
  std::vector<uint8_t> bytes;
  bytes.reserve(size_hint(path) + 1);
  // Read a MiB at a time: resize() zero-fills what it adds, so growing by the (untrusted) hint
  // at once would write up to 1 GiB for a damaged file before reading a byte of it.
  constexpr size_t kChunk = 1 << 20;
  while (true) {
    const size_t old_size = bytes.size();
    bytes.resize(old_size + kChunk);
    const int got = gzread(file.get(), bytes.data() + old_size, static_cast<unsigned>(kChunk));
    if (got < 0) {
      int errnum = 0;
      const char* message = gzerror(file.get(), &errnum);
      BRASA_THROW(data::datasets::DataFileCorruptError, "MNIST: cannot decompress ", path, ": ",
                  message);
    }
    bytes.resize(old_size + static_cast<size_t>(got));
    if (got == 0) {
      break;
    }
  }
  int errnum = Z_OK;
  const char* message = gzerror(file.get(), &errnum);
  BRASA_CHECK_TYPED(data::datasets::DataFileCorruptError, errnum == Z_OK || errnum == Z_STREAM_END,
                    "MNIST: cannot decompress ", path, ": ", message);
  return bytes;
}

namespace {
uint32_t read_be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}
}  // namespace

IdxFile parse_idx(std::vector<uint8_t> bytes, int64_t expected_dims, const std::string& path) {
  BRASA_CHECK_TYPED(data::datasets::DataFileCorruptError, bytes.size() >= 4, "MNIST: ", path,
                    " is truncated (", bytes.size(), " bytes, no idx header)");
  const uint32_t magic = read_be32(bytes.data());
  const uint32_t expected_magic = 0x0800u | static_cast<uint32_t>(expected_dims);
  BRASA_CHECK_TYPED(data::datasets::DataFileCorruptError, magic == expected_magic, "MNIST: ", path,
                    " has bad magic number 0x", std::hex, magic, " (expected 0x", expected_magic,
                    ": an idx file of ", std::dec, expected_dims, "-d unsigned bytes)");
  const size_t header = 4 + 4 * static_cast<size_t>(expected_dims);
  BRASA_CHECK_TYPED(data::datasets::DataFileCorruptError, bytes.size() >= header, "MNIST: ", path,
                    " is truncated inside its header (", bytes.size(), " bytes)");
  IdxFile idx;
  uint64_t payload = 1;
  for (int64_t d = 0; d < expected_dims; ++d) {
    const uint32_t size = read_be32(bytes.data() + 4 + 4 * d);
    idx.dims.push_back(size);
    // Checked before multiplying: 2^40 * (2^32 - 1) would wrap around 64 bits (to 0, even).
    BRASA_CHECK_TYPED(data::datasets::DataFileCorruptError,
                      size == 0 || payload <= (uint64_t{1} << 40) / size, "MNIST: ", path,
                      " announces an implausible size");
    payload *= size;
  }
  BRASA_CHECK_TYPED(
      data::datasets::DataFileCorruptError, bytes.size() - header == payload, "MNIST: ", path,
      (bytes.size() - header < payload ? " is truncated" : " has trailing bytes"),
      ": its header announces ", payload, " bytes of data, the file has ", bytes.size() - header);
  idx.bytes = std::move(bytes);
  idx.payload_offset = header;
  return idx;
}

}  // namespace brasa::data::detail
