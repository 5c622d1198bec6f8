#pragma once
// Inner loops used by the kernel files (compiled once per CPU capability). Each takes the
// iterator's (data, strides, n) and a scalar functor; contiguous and scalar-broadcast cases are
// written as plain indexed loops so the compiler vectorises them for the capability's vector width.

#include <cstdint>

#include "backends/cpu/tensor_iterator.h"

namespace brasa::cpu {

template <typename out_t, typename in_t, typename F>
BRASA_ALWAYS_INLINE void unary_loop(char** d, const int64_t* s, int64_t n, const F& f) {
  out_t* o = reinterpret_cast<out_t*>(d[0]);
  const in_t* a = reinterpret_cast<const in_t*>(d[1]);
  if (s[0] == sizeof(out_t) && s[1] == sizeof(in_t)) {
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
  } else if (s[0] == sizeof(out_t) && s[1] == 0) {
    out_t v = f(*a);
    for (int64_t i = 0; i < n; ++i) o[i] = v;
  } else {
    char* po = d[0];
    const char* pa = d[1];
    for (int64_t i = 0; i < n; ++i, po += s[0], pa += s[1])
      *reinterpret_cast<out_t*>(po) = f(*reinterpret_cast<const in_t*>(pa));
  }
}

template <typename out_t, typename in_t, typename F>
BRASA_ALWAYS_INLINE void binary_loop(char** d, const int64_t* s, int64_t n, const F& f) {
  out_t* o = reinterpret_cast<out_t*>(d[0]);
  const in_t* a = reinterpret_cast<const in_t*>(d[1]);
  const in_t* b = reinterpret_cast<const in_t*>(d[2]);
  constexpr int64_t so = sizeof(out_t), si = sizeof(in_t);
  if (s[0] == so && s[1] == si && s[2] == si) {
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);
  } else if (s[0] == so && s[1] == si && s[2] == 0) {
    const in_t bv = *b;
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], bv);
  } else if (s[0] == so && s[1] == 0 && s[2] == si) {
    const in_t av = *a;
    for (int64_t i = 0; i < n; ++i) o[i] = f(av, b[i]);
  } else {
    char* po = d[0];
    const char *pa = d[1], *pb = d[2];
    for (int64_t i = 0; i < n; ++i, po += s[0], pa += s[1], pb += s[2])
      *reinterpret_cast<out_t*>(po) =
          f(*reinterpret_cast<const in_t*>(pa), *reinterpret_cast<const in_t*>(pb));
  }
}

template <typename out_t, typename in_t, typename F>
BRASA_ALWAYS_INLINE void ternary_loop(char** d, const int64_t* s, int64_t n, const F& f) {
  char* po = d[0];
  const char *pa = d[1], *pb = d[2], *pc = d[3];
  for (int64_t i = 0; i < n; ++i, po += s[0], pa += s[1], pb += s[2], pc += s[3])
    *reinterpret_cast<out_t*>(po) =
        f(*reinterpret_cast<const in_t*>(pa), *reinterpret_cast<const in_t*>(pb),
          *reinterpret_cast<const in_t*>(pc));
}

/// Runs a unary functor over the iterator; out and in of the given types.
/// Works with any iterator type offering for_each (TensorIterator, FlatIterator).
template <typename out_t, typename in_t, typename It, typename F>
void run_unary(const It& it, const F& f) {
  it.for_each([&](char** d, const int64_t* s, int64_t n) { unary_loop<out_t, in_t>(d, s, n, f); });
}
/// Works with any iterator type offering for_each (TensorIterator, FlatIterator).
template <typename out_t, typename in_t, typename It, typename F>
void run_binary(const It& it, const F& f) {
  it.for_each([&](char** d, const int64_t* s, int64_t n) { binary_loop<out_t, in_t>(d, s, n, f); });
}
/// Works with any iterator type offering for_each (TensorIterator, FlatIterator).
template <typename out_t, typename in_t, typename It, typename F>
void run_ternary(const It& it, const F& f) {
  it.for_each(
      [&](char** d, const int64_t* s, int64_t n) { ternary_loop<out_t, in_t>(d, s, n, f); });
}

}  // namespace brasa::cpu
