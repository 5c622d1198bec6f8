#pragma once
// The safetensors header: the dtype table, parsing with every validation of the reference reader
// (plus duplicate keys, '{' first, space-only padding, string-only metadata), and writing in the
// reference layout.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "brasa/core/dtype.h"

namespace brasa::serialize::safetensors {

constexpr uint64_t kMaxHeaderSize = 100'000'000;

struct Entry {
  std::string name;
  ScalarType dtype = ScalarType::Undefined;
  std::vector<int64_t> shape;
  uint64_t begin = 0;  // byte offsets relative to the data buffer; end is one past
  uint64_t end = 0;
};

struct Header {
  std::vector<Entry> entries;  // in header order
  std::map<std::string, std::string> metadata;
  uint64_t data_start = 0;  // 8 + header length
};

/// Validates the whole image (`size` bytes) and returns its header. `origin` names the file (or
/// "<bytes>") in the SerializationError messages.
Header parse_header(const uint8_t* data, size_t size, const std::string& origin);

/// The safetensors dtype string of a brasa dtype ("F32", ...), and its rank in the reference's
/// dtype enum (writers sort by descending rank).
const char* dtype_name(ScalarType t);
int dtype_rank(ScalarType t);

/// The padded header bytes (without the 8-byte length) for entries laid out in order.
std::string write_header(const std::vector<Entry>& entries,
                         const std::map<std::string, std::string>& metadata);

}  // namespace brasa::serialize::safetensors
