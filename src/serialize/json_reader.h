#pragma once
// A strict, pull-style JSON reader for file headers (safetensors). It parses RFC 8259 JSON without
// building a tree, so memory stays bounded by what the caller keeps: objects are walked member by
// member (duplicate keys rejected), integers are read exactly as uint64 (negatives, fractions and
// exponents rejected), unwanted values are skipped, and nesting depth is bounded. Every error is a
// SerializationError "<context>: invalid JSON header at byte N: <what>".

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace brasa::serialize {

class JsonReader {
 public:
  static constexpr int kMaxDepth = 128;  // serde_json's limit (the reference reader)

  /// `text` must stay alive while reading; `context` prefixes every error message.
  JsonReader(std::string_view text, std::string context);

  /// Reads an object; calls `on_member(key)` after each key and ':', which must consume the value.
  void read_object(const std::function<void(const std::string& key)>& on_member);
  /// Reads an array; calls `on_item(index)` for each element, which must consume it.
  void read_array(const std::function<void(size_t index)>& on_item);
  std::string read_string();
  /// A non-negative integer that fits in uint64; `what` names it in errors ("shape of 'w'").
  uint64_t read_uint(std::string_view what);
  /// Consumes any value.
  void skip_value();
  /// The first byte of the next value after whitespace ('{', '[', '"', ...), or 0 at the end.
  char peek();
  /// Requires that only the bytes in `allowed` remain.
  void expect_end(std::string_view allowed);

  [[noreturn]] void fail(const std::string& what) const;
  size_t position() const { return pos_; }

 private:
  void skip_ws();
  void expect(char c, const char* what);
  void skip_number();
  void skip_literal(std::string_view word);
  uint32_t read_hex4();

  std::string_view text_;
  std::string context_;
  size_t pos_ = 0;
  int depth_ = 0;
};

/// Whether `bytes` are valid UTF-8 (no overlong forms, surrogates or code points above U+10FFFF);
/// on failure `bad_offset` is the offset of the first invalid sequence.
bool is_valid_utf8(std::string_view bytes, size_t* bad_offset);

}  // namespace brasa::serialize
