#pragma once
// ExpandingArray<D>: libtorch's option type for per-spatial-dim sizes; one value expands to all D
// dims (`MaxPool2dFuncOptions(3)` == `MaxPool2dFuncOptions({3, 3})`). The "WithOptionalElem"
// variant holds nullopt entries meaning "keep the input's size" (adaptive pooling).

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "brasa/core/array_ref.h"
#include "brasa/core/error.h"

namespace brasa {

template <size_t D, typename T = int64_t>
class ExpandingArray {
 public:
  ExpandingArray(T single) { values_.fill(single); }  // NOLINT: implicit like libtorch
  ExpandingArray(std::initializer_list<T> list) : ExpandingArray(ArrayRef<T>(list)) {}  // NOLINT
  ExpandingArray(const std::vector<T>& v)
      : ExpandingArray(ArrayRef<T>(v.data(), v.size())) {}  // NOLINT
  ExpandingArray(ArrayRef<T> v) {                           // NOLINT
    BRASA_CHECK(v.size() == D, "ExpandingArray: Expected ", D, " values, but instead got ",
                v.size());
    for (size_t i = 0; i < D; ++i) values_[i] = v[i];
  }
  ExpandingArray(const std::array<T, D>& v) : values_(v) {}  // NOLINT
  std::array<T, D>& operator*() { return values_; }
  const std::array<T, D>& operator*() const { return values_; }
  std::array<T, D>* operator->() { return &values_; }
  const std::array<T, D>* operator->() const { return &values_; }
  operator ArrayRef<T>() const { return ArrayRef<T>(values_.data(), D); }  // NOLINT
  size_t size() const noexcept { return D; }
  T operator[](size_t i) const { return values_[i]; }
  T* data() { return values_.data(); }
  const T* data() const { return values_.data(); }

 private:
  std::array<T, D> values_;
};

template <size_t D>
class ExpandingArrayWithOptionalElem {
 public:
  ExpandingArrayWithOptionalElem(int64_t single) { values_.fill(single); }              // NOLINT
  ExpandingArrayWithOptionalElem(std::initializer_list<std::optional<int64_t>> list) {  // NOLINT
    BRASA_CHECK(list.size() == D, "ExpandingArrayWithOptionalElem: Expected ", D,
                " values, but instead got ", list.size());
    size_t i = 0;
    for (const auto& v : list) values_[i++] = v;
  }
  ExpandingArrayWithOptionalElem(const ExpandingArray<D>& a) {  // NOLINT
    for (size_t i = 0; i < D; ++i) values_[i] = a[i];
  }
  const std::array<std::optional<int64_t>, D>& operator*() const { return values_; }
  const std::array<std::optional<int64_t>, D>* operator->() const { return &values_; }
  size_t size() const noexcept { return D; }

 private:
  std::array<std::optional<int64_t>, D> values_;
};

}  // namespace brasa
