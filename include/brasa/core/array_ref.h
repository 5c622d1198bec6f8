#pragma once
// ArrayRef<T>: a non-owning view of contiguous elements (sizes, strides, tensor lists), like
// c10::ArrayRef.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <vector>

#include "brasa/core/macros.h"

namespace brasa {
namespace detail {
/// ArrayRef::at's error: an IndexError naming the index and the size.
[[noreturn]] BRASA_API void throw_array_ref_index_error(size_t index, size_t size);
}  // namespace detail

template <typename T>
class ArrayRef {
 public:
  using value_type = T;
  using iterator = const T*;
  using const_iterator = const T*;
  using size_type = size_t;

  constexpr ArrayRef() = default;
  constexpr ArrayRef(const T& one) : data_(&one), size_(1) {}  // NOLINT: implicit like c10
  constexpr ArrayRef(const T* data, size_t size) : data_(data), size_(size) {}
  constexpr ArrayRef(const T* begin, const T* end) : data_(begin), size_(end - begin) {}
  template <typename A>
  ArrayRef(const std::vector<T, A>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
  // Like c10::ArrayRef: valid for the full expression that created the list (a call's arguments).
  constexpr ArrayRef(const std::initializer_list<T>& il)  // NOLINT
      : data_(il.begin() == il.end() ? nullptr : il.begin()), size_(il.size()) {}
#pragma GCC diagnostic pop
  template <typename Container,
            typename = decltype(std::declval<const Container&>().data() +
                                std::declval<const Container&>().size()),
            typename = std::enable_if_t<
                !std::is_same_v<Container, std::vector<T>> &&
                std::is_same_v<std::remove_cv_t<std::remove_pointer_t<
                                   decltype(std::declval<const Container&>().data())>>,
                               T>>>
  ArrayRef(const Container& c) : data_(c.data()), size_(c.size()) {}  // NOLINT

  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + size_; }
  constexpr const T& operator[](size_t i) const { return data_[i]; }
  /// data()[i]; IndexError when i is out of range.
  const T& at(size_t i) const {
    if (i >= size_) detail::throw_array_ref_index_error(i, size_);
    return data_[i];
  }
  constexpr const T& front() const { return data_[0]; }
  constexpr const T& back() const { return data_[size_ - 1]; }
  ArrayRef slice(size_t start, size_t n) const { return ArrayRef(data_ + start, n); }
  ArrayRef slice(size_t start) const { return ArrayRef(data_ + start, size_ - start); }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }
  bool equals(ArrayRef other) const {
    if (size_ != other.size_) return false;
    for (size_t i = 0; i < size_; ++i)
      if (!(data_[i] == other.data_[i])) return false;
    return true;
  }
  friend bool operator==(ArrayRef a, ArrayRef b) { return a.equals(b); }
  friend bool operator!=(ArrayRef a, ArrayRef b) { return !a.equals(b); }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

using IntArrayRef = ArrayRef<int64_t>;

/// Prints like libtorch: [2, 3].
template <typename T>
std::ostream& operator<<(std::ostream& os, ArrayRef<T> a) {
  os << "[";
  for (size_t i = 0; i < a.size(); ++i) os << (i ? ", " : "") << a[i];
  return os << "]";
}

}  // namespace brasa
