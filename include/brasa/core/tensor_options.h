#pragma once
// TensorOptions: dtype, device and requires_grad for factories, chained like libtorch's.

#include <optional>

#include "brasa/core/device.h"
#include "brasa/core/dtype.h"

namespace brasa {

enum class Layout : int8_t { Strided = 0 };
constexpr Layout kStrided = Layout::Strided;
enum class MemoryFormat : int8_t { Contiguous = 0, Preserve = 1 };

struct BRASA_API TensorOptions {
  TensorOptions() = default;
  TensorOptions(ScalarType t) : dtype_(t) {}           // NOLINT: implicit like libtorch
  TensorOptions(Device d) : device_(d) {}              // NOLINT
  TensorOptions(DeviceType d) : device_(Device(d)) {}  // NOLINT
  TensorOptions(Layout) {}                             // NOLINT

  TensorOptions dtype(ScalarType t) const {
    TensorOptions o = *this;
    o.dtype_ = t;
    return o;
  }
  TensorOptions dtype(std::optional<ScalarType> t) const {
    TensorOptions o = *this;
    o.dtype_ = t;
    return o;
  }
  template <typename T>
  TensorOptions dtype() const {
    return dtype(dtype_of<T>);
  }
  TensorOptions device(Device d) const {
    TensorOptions o = *this;
    o.device_ = d;
    return o;
  }
  TensorOptions device(DeviceType t) const { return device(Device(t)); }
  TensorOptions device(std::optional<Device> d) const {
    TensorOptions o = *this;
    o.device_ = d;
    return o;
  }
  TensorOptions requires_grad(bool r) const {
    TensorOptions o = *this;
    o.requires_grad_ = r;
    return o;
  }
  TensorOptions layout(Layout) const { return *this; }
  /// Always kStrided: brasa's tensors are all strided (dense).
  Layout layout() const { return kStrided; }
  TensorOptions memory_format(MemoryFormat) const { return *this; }

  /// The dtype, or the default dtype when unset.
  ScalarType dtype() const { return dtype_ ? *dtype_ : get_default_dtype(); }
  Device device() const { return device_ ? *device_ : Device(kCPU); }
  bool requires_grad() const { return requires_grad_ ? *requires_grad_ : false; }
  TensorOptions requires_grad(std::optional<bool> r) const {
    TensorOptions o = *this;
    o.requires_grad_ = r;
    return o;
  }
  bool has_dtype() const { return dtype_.has_value(); }
  bool has_device() const { return device_.has_value(); }
  bool has_requires_grad() const { return requires_grad_.has_value(); }
  std::optional<ScalarType> dtype_opt() const { return dtype_; }
  std::optional<Device> device_opt() const { return device_; }
  /// Fields set here win; unset ones come from `other`.
  TensorOptions merge_in(const TensorOptions& other) const {
    TensorOptions o = other;
    if (dtype_) o.dtype_ = dtype_;
    if (device_) o.device_ = device_;
    if (requires_grad_) o.requires_grad_ = requires_grad_;
    return o;
  }

 private:
  std::optional<ScalarType> dtype_;
  std::optional<Device> device_;
  std::optional<bool> requires_grad_;
};

inline TensorOptions dtype(ScalarType t) { return TensorOptions().dtype(t); }
template <typename T>
inline TensorOptions dtype() {
  return TensorOptions().dtype<T>();
}
inline TensorOptions device(Device d) { return TensorOptions().device(d); }
inline TensorOptions requires_grad(bool r = true) { return TensorOptions().requires_grad(r); }

}  // namespace brasa
