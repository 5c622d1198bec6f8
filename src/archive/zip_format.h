#pragma once
// Record layouts of the ZIP format shared by the reader and the writer (little-endian fields).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace brasa::serialize::zip {

constexpr uint32_t kLocalSig = 0x04034b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kEocdSig = 0x06054b50;
constexpr uint32_t kZip64EocdSig = 0x06064b50;
constexpr uint32_t kZip64LocatorSig = 0x07064b50;

constexpr size_t kLocalSize = 30;
constexpr size_t kCentralSize = 46;
constexpr size_t kEocdSize = 22;
constexpr size_t kZip64EocdSize = 56;  // including the 12 bytes of signature and record size
constexpr size_t kZip64LocatorSize = 20;

constexpr uint16_t kZip64ExtraId = 0x0001;
constexpr uint16_t kPaddingExtraId = 0x4246;  // "FB": PyTorch's alignment padding
constexpr uint64_t kAlignment = 64;
constexpr uint32_t kMax32 = 0xFFFFFFFF;
constexpr uint16_t kMax16 = 0xFFFF;

constexpr uint16_t kFlagEncrypted = 1 << 0;
constexpr uint16_t kFlagDataDescriptor = 1 << 3;
constexpr uint16_t kFlagStrongEncryption = 1 << 6;
constexpr uint16_t kFlagMaskedHeaders = 1 << 13;

constexpr uint16_t kVersionZip64 = 45;       // "version needed" of records with ZIP64 fields
constexpr uint16_t kVersionMadeBy = 0x031E;  // UNIX, 3.0, as miniz writes in the ZIP64 end record

inline uint16_t read16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
inline uint32_t read32(const uint8_t* p) {
  return static_cast<uint32_t>(read16(p)) | static_cast<uint32_t>(read16(p + 2)) << 16;
}
inline uint64_t read64(const uint8_t* p) {
  return static_cast<uint64_t>(read32(p)) | static_cast<uint64_t>(read32(p + 4)) << 32;
}

inline void put16(std::string& out, uint64_t v) {
  for (int i = 0; i < 2; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
inline void put32(std::string& out, uint64_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}
inline void put64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

/// zlib's CRC-32 over any length (zlib takes at most 4 GiB per call on some builds).
uint32_t crc32_of(const void* data, size_t n);

/// `name` as it may appear in a message: control and non-ASCII bytes as \xNN.
std::string printable(std::string_view name);

}  // namespace brasa::serialize::zip
