#pragma once
// Value: one boxed argument or result (the boxed calling convention passes a Stack of these), so
// one generic function can serve every op: plugin CPU fallback, tracing, logging, anomaly mode.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "brasa/core/generator.h"
#include "brasa/core/tensor.h"

namespace brasa {

class BRASA_API Value {
 public:
  using Payload =
      std::variant<std::monostate, Tensor, std::vector<Tensor>, Scalar, int64_t, double, bool,
                   std::vector<int64_t>, ScalarType, std::string, Device, Generator>;
  Value() = default;
  template <typename T>
  Value(T&& v) : v_(std::forward<T>(v)) {}  // NOLINT

  bool is_none() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_tensor() const { return std::holds_alternative<Tensor>(v_); }
  bool is_tensor_list() const { return std::holds_alternative<std::vector<Tensor>>(v_); }
  template <typename T>
  bool is() const {
    return std::holds_alternative<T>(v_);
  }
  template <typename T>
  const T& get() const {
    return std::get<T>(v_);
  }
  template <typename T>
  T& get() {
    return std::get<T>(v_);
  }
  const Tensor& tensor() const { return std::get<Tensor>(v_); }
  Tensor& tensor() { return std::get<Tensor>(v_); }
  const Payload& payload() const { return v_; }

 private:
  Payload v_;
};

using Stack = std::vector<Value>;

}  // namespace brasa
