// Loops of softmax and log_softmax (compiled once per CPU capability).
//
// Note [Fused softmax]
// For the contiguous last-dim case each row takes three passes that stay in L1: a vectorised max,
// exp(x - max) written to the output while summing (float lanes), then a scale by 1/sum (log: the
// output is rewritten as x - max - log(sum)). exp is a branch-free polynomial that the compiler
// vectorises (about 1 ulp on float); doubles use std::exp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

#include "backends/cpu/fast_exp.h"
#include "backends/cpu/kernels/scan_softmax_sort_kernels.h"
#include "brasa/core/dispatch_type.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

template <typename T>
using acc_t = opmath_t<T>;
constexpr int kLanes = 64;  // four 512-bit accumulators hide the add/max latency

// The contiguous last-dim case (Note [Fused softmax]).
template <typename T, bool kLog>
void softmax_row(T* __restrict out, const T* __restrict in, int64_t n) {
  using A = acc_t<T>;
  A mx[kLanes];
  for (int l = 0; l < kLanes; ++l) mx[l] = -std::numeric_limits<A>::infinity();
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int l = 0; l < kLanes; ++l) {
      A x = A(in[i + l]);
      mx[l] = x > mx[l] ? x : mx[l];
    }
  // NaN need not propagate through the max: exp(NaN - m) makes the whole row NaN anyway.
  A m = -std::numeric_limits<A>::infinity();
  for (int l = 0; l < kLanes; ++l) m = mx[l] > m ? mx[l] : m;
  for (; i < n; ++i) {
    A x = A(in[i]);
    m = x > m ? x : m;
  }
  // A row of -inf has no finite max: shift by 0 so exp gives 0s and the result is NaN like PyTorch.
  const A shift = std::isinf(m) ? A(0) : m;
  // exp into the output (scratch for log_softmax), then a lane-wise sum of it.
  for (int64_t j = 0; j < n; ++j) out[j] = T(exp_of(A(in[j]) - shift));
  A sum[kLanes] = {};
  i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int l = 0; l < kLanes; ++l) sum[l] += A(out[i + l]);
  A s = 0;
  for (int l = 0; l < kLanes; ++l) s += sum[l];
  for (; i < n; ++i) s += A(out[i]);
  if constexpr (kLog) {
    const A sub = shift + std::log(s);
    for (int64_t j = 0; j < n; ++j) out[j] = T(A(in[j]) - sub);
  } else {
    const A inv = A(1) / s;
    for (int64_t j = 0; j < n; ++j) out[j] = T(A(out[j]) * inv);
  }
}

// dim is not the last one: rows of `inner` contiguous elements; column blocks of accumulators.
template <typename T, bool kLog>
void softmax_columns(T* out, const T* in, int64_t n, int64_t inner, int64_t c0, int64_t w,
                     acc_t<T>* mx, acc_t<T>* sum) {
  using A = acc_t<T>;
  for (int64_t j = 0; j < w; ++j) {
    mx[j] = -std::numeric_limits<A>::infinity();
    sum[j] = 0;
  }
  for (int64_t i = 0; i < n; ++i) {
    const T* row = in + i * inner + c0;
    for (int64_t j = 0; j < w; ++j) {
      A x = A(row[j]);
      mx[j] = (x > mx[j] || x != x) ? x : mx[j];
    }
  }
  for (int64_t j = 0; j < w; ++j) mx[j] = std::isinf(mx[j]) ? A(0) : mx[j];
  for (int64_t i = 0; i < n; ++i) {
    const T* row = in + i * inner + c0;
    for (int64_t j = 0; j < w; ++j) sum[j] += exp_of(A(row[j]) - mx[j]);
  }
  for (int64_t j = 0; j < w; ++j) sum[j] = kLog ? mx[j] + std::log(sum[j]) : A(1) / sum[j];
  for (int64_t i = 0; i < n; ++i) {
    const T* row = in + i * inner + c0;
    T* orow = out + i * inner + c0;
    for (int64_t j = 0; j < w; ++j)
      orow[j] = kLog ? T(A(row[j]) - sum[j]) : T(exp_of(A(row[j]) - mx[j]) * sum[j]);
  }
}

template <typename T, bool kLog>
void softmax_typed(T* out, const T* in, ops::LineShape s) {
  if (s.inner == 1) {
    parallel_for(0, s.outer, std::max<int64_t>(1, 16384 / std::max<int64_t>(s.n, 1)),
                 [&](int64_t b, int64_t e) {
                   for (int64_t o = b; o < e; ++o)
                     softmax_row<T, kLog>(out + o * s.n, in + o * s.n, s.n);
                 });
    return;
  }
  constexpr int64_t kBlock = 512;
  const int64_t nblocks = (s.inner + kBlock - 1) / kBlock;
  parallel_for(0, s.outer * nblocks,
               std::max<int64_t>(1, 16384 / std::max<int64_t>(s.n * kBlock, 1)),
               [&](int64_t b, int64_t e) {
                 std::unique_ptr<acc_t<T>[]> buf(new acc_t<T>[2 * kBlock]);
                 for (int64_t u = b; u < e; ++u) {
                   int64_t o = u / nblocks, c0 = (u % nblocks) * kBlock;
                   softmax_columns<T, kLog>(out + o * s.n * s.inner, in + o * s.n * s.inner, s.n,
                                            s.inner, c0, std::min(kBlock, s.inner - c0), buf.get(),
                                            buf.get() + kBlock);
                 }
               });
}

void softmax_kernel(const Tensor& out, const Tensor& in, ops::LineShape s, bool log) {
  BRASA_DISPATCH_FLOATING_TYPES(in.dtype(), log ? "log_softmax" : "softmax", [&] {
    if (log)
      softmax_typed<scalar_t, true>(out.data_ptr<scalar_t>(), in.data_ptr<scalar_t>(), s);
    else
      softmax_typed<scalar_t, false>(out.data_ptr<scalar_t>(), in.data_ptr<scalar_t>(), s);
  });
}

}  // namespace

BRASA_REGISTER_STUB(ops::softmax_stub, softmax_kernel);

}  // namespace brasa::cpu
