#pragma once
// Helpers of the op tests: build tensors from values, read them back, make strided views.
#include <cstring>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/core/empty.h"

namespace brasa::testing {

inline Tensor make(const std::vector<double>& v, IntArrayRef sizes, ScalarType dt = kFloat) {
  Tensor d = empty(sizes, TensorOptions(kDouble));
  if (!v.empty()) std::memcpy(d.data_ptr<double>(), v.data(), v.size() * sizeof(double));
  return d.to(dt);
}
inline std::vector<double> values(const Tensor& t) {
  Tensor d = t.to(kDouble, false, true);
  const double* p = d.data_ptr<double>();
  return std::vector<double>(p, p + d.numel());
}
inline double scalar(const Tensor& t) { return t.item().toDouble(); }
/// A view of `t` with dims d0 and d1 swapped (non-contiguous).
inline Tensor transposed(const Tensor& t, int64_t d0, int64_t d1) {
  DimVector sizes(t.sizes()), strides(t.strides());
  std::swap(sizes[d0], sizes[d1]);
  std::swap(strides[d0], strides[d1]);
  return detail::make_view(t, sizes, strides, t.storage_offset());
}
/// Deterministic pseudo-random values in [-1, 1).
inline std::vector<double> random_values(int64_t n, uint32_t seed = 1) {
  std::vector<double> v(n);
  uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (auto& x : v) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    x = double(s >> 11) / double(1ULL << 53) * 2 - 1;
  }
  return v;
}

}  // namespace brasa::testing
