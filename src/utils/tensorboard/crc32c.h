#pragma once
// CRC-32C (Castagnoli), the checksum of TFRecord framing, and TensorFlow's masked form of it.

#include <cstddef>
#include <cstdint>

#include "brasa/core/macros.h"

namespace brasa::tensorboard::detail {

/// CRC-32C of `n` bytes (reflected polynomial 0x82F63B78, initial and final xor 0xFFFFFFFF):
/// crc32c("123456789") == 0xE3069283.
BRASA_API uint32_t crc32c(const void* data, size_t n);

/// The masked CRC stored in TFRecord files: rotate right by 15, add 0xA282EAD8. (A CRC of data
/// that itself holds CRCs is weak; masking avoids that.)
inline uint32_t masked_crc32c(const void* data, size_t n) {
  const uint32_t crc = crc32c(data, n);
  return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u;
}

}  // namespace brasa::tensorboard::detail
