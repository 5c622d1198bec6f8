#pragma once
// The protobuf wire format, as far as TensorBoard's messages need it (Note [TensorBoard event
// files] in event_file.cpp): varints, 32- and 64-bit floats, length-delimited strings and nested
// messages, packed doubles. A message is built field by field; a nested message is built in its
// own ProtoWriter and added with message().

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

namespace brasa::tensorboard::detail {

class ProtoWriter {
 public:
  /// int32/int64/enum/bool fields; negative values take ten bytes, as protobuf writes them.
  ProtoWriter& varint(int field, int64_t v) {
    tag(field, 0);
    raw_varint(static_cast<uint64_t>(v));
    return *this;
  }
  ProtoWriter& float32(int field, float v) {
    tag(field, 5);
    raw_bytes(&v, 4);
    return *this;
  }
  ProtoWriter& float64(int field, double v) {
    tag(field, 1);
    raw_bytes(&v, 8);
    return *this;
  }
  /// string, bytes and embedded-message fields.
  ProtoWriter& bytes(int field, std::string_view v) {
    tag(field, 2);
    raw_varint(v.size());
    out_.append(v);
    return *this;
  }
  ProtoWriter& message(int field, const ProtoWriter& m) { return bytes(field, m.str()); }
  /// A repeated double field, packed (proto3's default encoding).
  ProtoWriter& packed_float64(int field, std::span<const double> v) {
    tag(field, 2);
    raw_varint(v.size() * 8);
    raw_bytes(v.data(), v.size() * 8);
    return *this;
  }
  const std::string& str() const { return out_; }

 private:
  static_assert(std::endian::native == std::endian::little, "the wire format is little-endian");
  void tag(int field, int wire_type) {
    raw_varint((static_cast<uint64_t>(field) << 3) | static_cast<uint64_t>(wire_type));
  }
  void raw_varint(uint64_t v) {
    for (; v >= 0x80; v >>= 7) out_.push_back(static_cast<char>((v & 0x7F) | 0x80));
    out_.push_back(static_cast<char>(v));
  }
  void raw_bytes(const void* p, size_t n) { out_.append(static_cast<const char*>(p), n); }
  std::string out_;
};

}  // namespace brasa::tensorboard::detail
