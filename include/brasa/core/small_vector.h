#pragma once
// SmallVector<T, N>: a vector of trivially copyable T that keeps up to N elements inline.
// Tensor sizes and strides live in these so creating a tensor allocates nothing for its shape.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>

#include "brasa/core/array_ref.h"

namespace brasa {

template <typename T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  SmallVector() = default;
  explicit SmallVector(size_t n, T value = T()) { assign(n, value); }
  SmallVector(std::initializer_list<T> il) { assign(il.begin(), il.end()); }
  SmallVector(ArrayRef<T> a) { assign(a.begin(), a.end()); }  // NOLINT
  SmallVector(const SmallVector& o) { assign(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept { steal(o); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  void assign(const T* b, const T* e) {
    size_t n = e - b;
    reserve(n);
    for (size_t i = 0; i < n; ++i) data_[i] = b[i];  // small n: a loop beats a memmove call
    size_ = n;
  }
  void assign(size_t n, T value) {
    reserve(n);
    std::fill(data_, data_ + n, value);
    size_ = n;
  }
  void reserve(size_t n) {
    if (n <= cap_) return;
    size_t cap = std::max(n, cap_ * 2);
    T* p = static_cast<T*>(std::malloc(cap * sizeof(T)));
    if (!p) throw std::bad_alloc();
    if (size_) std::memcpy(p, data_, size_ * sizeof(T));
    if (data_ != inline_data()) std::free(data_);
    data_ = p;
    cap_ = cap;
  }
  void resize(size_t n, T value = T()) {
    reserve(n);
    if (n > size_) std::fill(data_ + size_, data_ + n, value);
    size_ = n;
  }
  void push_back(T v) {
    if (size_ == cap_) reserve(size_ + 1);
    data_[size_++] = v;
  }
  void pop_back() { --size_; }
  void insert(size_t pos, T v) {
    push_back(v);
    std::memmove(data_ + pos + 1, data_ + pos, (size_ - 1 - pos) * sizeof(T));
    data_[pos] = v;
  }
  void erase(size_t pos) {
    std::memmove(data_ + pos, data_ + pos + 1, (size_ - 1 - pos) * sizeof(T));
    --size_;
  }
  void clear() { size_ = 0; }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  operator ArrayRef<T>() const { return ArrayRef<T>(data_, size_); }  // NOLINT
  ArrayRef<T> ref() const { return ArrayRef<T>(data_, size_); }
  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.ref().equals(b.ref());
  }

 private:
  T* inline_data() { return reinterpret_cast<T*>(storage_); }
  void release() {
    if (data_ != inline_data()) std::free(data_);
    data_ = inline_data();
    cap_ = N;
    size_ = 0;
  }
  void steal(SmallVector& o) {
    if (o.data_ == o.inline_data()) {
      data_ = inline_data();
      cap_ = N;
      std::memcpy(data_, o.data_, o.size_ * sizeof(T));
    } else {
      data_ = o.data_;
      cap_ = o.cap_;
      o.data_ = o.inline_data();
      o.cap_ = N;
    }
    size_ = o.size_;
    o.size_ = 0;
  }

  alignas(T) unsigned char storage_[N * sizeof(T)];
  T* data_ = inline_data();
  size_t size_ = 0;
  size_t cap_ = N;
};

template <typename T, size_t N>
std::ostream& operator<<(std::ostream& os, const SmallVector<T, N>& v) {
  return os << v.ref();
}

/// Sizes and strides: up to 6 dims inline.
using DimVector = SmallVector<int64_t, 6>;

}  // namespace brasa
