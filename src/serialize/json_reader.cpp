#include "serialize/json_reader.h"

#include <set>

#include "brasa/archive/error.h"
#include "brasa/core/error.h"

namespace brasa::serialize {

namespace {
bool is_digit(char c) { return c >= '0' && c <= '9'; }

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}
}  // namespace

bool is_valid_utf8(std::string_view bytes, size_t* bad_offset) {
  const auto* s = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t n = bytes.size();
  size_t i = 0;
  while (i < n) {
    const uint8_t c = s[i];
    size_t len = 0;
    uint32_t cp = 0, min = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2, cp = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3, cp = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4, cp = c & 0x07, min = 0x10000;
    } else {
      *bad_offset = i;
      return false;
    }
    if (n - i < len) {
      *bad_offset = i;
      return false;
    }
    for (size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) {
        *bad_offset = i;
        return false;
      }
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      *bad_offset = i;
      return false;
    }
    i += len;
  }
  return true;
}

JsonReader::JsonReader(std::string_view text, std::string context)
    : text_(text), context_(std::move(context)) {}

void JsonReader::fail(const std::string& what) const {
  throw SerializationError(
      detail::str_cat(context_, ": invalid JSON header at byte ", pos_, ": ", what));
}

void JsonReader::skip_ws() {
  while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                 text_[pos_] == '\r')) {
    ++pos_;
  }
}

char JsonReader::peek() {
  skip_ws();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

void JsonReader::expect(char c, const char* what) {
  skip_ws();
  if (pos_ >= text_.size()) fail(detail::str_cat("expected ", what, ", got the end of the header"));
  if (text_[pos_] != c) fail(detail::str_cat("expected ", what, ", got '", text_[pos_], "'"));
  ++pos_;
}

void JsonReader::read_object(const std::function<void(const std::string& key)>& on_member) {
  expect('{', "an object '{'");
  if (++depth_ > kMaxDepth) fail(detail::str_cat("nesting deeper than ", kMaxDepth, " levels"));
  std::set<std::string> seen;
  if (peek() == '}') {
    ++pos_;
    --depth_;
    return;
  }
  while (true) {
    if (peek() != '"') fail("expected a string key");
    const size_t key_pos = pos_;
    std::string key = read_string();
    if (!seen.insert(key).second) {
      pos_ = key_pos;
      fail(detail::str_cat("duplicate key \"", key, "\""));
    }
    expect(':', "':'");
    on_member(key);
    skip_ws();
    if (pos_ < text_.size() && text_[pos_] == ',') {
      ++pos_;
      continue;
    }
    expect('}', "',' or '}'");
    break;
  }
  --depth_;
}

void JsonReader::read_array(const std::function<void(size_t index)>& on_item) {
  expect('[', "an array '['");
  if (++depth_ > kMaxDepth) fail(detail::str_cat("nesting deeper than ", kMaxDepth, " levels"));
  if (peek() == ']') {
    ++pos_;
    --depth_;
    return;
  }
  for (size_t i = 0;; ++i) {
    on_item(i);
    skip_ws();
    if (pos_ < text_.size() && text_[pos_] == ',') {
      ++pos_;
      continue;
    }
    expect(']', "',' or ']'");
    break;
  }
  --depth_;
}

uint32_t JsonReader::read_hex4() {
  if (text_.size() - pos_ < 4) fail("truncated \\u escape");
  uint32_t v = 0;
  for (int k = 0; k < 4; ++k) {
    const char c = text_[pos_++];
    v <<= 4;
    if (c >= '0' && c <= '9') {
      v |= static_cast<uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      v |= static_cast<uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      v |= static_cast<uint32_t>(c - 'A' + 10);
    } else {
      fail("invalid hex digit in \\u escape");
    }
  }
  return v;
}

std::string JsonReader::read_string() {
  expect('"', "a string");
  std::string out;
  while (true) {
    if (pos_ >= text_.size()) fail("unterminated string");
    const char c = text_[pos_++];
    if (c == '"') return out;
    if (static_cast<unsigned char>(c) < 0x20) fail("unescaped control character in a string");
    if (c != '\\') {
      out += c;
      continue;
    }
    if (pos_ >= text_.size()) fail("unterminated escape");
    const char e = text_[pos_++];
    switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        uint32_t cp = read_hex4();
        if (cp >= 0xDC00 && cp <= 0xDFFF) fail("unpaired low surrogate in \\u escape");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (text_.size() - pos_ < 2 || text_[pos_] != '\\' || text_[pos_ + 1] != 'u') {
            fail("unpaired high surrogate in \\u escape");
          }
          pos_ += 2;
          const uint32_t lo = read_hex4();
          if (lo < 0xDC00 || lo > 0xDFFF) fail("unpaired high surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        append_utf8(out, cp);
        break;
      }
      default: fail(detail::str_cat("invalid escape '\\", e, "'"));
    }
  }
}

uint64_t JsonReader::read_uint(std::string_view what) {
  skip_ws();
  const size_t start = pos_;
  if (pos_ < text_.size() && text_[pos_] == '-') {
    fail(detail::str_cat("expected a non-negative integer for ", what, ", got a negative number"));
  }
  if (pos_ >= text_.size() || !is_digit(text_[pos_])) {
    fail(detail::str_cat("expected a non-negative integer for ", what));
  }
  if (text_[pos_] == '0' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1])) {
    fail(detail::str_cat("leading zero in the integer for ", what));
  }
  uint64_t v = 0;
  while (pos_ < text_.size() && is_digit(text_[pos_])) {
    const auto d = static_cast<uint64_t>(text_[pos_] - '0');
    if (__builtin_mul_overflow(v, uint64_t{10}, &v) || __builtin_add_overflow(v, d, &v)) {
      pos_ = start;
      fail(detail::str_cat("the integer for ", what, " exceeds 2^64-1"));
    }
    ++pos_;
  }
  if (pos_ < text_.size() && (text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E')) {
    pos_ = start;
    fail(detail::str_cat("expected an integer for ", what, ", got a fraction or exponent"));
  }
  return v;
}

void JsonReader::skip_number() {
  if (text_[pos_] == '-') ++pos_;
  if (pos_ >= text_.size() || !is_digit(text_[pos_])) fail("invalid number");
  if (text_[pos_] == '0') {
    ++pos_;
  } else {
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
  }
  if (pos_ < text_.size() && text_[pos_] == '.') {
    ++pos_;
    if (pos_ >= text_.size() || !is_digit(text_[pos_])) fail("invalid number");
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
  }
  if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
    if (pos_ >= text_.size() || !is_digit(text_[pos_])) fail("invalid number");
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
  }
}

void JsonReader::skip_literal(std::string_view word) {
  if (text_.substr(pos_, word.size()) != word) fail("invalid literal");
  pos_ += word.size();
}

void JsonReader::skip_value() {
  switch (peek()) {
    case '{': read_object([this](const std::string&) { skip_value(); }); break;
    case '[': read_array([this](size_t) { skip_value(); }); break;
    case '"': read_string(); break;
    case 't': skip_literal("true"); break;
    case 'f': skip_literal("false"); break;
    case 'n': skip_literal("null"); break;
    case '\0':
      if (pos_ >= text_.size()) fail("expected a value, got the end of the header");
      fail("expected a value");
    default:
      if (text_[pos_] == '-' || is_digit(text_[pos_])) {
        skip_number();
      } else {
        fail(detail::str_cat("expected a value, got '", text_[pos_], "'"));
      }
  }
}

void JsonReader::expect_end(std::string_view allowed) {
  for (; pos_ < text_.size(); ++pos_) {
    if (allowed.find(text_[pos_]) == std::string_view::npos) {
      fail("unexpected bytes after the JSON object (only space padding is allowed)");
    }
  }
}

}  // namespace brasa::serialize
