// Loops of the gather/scatter family (see Note [Gather/scatter geometry] in
// gather_kernels.h): one strided walk over the index tensor, run twice (check, then act)
// so that a bad index throws before anything is written. Compiled for DEFAULT only: the walk is
// bound by index loads and scattered accesses, and the AVX2/AVX-512 builds measured no faster
// (Note [Capability builds per file] in cmake/BrasaKernels.cmake).
#define BRASA_KERNEL_DEFAULT_ONLY
#include "backends/cpu/kernels/gather_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "brasa/core/dispatch_type.h"
#include "brasa/core/error.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

using ops::ScatterMode;

/// Calls f(index_offset, data_offset_without_dim, other_offset) for every element of index, in
/// row-major order; offsets are in elements.
template <typename F>
void walk(const Tensor& index, const Tensor& data, const Tensor& other, int64_t dim, const F& f) {
  const int64_t n = index.dim();
  const int64_t numel = index.numel();
  if (numel == 0) return;
  IntArrayRef sizes = index.sizes();
  DimVector counter(static_cast<size_t>(n), 0);
  int64_t io = 0, dof = 0, oo = 0;
  const bool has_other = other.defined();
  for (int64_t i = 0; i < numel; ++i) {
    f(io, dof, oo);
    for (int64_t d = n - 1; d >= 0; --d) {
      int64_t ostride = has_other ? other.strides()[d] : 0;
      int64_t dstride = d == dim ? 0 : data.strides()[d];
      if (++counter[d] < sizes[d]) {
        io += index.strides()[d];
        dof += dstride;
        oo += ostride;
        break;
      }
      io -= index.strides()[d] * (sizes[d] - 1);
      dof -= dstride * (sizes[d] - 1);
      oo -= ostride * (sizes[d] - 1);
      counter[d] = 0;
    }
  }
}

template <typename T>
T combine(ScatterMode mode, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return mode == ScatterMode::ScatterAdd || mode == ScatterMode::ScatterMax ? a || b : a && b;
  } else {
    using O = opmath_t<T>;
    const O x = static_cast<O>(a), y = static_cast<O>(b);
    switch (mode) {
      case ScatterMode::ScatterAdd: return static_cast<T>(x + y);
      case ScatterMode::ScatterMul: return static_cast<T>(x * y);
      case ScatterMode::ScatterMax:
        if constexpr (std::is_floating_point_v<O>) {
          if (std::isnan(x) || std::isnan(y)) return static_cast<T>(std::isnan(x) ? x : y);
        }
        return static_cast<T>(x < y ? y : x);
      default:
        if constexpr (std::is_floating_point_v<O>) {
          if (std::isnan(x) || std::isnan(y)) return static_cast<T>(std::isnan(x) ? x : y);
        }
        return static_cast<T>(y < x ? y : x);
    }
  }
}

template <typename T>
void run(ScatterMode mode, const Tensor& data, int64_t dim, const Tensor& index,
         const Tensor& other, const Scalar& value, bool wrap_negative, const char* op) {
  const int64_t* idx = static_cast<const int64_t*>(index.data_ptr());
  T* d = static_cast<T*>(data.data_ptr());
  T* o = other.defined() ? static_cast<T*>(other.data_ptr()) : nullptr;
  const int64_t size = data.dim() == 0 ? 1 : data.sizes()[dim];
  const int64_t dim_stride = data.dim() == 0 ? 0 : data.strides()[dim];
  walk(index, data, other, dim, [&](int64_t io, int64_t, int64_t) {
    int64_t v = idx[io];
    bool ok = wrap_negative ? v >= -size && v < size : v >= 0 && v < size;
    BRASA_CHECK_INDEX(ok, op, ": index ", v, " is out of bounds for dimension ", dim, " with size ",
                      size);
  });
  auto at = [&](int64_t io, int64_t dof) {
    int64_t v = idx[io];
    return dof + (v < 0 ? v + size : v) * dim_stride;
  };
  switch (mode) {
    case ScatterMode::Gather:
      walk(index, data, other, dim,
           [&](int64_t io, int64_t dof, int64_t oo) { o[oo] = d[at(io, dof)]; });
      break;
    case ScatterMode::Scatter:
      walk(index, data, other, dim,
           [&](int64_t io, int64_t dof, int64_t oo) { d[at(io, dof)] = o[oo]; });
      break;
    case ScatterMode::ScatterValue: {
      const T fill = value.to<T>();
      walk(index, data, other, dim,
           [&](int64_t io, int64_t dof, int64_t) { d[at(io, dof)] = fill; });
      break;
    }
    default:
      walk(index, data, other, dim, [&](int64_t io, int64_t dof, int64_t oo) {
        T& dst = d[at(io, dof)];
        dst = combine(mode, dst, o[oo]);
      });
      break;
  }
}

void scatter_gather_kernel(ScatterMode mode, const Tensor& data, int64_t dim, const Tensor& index,
                           const Tensor& other, const Scalar& value, bool wrap_negative,
                           const char* op) {
  BRASA_DISPATCH_ALL_TYPES(data.dtype(), op, [&] {
    run<scalar_t>(mode, data, dim, index, other, value, wrap_negative, op);
  });
}

void index_select_rows_kernel(char* out, const char* self, const int64_t* index, int64_t count,
                              int64_t outer, int64_t size, int64_t row_bytes) {
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(row_bytes, 1));
  parallel_for(0, outer * count, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t o = r / count, k = r % count;
      std::memcpy(out + r * row_bytes, self + (o * size + index[k]) * row_bytes,
                  static_cast<size_t>(row_bytes));
    }
  });
}

int64_t nonzero_kernel(const Tensor& self, int64_t* coords) {
  int64_t count = 0;
  BRASA_DISPATCH_ALL_TYPES(self.dtype(), "nonzero", [&] {
    const scalar_t* p = static_cast<const scalar_t*>(self.data_ptr());
    const int64_t n = self.numel();
    if (coords == nullptr) {
      for (int64_t i = 0; i < n; ++i) count += static_cast<opmath_t<scalar_t>>(p[i]) != 0 ? 1 : 0;
      return;
    }
    const int64_t ndim = self.dim();
    IntArrayRef sizes = self.sizes();
    DimVector c(static_cast<size_t>(ndim), 0);
    for (int64_t i = 0; i < n; ++i) {
      if (static_cast<opmath_t<scalar_t>>(p[i]) != 0) {
        for (int64_t d = 0; d < ndim; ++d) *coords++ = c[d];
        ++count;
      }
      for (int64_t d = ndim - 1; d >= 0; --d) {
        if (++c[d] < sizes[d]) break;
        c[d] = 0;
      }
    }
  });
  return count;
}

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
BRASA_REGISTER_STUB(scatter_gather_stub, cpu::scatter_gather_kernel);
BRASA_REGISTER_STUB(nonzero_stub, cpu::nonzero_kernel);
BRASA_REGISTER_STUB(index_select_rows_stub, cpu::index_select_rows_kernel);
}  // namespace brasa::ops
