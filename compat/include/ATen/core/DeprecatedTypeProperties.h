#pragma once
// <ATen/core/DeprecatedTypeProperties.h>: what libtorch 1.13's deprecated Tensor::type() returns.
//
// Note [Deprecated tensor API]
// libtorch 1.13 still has Tensor::type() and Tensor::data<T>(), deprecated (a compiler warning)
// but used by older programs (pytorch/examples' transfer-learning calls data<float>()). brasa
// declares both in Tensor with the same deprecation messages. data<T>() is data_ptr<T>(); type()
// returns a DeprecatedTypeProperties, a (backend, dtype) pair kept in a static table so that a
// reference to it stays valid, as libtorch's registry entries do. The class and type()'s
// definition live here, in the compat headers, since native code has no use for them.

#include <array>
#include <string>

#include "brasa/core/tensor.h"
#include "c10/core/Backend.h"

namespace brasa {

class DeprecatedTypeProperties {
 public:
  constexpr DeprecatedTypeProperties() = default;
  constexpr DeprecatedTypeProperties(Backend backend, ScalarType dtype)
      : backend_(backend), dtype_(dtype) {}

  Backend backend() const { return backend_; }
  Layout layout() const { return kStrided; }
  bool is_sparse() const { return false; }
  bool is_sparse_csr() const { return false; }
  DeviceType device_type() const { return backendToDeviceType(backend_); }
  bool is_cuda() const { return backend_ == Backend::CUDA; }
  ScalarType scalarType() const { return dtype_; }
  bool operator==(const DeprecatedTypeProperties& o) const {
    return backend_ == o.backend_ && dtype_ == o.dtype_;
  }
  bool operator!=(const DeprecatedTypeProperties& o) const { return !(*this == o); }
  /// "CPUFloatType", as libtorch prints it.
  std::string toString() const {
    return std::string(::brasa::toString(backend_)) + to_string(dtype_) + "Type";
  }
  inline DeprecatedTypeProperties& toBackend(Backend b) const;
  inline DeprecatedTypeProperties& toScalarType(ScalarType s) const;
  DeprecatedTypeProperties& cpu() const { return toBackend(Backend::CPU); }
  DeprecatedTypeProperties& cuda() const { return toBackend(Backend::CUDA); }
  TensorOptions options(int16_t device_index = -1) const {
    return TensorOptions(dtype_).device(Device(device_type(), device_index));
  }
  operator TensorOptions() const { return options(); }  // NOLINT: libtorch converts implicitly
  int64_t id() const { return static_cast<int64_t>(backend_) * 32 + static_cast<int64_t>(dtype_); }

 private:
  Backend backend_ = Backend::Undefined;
  ScalarType dtype_ = ScalarType::Undefined;
};

namespace detail {
// One entry per (backend, dtype): ScalarType codes 0..15, the last slot for Undefined.
inline DeprecatedTypeProperties& deprecated_type_properties(Backend b, ScalarType s) {
  constexpr int kDtypes = 17;
  static std::array<DeprecatedTypeProperties, 5 * kDtypes> table = [] {
    std::array<DeprecatedTypeProperties, 5 * kDtypes> t{};
    for (int bi = 0; bi < 5; ++bi) {
      for (int si = 0; si < kDtypes; ++si) {
        auto dtype = si == kDtypes - 1 ? ScalarType::Undefined : static_cast<ScalarType>(si);
        t[bi * kDtypes + si] = DeprecatedTypeProperties(static_cast<Backend>(bi), dtype);
      }
    }
    return t;
  }();
  int si = s == ScalarType::Undefined ? kDtypes - 1 : static_cast<int>(s);
  return table[static_cast<int>(b) * kDtypes + si];
}
}  // namespace detail

inline DeprecatedTypeProperties& DeprecatedTypeProperties::toBackend(Backend b) const {
  return detail::deprecated_type_properties(b, dtype_);
}
inline DeprecatedTypeProperties& DeprecatedTypeProperties::toScalarType(ScalarType s) const {
  return detail::deprecated_type_properties(backend_, s);
}

inline DeprecatedTypeProperties& Tensor::type() const {
  return detail::deprecated_type_properties(deviceTypeToBackend(device().type()), dtype());
}

}  // namespace brasa
