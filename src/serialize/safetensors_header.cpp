#include "serialize/safetensors_header.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>

#include "brasa/archive/error.h"
#include "brasa/core/error.h"
#include "serialize/json_reader.h"

namespace brasa::serialize::safetensors {

namespace {

struct DtypeInfo {
  const char* name;
  uint64_t bits;
  ScalarType type;  // Undefined: recognised but not a brasa dtype
};

// The reference's dtype enum, in order (rank = index).
constexpr DtypeInfo kDtypes[] = {
    {"BOOL", 8, kBool},
    {"F4", 4, ScalarType::Undefined},
    {"F6_E2M3", 6, ScalarType::Undefined},
    {"F6_E3M2", 6, ScalarType::Undefined},
    {"U8", 8, kByte},
    {"I8", 8, kChar},
    {"F8_E5M2", 8, ScalarType::Undefined},
    {"F8_E4M3", 8, ScalarType::Undefined},
    {"F8_E8M0", 8, ScalarType::Undefined},
    {"F8_E4M3FNUZ", 8, ScalarType::Undefined},
    {"F8_E5M2FNUZ", 8, ScalarType::Undefined},
    {"I16", 16, kShort},
    {"U16", 16, ScalarType::Undefined},
    {"F16", 16, kHalf},
    {"BF16", 16, kBFloat16},
    {"I32", 32, kInt},
    {"U32", 32, ScalarType::Undefined},
    {"F32", 32, kFloat},
    {"C64", 64, ScalarType::Undefined},
    {"F64", 64, kDouble},
    {"I64", 64, kLong},
    {"U64", 64, ScalarType::Undefined},
};

const DtypeInfo* find_dtype(std::string_view name) {
  for (const auto& d : kDtypes) {
    if (name == d.name) return &d;
  }
  return nullptr;
}

std::string supported_list() {
  std::string s;
  for (const auto& d : kDtypes) {
    if (d.type == ScalarType::Undefined) continue;
    if (!s.empty()) s += ", ";
    s += d.name;
  }
  return s;
}

[[noreturn]] void fail(const std::string& origin, const std::string& what) {
  throw SerializationError(detail::str_cat("safetensors: '", origin, "': ", what));
}

uint64_t read_u64_le(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

Entry parse_entry(JsonReader& json, const std::string& name, const std::string& origin) {
  Entry e;
  e.name = name;
  bool has_dtype = false, has_shape = false, has_offsets = false;
  if (json.peek() != '{') json.fail(detail::str_cat("tensor '", name, "' must be an object"));
  json.read_object([&](const std::string& field) {
    if (field == "dtype") {
      has_dtype = true;
      if (json.peek() != '"')
        json.fail(detail::str_cat("dtype of tensor '", name, "' must be a string"));
      const std::string dtype = json.read_string();
      const DtypeInfo* info = find_dtype(dtype);
      if (info == nullptr) {
        fail(origin, detail::str_cat("tensor '", name, "' has unknown dtype \"", dtype,
                                     "\" (expected one of ", supported_list(), ")"));
      }
      if (info->type == ScalarType::Undefined) {
        fail(origin, detail::str_cat("tensor '", name, "' has dtype ", dtype,
                                     ", which brasa does not support"));
      }
      e.dtype = info->type;
    } else if (field == "shape") {
      has_shape = true;
      if (json.peek() != '[')
        json.fail(detail::str_cat("shape of tensor '", name, "' must be an array"));
      const std::string what = detail::str_cat("the shape of tensor '", name, "'");
      json.read_array([&](size_t) {
        const uint64_t d = json.read_uint(what);
        if (d > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
          json.fail(detail::str_cat("a dimension of ", what, " exceeds 2^63-1"));
        }
        e.shape.push_back(static_cast<int64_t>(d));
      });
    } else if (field == "data_offsets") {
      has_offsets = true;
      const std::string what = detail::str_cat("data_offsets of tensor '", name, "'");
      if (json.peek() != '[') json.fail(what + " must be an array [begin, end]");
      size_t count = 0;
      json.read_array([&](size_t i) {
        if (i >= 2) json.fail(what + " must have exactly 2 entries");
        (i == 0 ? e.begin : e.end) = json.read_uint(what);
        count = i + 1;
      });
      if (count != 2) json.fail(what + " must have exactly 2 entries");
    } else {
      json.skip_value();  // unknown fields are ignored, like the reference
    }
  });
  const char* missing = !has_dtype     ? "dtype"
                        : !has_shape   ? "shape"
                        : !has_offsets ? "data_offsets"
                                       : nullptr;
  if (missing != nullptr)
    json.fail(detail::str_cat("tensor '", name, "' has no \"", missing, "\""));
  return e;
}

void parse_metadata(JsonReader& json, std::map<std::string, std::string>& metadata) {
  if (json.peek() != '{') json.fail("\"__metadata__\" must be an object of strings");
  json.read_object([&](const std::string& key) {
    if (json.peek() != '"') {
      json.fail(detail::str_cat("\"__metadata__\" value of \"", key, "\" must be a string"));
    }
    metadata[key] = json.read_string();
  });
}

void validate(Header& h, uint64_t data_size, const std::string& origin) {
  std::vector<const Entry*> order;
  order.reserve(h.entries.size());
  for (const auto& e : h.entries) order.push_back(&e);
  std::sort(order.begin(), order.end(), [](const Entry* a, const Entry* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  uint64_t expected_begin = 0;
  for (const Entry* e : order) {
    if (e->begin != expected_begin || e->end < e->begin) {
      fail(origin, detail::str_cat("tensor '", e->name, "' has data_offsets [", e->begin, ", ",
                                   e->end, "], expected to start at ", expected_begin,
                                   " (the data buffer must be covered without gaps or overlaps)"));
    }
    uint64_t count = 1;
    for (int64_t d : e->shape) {
      if (__builtin_mul_overflow(count, static_cast<uint64_t>(d), &count)) {
        fail(origin,
             detail::str_cat("tensor '", e->name, "': the element count overflows 64 bits"));
      }
    }
    // Strides of an empty tensor still multiply its non-zero dims: they must fit int64.
    uint64_t span = 1;
    for (int64_t d : e->shape) {
      if (d != 0 && (__builtin_mul_overflow(span, static_cast<uint64_t>(d), &span) ||
                     span > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))) {
        fail(origin, detail::str_cat("tensor '", e->name, "': the shape is too large to index"));
      }
    }
    uint64_t bits = 0;
    if (__builtin_mul_overflow(count, uint64_t{element_size(e->dtype)} * 8, &bits)) {
      fail(origin, detail::str_cat("tensor '", e->name, "': the byte size overflows 64 bits"));
    }
    if (e->end - e->begin != bits / 8) {
      fail(origin, detail::str_cat("tensor '", e->name, "' has data_offsets [", e->begin, ", ",
                                   e->end, "] (", e->end - e->begin, " bytes), expected ", bits / 8,
                                   " bytes for its dtype and shape"));
    }
    expected_begin = e->end;
  }
  if (expected_begin != data_size) {
    fail(origin, detail::str_cat("the tensors cover ", expected_begin,
                                 " bytes of the data buffer, but it has ", data_size,
                                 " bytes (truncated file or trailing bytes)"));
  }
}

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += kHex[(c >> 4) & 0xF];
          out += kHex[c & 0xF];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

}  // namespace

Header parse_header(const uint8_t* data, size_t size, const std::string& origin) {
  if (size < 8) {
    fail(origin,
         detail::str_cat("the file has ", size, " bytes, fewer than the 8-byte header length"));
  }
  const uint64_t n = read_u64_le(data);
  if (n > kMaxHeaderSize) {
    fail(origin,
         detail::str_cat("header length ", n, " exceeds the limit of ", kMaxHeaderSize, " bytes"));
  }
  if (n > size - 8) {
    fail(origin,
         detail::str_cat("header length ", n, " runs past the end of the file (", size, " bytes)"));
  }
  const std::string_view text(reinterpret_cast<const char*>(data + 8), static_cast<size_t>(n));
  if (text.empty() || text[0] != '{') {
    fail(origin, "the header must start with '{'");
  }
  size_t bad = 0;
  if (!is_valid_utf8(text, &bad)) {
    fail(origin, detail::str_cat("the header is not valid UTF-8 (at byte ", bad, ")"));
  }
  Header h;
  h.data_start = 8 + n;
  JsonReader json(text, detail::str_cat("safetensors: '", origin, "'"));
  json.read_object([&](const std::string& key) {
    if (key == "__metadata__") {
      parse_metadata(json, h.metadata);
    } else {
      h.entries.push_back(parse_entry(json, key, origin));
    }
  });
  json.expect_end(" ");
  validate(h, size - h.data_start, origin);
  return h;
}

const char* dtype_name(ScalarType t) {
  for (const auto& d : kDtypes) {
    if (d.type == t) return d.name;
  }
  BRASA_THROW(TypeError, "safetensors: dtype ", t, " has no safetensors equivalent");
}

int dtype_rank(ScalarType t) {
  for (size_t i = 0; i < std::size(kDtypes); ++i) {
    if (kDtypes[i].type == t) return static_cast<int>(i);
  }
  BRASA_THROW(TypeError, "safetensors: dtype ", t, " has no safetensors equivalent");
}

std::string write_header(const std::vector<Entry>& entries,
                         const std::map<std::string, std::string>& metadata) {
  std::string out = "{";
  bool first = true;
  if (!metadata.empty()) {
    out += "\"__metadata__\":{";
    for (const auto& [k, v] : metadata) {
      if (!first) out += ',';
      first = false;
      append_json_string(out, k);
      out += ':';
      append_json_string(out, v);
    }
    out += '}';
    first = false;
  }
  for (const auto& e : entries) {
    if (!first) out += ',';
    first = false;
    append_json_string(out, e.name);
    out += ":{\"dtype\":\"";
    out += dtype_name(e.dtype);
    out += "\",\"shape\":[";
    for (size_t i = 0; i < e.shape.size(); ++i) {
      if (i != 0) out += ',';
      out += std::to_string(e.shape[i]);
    }
    out += "],\"data_offsets\":[";
    out += std::to_string(e.begin);
    out += ',';
    out += std::to_string(e.end);
    out += "]}";
  }
  out += '}';
  out.resize((out.size() + 7) / 8 * 8, ' ');
  if (out.size() > kMaxHeaderSize) {
    BRASA_THROW(ValueError, "safetensors: the header would be ", out.size(),
                " bytes, more than the limit of ", kMaxHeaderSize);
  }
  return out;
}

}  // namespace brasa::serialize::safetensors
