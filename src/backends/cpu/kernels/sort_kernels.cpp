// Loops of sort and topk. Each line is copied into (key, index) pairs, ordered with NaN as the
// largest key, and written back. Compiled for DEFAULT only: comparison sorts gain nothing from
// wider vectors, and the AVX2/AVX-512 builds measured 1-6% slower (bench/capability_bench.py; Note
// [Capability builds per file] in cmake/BrasaKernels.cmake).
#define BRASA_KERNEL_DEFAULT_ONLY
#include <algorithm>
#include <utility>
#include <vector>

#include "backends/cpu/kernels/scan_softmax_sort_kernels.h"
#include "brasa/core/dispatch_type.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

template <typename K>
struct Less {  // ascending, NaN last; ties by index so the order is total and stable
  bool operator()(const std::pair<K, int64_t>& a, const std::pair<K, int64_t>& b) const {
    bool an = a.first != a.first, bn = b.first != b.first;
    if (an || bn) return !an && bn ? true : (an && bn ? a.second < b.second : false);
    if (a.first != b.first) return a.first < b.first;
    return a.second < b.second;
  }
};
template <typename K>
struct Greater {  // descending, NaN first
  bool operator()(const std::pair<K, int64_t>& a, const std::pair<K, int64_t>& b) const {
    bool an = a.first != a.first, bn = b.first != b.first;
    if (an || bn) return an && !bn ? true : (an && bn ? a.second < b.second : false);
    if (a.first != b.first) return a.first > b.first;
    return a.second < b.second;
  }
};

template <typename T, typename Cmp>
void sort_typed(T* values, int64_t* indices, const T* in, ops::LineShape s, int64_t k, Cmp cmp) {
  using K = opmath_t<T>;
  const int64_t lines = s.outer * s.inner;
  parallel_for(0, lines, std::max<int64_t>(1, 4096 / std::max<int64_t>(s.n, 1)),
               [&](int64_t b, int64_t e) {
                 std::vector<std::pair<K, int64_t>> buf(s.n);
                 for (int64_t line = b; line < e; ++line) {
                   int64_t o = line / s.inner, j = line % s.inner;
                   const T* src = in + o * s.n * s.inner + j;
                   for (int64_t i = 0; i < s.n; ++i) buf[i] = {K(src[i * s.inner]), i};
                   if (k == s.n)
                     std::sort(buf.begin(), buf.end(), cmp);
                   else
                     std::partial_sort(buf.begin(), buf.begin() + k, buf.end(), cmp);
                   T* vdst = values + o * k * s.inner + j;
                   int64_t* idst = indices + o * k * s.inner + j;
                   for (int64_t i = 0; i < k; ++i) {
                     vdst[i * s.inner] = T(buf[i].first);
                     idst[i * s.inner] = buf[i].second;
                   }
                 }
               });
}

void sort_kernel(const Tensor& values, const Tensor& indices, const Tensor& in, ops::LineShape s,
                 int64_t k, bool descending) {
  BRASA_DISPATCH_ALL_TYPES(in.dtype(), "sort", [&] {
    using K = opmath_t<scalar_t>;
    if (descending)
      sort_typed(values.data_ptr<scalar_t>(), indices.data_ptr<int64_t>(), in.data_ptr<scalar_t>(),
                 s, k, Greater<K>{});
    else
      sort_typed(values.data_ptr<scalar_t>(), indices.data_ptr<int64_t>(), in.data_ptr<scalar_t>(),
                 s, k, Less<K>{});
  });
}

}  // namespace

BRASA_REGISTER_STUB(ops::sort_stub, sort_kernel);

}  // namespace brasa::cpu
