// Loops of cumsum and cumprod (compiled once per CPU capability). Like PyTorch on CPU, floats
// accumulate in double and integers in int64.
#include <algorithm>
#include <memory>
#include <type_traits>

#include "backends/cpu/kernels/scan_softmax_sort_kernels.h"
#include "brasa/core/dispatch_type.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

template <typename T>
using scan_acc_t = std::conditional_t<std::is_integral_v<T>, int64_t, double>;

template <typename T, bool kProd>
void scan_lines(T* out, const T* in, ops::LineShape s) {
  using acc_t = scan_acc_t<T>;
  auto step = [](acc_t a, acc_t x) { return kProd ? a * x : a + x; };
  const acc_t init = kProd ? acc_t(1) : acc_t(0);
  if (s.inner == 1) {
    parallel_for(0, s.outer, std::max<int64_t>(1, 32768 / std::max<int64_t>(s.n, 1)),
                 [&](int64_t b, int64_t e) {
                   for (int64_t o = b; o < e; ++o) {
                     acc_t a = init;
                     for (int64_t i = 0; i < s.n; ++i) {
                       a = step(a, acc_t(in[o * s.n + i]));
                       out[o * s.n + i] = T(a);
                     }
                   }
                 });
    return;
  }
  // Rows along dim are contiguous runs of `inner`: update a block of column accumulators per row.
  constexpr int64_t kBlock = 1024;
  const int64_t nblocks = (s.inner + kBlock - 1) / kBlock;
  parallel_for(0, s.outer * nblocks,
               std::max<int64_t>(1, 32768 / std::max<int64_t>(s.n * kBlock, 1)),
               [&](int64_t b, int64_t e) {
                 std::unique_ptr<acc_t[]> acc(new acc_t[kBlock]);
                 for (int64_t u = b; u < e; ++u) {
                   int64_t o = u / nblocks, c0 = (u % nblocks) * kBlock;
                   int64_t w = std::min(kBlock, s.inner - c0);
                   std::fill(acc.get(), acc.get() + w, init);
                   for (int64_t i = 0; i < s.n; ++i) {
                     const T* row = in + (o * s.n + i) * s.inner + c0;
                     T* orow = out + (o * s.n + i) * s.inner + c0;
                     for (int64_t j = 0; j < w; ++j) {
                       acc[j] = step(acc[j], acc_t(row[j]));
                       orow[j] = T(acc[j]);
                     }
                   }
                 }
               });
}

void scan_kernel(const Tensor& out, const Tensor& in, ops::LineShape s, bool prod) {
  BRASA_DISPATCH_ALL_TYPES(in.dtype(), prod ? "cumprod" : "cumsum", [&] {
    using T = scalar_t;
    if (prod)
      scan_lines<T, true>(out.data_ptr<T>(), in.data_ptr<T>(), s);
    else
      scan_lines<T, false>(out.data_ptr<T>(), in.data_ptr<T>(), s);
  });
}

}  // namespace

BRASA_REGISTER_STUB(ops::scan_stub, scan_kernel);

}  // namespace brasa::cpu
