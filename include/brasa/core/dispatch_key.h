#pragma once
// DispatchKey and DispatchKeySet, in core because every tensor carries its key set. A key set is a
// bitmask; a higher bit means a higher priority, so the dispatcher runs the kernel of the highest
// key present (see Note [Dispatch] in brasa/dispatch/dispatcher.h).

#include <cstdint>
#include <ostream>

#include "brasa/core/device.h"
#include "brasa/core/macros.h"

namespace brasa {

enum class DispatchKey : uint8_t {
  // Backends (lowest priority): exactly one per tensor.
  CPU = 0,
  CUDA = 1,
  PrivateUse1 = 2,
  Meta = 3,
  // Functionality keys, lowest to highest priority.
  AutogradOther = 4,  // reserved
  Autograd = 5,
  Autocast = 6,
  Trace = 7,
  NumKeys = 8,
};
constexpr int kNumDispatchKeys = static_cast<int>(DispatchKey::NumKeys);

BRASA_API const char* to_string(DispatchKey k);
BRASA_API std::ostream& operator<<(std::ostream& os, DispatchKey k);

class DispatchKeySet {
 public:
  constexpr DispatchKeySet() = default;
  constexpr explicit DispatchKeySet(DispatchKey k) : bits_(1u << static_cast<uint32_t>(k)) {}
  constexpr static DispatchKeySet from_raw(uint32_t bits) {
    DispatchKeySet s;
    s.bits_ = bits;
    return s;
  }
  constexpr bool has(DispatchKey k) const { return bits_ & (1u << static_cast<uint32_t>(k)); }
  constexpr DispatchKeySet add(DispatchKey k) const {
    return from_raw(bits_ | DispatchKeySet(k).bits_);
  }
  constexpr DispatchKeySet remove(DispatchKey k) const {
    return from_raw(bits_ & ~DispatchKeySet(k).bits_);
  }
  constexpr DispatchKeySet operator|(DispatchKeySet o) const { return from_raw(bits_ | o.bits_); }
  constexpr DispatchKeySet operator&(DispatchKeySet o) const { return from_raw(bits_ & o.bits_); }
  constexpr DispatchKeySet operator-(DispatchKeySet o) const { return from_raw(bits_ & ~o.bits_); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr uint32_t raw() const { return bits_; }
  /// The highest-priority key in the set; the set must not be empty.
  DispatchKey highest() const { return static_cast<DispatchKey>(31 - __builtin_clz(bits_)); }
  constexpr bool operator==(DispatchKeySet o) const { return bits_ == o.bits_; }
  constexpr bool operator!=(DispatchKeySet o) const { return bits_ != o.bits_; }

 private:
  uint32_t bits_ = 0;
};

/// The backend key that tensors on a device carry.
constexpr DispatchKey backend_key(DeviceType t) {
  switch (t) {
    case DeviceType::CUDA: return DispatchKey::CUDA;
    case DeviceType::Meta: return DispatchKey::Meta;
    case DeviceType::PrivateUse1: return DispatchKey::PrivateUse1;
    default: return DispatchKey::CPU;
  }
}

}  // namespace brasa
