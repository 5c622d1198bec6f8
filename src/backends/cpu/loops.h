#pragma once
// Inner loops used by the kernel files (compiled once per CPU capability). Each takes the
// iterator's (data, strides, n) and a scalar functor; contiguous and scalar-broadcast cases are
// written as plain indexed loops so the compiler vectorises them for the capability's vector width.

#include <cstdint>
#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "backends/cpu/reduced_float.h"
#include "backends/cpu/tensor_iterator.h"

namespace brasa::cpu {

// Note [Streaming stores]
// A large contiguous result that will not be read again soon is written with non-temporal stores:
// a normal store first reads the destination line into the cache (read-for-ownership), so x + y
// moves four arrays through memory instead of three. Results are computed into a small buffer
// that stays in L1 (so the loop still vectorises as written) and then streamed out. Only above
// kStreamMinBytes per call, well past the L2 size, where the data could not stay cached anyway.
constexpr int64_t kStreamMinBytes = int64_t(8) << 20;

#if defined(__AVX2__)
inline void stream_copy_aligned(void* dst, const void* src, int64_t bytes) {
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
#if defined(__AVX512F__)
  for (int64_t k = 0; k < bytes; k += 64)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(d + k),
                        _mm512_load_si512(reinterpret_cast<const __m512i*>(s + k)));
#else
  for (int64_t k = 0; k < bytes; k += 32)
    _mm256_stream_si256(reinterpret_cast<__m256i*>(d + k),
                        _mm256_load_si256(reinterpret_cast<const __m256i*>(s + k)));
#endif
}
#endif

/// Writes o[0, n) through `run(dst, begin, count)`, which computes elements [begin, begin + count)
/// into dst[0, count): in one call, or block by block through an L1 buffer that is streamed out for
/// a large result (Note [Streaming stores]). Both ways call the same `run`, so the computing loop
/// is compiled once.
template <typename out_t, typename Run>
BRASA_ALWAYS_INLINE void write_contiguous(out_t* o, int64_t n, const Run& run) {
#if defined(__AVX2__)
  // Only 4- and 8-byte results stream (Bool/8-bit/16-bit results keep one plain loop: smaller
  // code).
  if constexpr (sizeof(out_t) >= 4) {
    if (n * int64_t(sizeof(out_t)) >= kStreamMinBytes) {
      int64_t i = 0;
      const int64_t head =
          int64_t((64 - (reinterpret_cast<uintptr_t>(o) & 63)) & 63) / int64_t(sizeof(out_t));
      if (head > 0) run(o, 0, head), i = head;
      constexpr int64_t kBlock = 4096 / int64_t(sizeof(out_t));
      alignas(64) out_t buf[kBlock];
      for (; i + kBlock <= n; i += kBlock) {
        run(buf, i, kBlock);
        stream_copy_aligned(o + i, buf, sizeof(buf));
      }
      if (i < n) run(o + i, i, n - i);
      _mm_sfence();
      return;
    }
  }
#endif
  run(o, 0, n);
}

// Note [One loop per kernel] (iter_ref.h): the vectorised loops below are out of line, one copy per
// functor, operand types and broadcast pattern, called by the plain and the streaming path alike.
// The functor is taken by value so the loop reads its captures from a local.

/// o[i] = f(a[i]) for n contiguous elements.
template <typename out_t, typename in_t, typename F>
BRASA_NOINLINE void unary_contig(out_t* o, const in_t* a, int64_t n, F f) {
  for (int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
}

/// Broadcast patterns of binary_contig: both operands contiguous, or one a scalar.
enum class Bcast { None, Second, First };

/// o[i] = f(a[i], b[i]) for n contiguous elements, with a or b read as a scalar per `kBcast`.
template <Bcast kBcast, typename out_t, typename in_t, typename F>
BRASA_NOINLINE void binary_contig(out_t* o, const in_t* a, const in_t* b, int64_t n, F f) {
  if constexpr (kBcast == Bcast::Second) {
    const in_t bv = *b;
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], bv);
  } else if constexpr (kBcast == Bcast::First) {
    const in_t av = *a;
    for (int64_t i = 0; i < n; ++i) o[i] = f(av, b[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);
  }
}

template <typename out_t, typename in_t, typename F>
BRASA_ALWAYS_INLINE void unary_loop(char** d, const int64_t* s, int64_t n, const F& f) {
  out_t* o = reinterpret_cast<out_t*>(d[0]);
  const in_t* a = reinterpret_cast<const in_t*>(d[1]);
  if (s[0] == sizeof(out_t) && s[1] == sizeof(in_t)) {
    write_contiguous(o, n,
                     [&](out_t* dst, int64_t i, int64_t m) { unary_contig(dst, a + i, m, f); });
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
    write_contiguous(o, n, [&](out_t* dst, int64_t i, int64_t m) {
      binary_contig<Bcast::None>(dst, a + i, b + i, m, f);
    });
  } else if (s[0] == so && s[1] == si && s[2] == 0) {
    write_contiguous(o, n, [&](out_t* dst, int64_t i, int64_t m) {
      binary_contig<Bcast::Second>(dst, a + i, b, m, f);
    });
  } else if (s[0] == so && s[1] == 0 && s[2] == si) {
    write_contiguous(o, n, [&](out_t* dst, int64_t i, int64_t m) {
      binary_contig<Bcast::First>(dst, a, b + i, m, f);
    });
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

#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
// run_unary/run_binary over Half inputs with the float loop (Note [Reduced floats as float] in
// reduced_float.h): block by block, convert the inputs, run the loop, store the results. A float
// result is Half too (the iterator's output has the common dtype); a Bool result is copied.
template <typename out_t, typename F>
void unary_loop_reduced(char** d, const int64_t* s, int64_t n, const F& f) {
  alignas(64) float a[kReducedBlock];
  alignas(64) out_t o[kReducedBlock];
  for (int64_t i = 0; i < n; i += kReducedBlock) {
    const int64_t m = std::min(kReducedBlock, n - i);
    load_half(d[1] + i * s[1], s[1], a, m);
    unary_contig(o, a, m, f);
    store_results(std::is_same_v<out_t, float>, o, sizeof(out_t), d[0] + i * s[0], s[0], m);
  }
}
template <typename out_t, typename F>
void binary_loop_reduced(char** d, const int64_t* s, int64_t n, const F& f) {
  alignas(64) float a[kReducedBlock], b[kReducedBlock];
  alignas(64) out_t o[kReducedBlock];
  for (int64_t i = 0; i < n; i += kReducedBlock) {
    const int64_t m = std::min(kReducedBlock, n - i);
    if (s[2] == 0) {
      load_half(d[1] + i * s[1], s[1], a, m);
      load_half(d[2], 0, b, 1);
      binary_contig<Bcast::Second>(o, a, b, m, f);
    } else if (s[1] == 0) {
      load_half(d[1], 0, a, 1);
      load_half(d[2] + i * s[2], s[2], b, m);
      binary_contig<Bcast::First>(o, a, b, m, f);
    } else {
      load_half(d[1] + i * s[1], s[1], a, m);
      load_half(d[2] + i * s[2], s[2], b, m);
      binary_contig<Bcast::None>(o, a, b, m, f);
    }
    store_results(std::is_same_v<out_t, float>, o, sizeof(out_t), d[0] + i * s[0], s[0], m);
  }
}
#endif

/// Runs a unary functor over the iterator; out and in of the given types.
/// Works with any iterator type offering for_each (TensorIterator, IterRef).
template <typename out_t, typename in_t, typename It, typename F>
void run_unary(const It& it, const F& f) {
#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
  if constexpr (std::is_same_v<in_t, float>) {
    if (it.common_dtype() == ScalarType::Half) {
      BRASA_CHECK_TYPED(InternalError,
                        (!std::is_same_v<out_t, float> || it.output_dtype() == ScalarType::Half),
                        "unary kernel: a Half input with a float result of dtype ",
                        it.output_dtype(), " (expected Half)");
      it.for_each(
          [&](char** d, const int64_t* s, int64_t n) { unary_loop_reduced<out_t>(d, s, n, f); });
      return;
    }
  }
#endif
  it.for_each([&](char** d, const int64_t* s, int64_t n) { unary_loop<out_t, in_t>(d, s, n, f); });
}
/// Works with any iterator type offering for_each (TensorIterator, IterRef).
template <typename out_t, typename in_t, typename It, typename F>
void run_binary(const It& it, const F& f) {
#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
  if constexpr (std::is_same_v<in_t, float>) {
    if (it.common_dtype() == ScalarType::Half) {
      BRASA_CHECK_TYPED(InternalError,
                        (!std::is_same_v<out_t, float> || it.output_dtype() == ScalarType::Half),
                        "binary kernel: a Half input with a float result of dtype ",
                        it.output_dtype(), " (expected Half)");
      it.for_each(
          [&](char** d, const int64_t* s, int64_t n) { binary_loop_reduced<out_t>(d, s, n, f); });
      return;
    }
  }
#endif
  it.for_each([&](char** d, const int64_t* s, int64_t n) { binary_loop<out_t, in_t>(d, s, n, f); });
}
/// Works with any iterator type offering for_each (TensorIterator, IterRef). Not for a file under
/// Note [Reduced floats as float] (no converting path).
template <typename out_t, typename in_t, typename It, typename F>
void run_ternary(const It& it, const F& f) {
#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
  static_assert(!std::is_same_v<in_t, float>, "run_ternary has no Half path");
#endif
  it.for_each(
      [&](char** d, const int64_t* s, int64_t n) { ternary_loop<out_t, in_t>(d, s, n, f); });
}

}  // namespace brasa::cpu
