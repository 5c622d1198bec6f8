#pragma once
// Shared plumbing of the pooling/resampling ops: inputs viewed as planes [P, D, H, W] (1-D and
// 2-D ops use D = 1 and H = 1), computed in float (Half, BFloat16, Float) or double by the loops of
// backends/cpu/kernels/{pool,resample}_kernels.cpp, and the shape checks every op of the family
// shares.

#include <sstream>
#include <string>
#include <type_traits>

#include "backends/cpu/kernels/pool_kernels.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/tensor.h"

namespace brasa::ops::pool {

inline std::string shape_str(IntArrayRef s) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  os << "]";
  return os.str();
}

/// Spatial geometry padded to 3 dims (backends/cpu/kernels/pool_kernels.h).
using Geometry = PoolGeometry;

inline ScalarType compute_dtype(ScalarType t) { return t == kDouble ? kDouble : kFloat; }

inline void check_floating(const Tensor& t, const char* op) {
  BRASA_CHECK(t.defined(), op, ": got an undefined tensor");
  BRASA_CHECK_TYPE(is_floating_type(t.scalar_type()), op, ": \"", op, "\" not implemented for '",
                   t.scalar_type(), "'");
}

/// Checks `input` has `spatial` or `spatial + 1` dims... i.e. [C, *] or [N, C, *] with non-zero
/// non-batch dims (the batch may be empty).
inline void check_pool_input(const Tensor& input, int64_t spatial, const char* op,
                             bool allow_empty_channels = false) {
  check_floating(input, op);
  const int64_t d = input.dim();
  BRASA_CHECK(d == spatial + 1 || d == spatial + 2, op, ": expected a ", spatial + 1, "-D or ",
              spatial + 2, "-D (batch mode) input, got shape ", shape_str(input.sizes()));
  for (int64_t i = d == spatial + 2 ? 1 : 0; i < d; ++i)
    BRASA_CHECK(input.size(i) > 0 || (allow_empty_channels && i == d - spatial - 1), op,
                ": expected non-zero sizes except the batch dim, got input of shape ",
                shape_str(input.sizes()));
}

/// The last `spatial` sizes of `input` into g.in.
inline void set_in(Geometry& g, const Tensor& input, int64_t spatial) {
  for (int64_t i = 0; i < spatial; ++i)
    g.in[3 - spatial + i] = input.size(input.dim() - spatial + i);
}

/// Input's leading sizes with `spatial` replaced by g.out.
inline DimVector out_shape(const Tensor& input, const Geometry& g, int64_t spatial) {
  DimVector s(input.sizes().slice(0, static_cast<size_t>(input.dim() - spatial)));
  for (int64_t i = 0; i < spatial; ++i) s.push_back(g.out[3 - spatial + i]);
  return s;
}

inline int64_t planes_of(const Tensor& input, int64_t spatial) {
  int64_t p = 1;
  for (int64_t i = 0; i < input.dim() - spatial; ++i) p *= input.size(i);
  return p;
}

/// input as a contiguous tensor of the compute dtype.
inline Tensor compute_input(const Tensor& t) {
  return t.to(compute_dtype(t.scalar_type())).contiguous();
}

/// The result of an op of the family: contiguous, of `shape`, with the dtype and device of `like`
/// (what the meta functions return and the CPU kernels fill, Note [Meta functions]).
inline Tensor result_like(IntArrayRef shape, const Tensor& like) {
  return detail::empty_generic(shape, like.scalar_type(), like.device());
}

/// The buffer a loop writes for `result`: result itself when it has the compute dtype, else a fresh
/// one of the compute dtype.
inline Tensor compute_output(const Tensor& result) {
  const ScalarType c = compute_dtype(result.scalar_type());
  return result.scalar_type() == c ? result
                                   : detail::empty_generic(result.sizes(), c, result.device());
}

/// Hands a written compute buffer back as `result` (converting when they differ).
inline Tensor finish(const Tensor& buffer, const Tensor& result) {
  if (!buffer.is_same(result)) result.copy_(buffer);
  return result;
}

/// Expands an int list of 1 or `n` entries (empty -> `fallback`) to n entries, naming `what` on
/// error.
inline DimVector expand_param(IntArrayRef v, int64_t n, IntArrayRef fallback, const char* op,
                              const char* what) {
  if (v.empty()) v = fallback;
  BRASA_CHECK(static_cast<int64_t>(v.size()) == 1 || static_cast<int64_t>(v.size()) == n, op, ": ",
              what, " must either be a single int, or a tuple of ", n, " ints, got ", shape_str(v));
  DimVector r;
  for (int64_t i = 0; i < n; ++i) r.push_back(v.size() == 1 ? v[0] : v[static_cast<size_t>(i)]);
  return r;
}

/// Fills the window fields and output sizes of a pooling geometry (PyTorch's output-size rule:
/// with ceil_mode the last window must start inside the input or the left padding).
void pooling_geometry(Geometry& g, const Tensor& input, int64_t spatial, IntArrayRef kernel,
                      IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                      const char* op);

}  // namespace brasa::ops::pool

namespace brasa::ops::pool {
/// The CPU kernels' common frame: runs loop(dtype, in, out) with `dtype` the compute dtype (Float
/// or Double), `in` the data of `input` converted to it and made contiguous, `out` that of a buffer
/// for `result` (zeroed first when `zero`, for the scatter-adds of backward passes); returns
/// `result` holding what was written.
template <typename Loop>
Tensor run_compute(const Tensor& input, const Tensor& result, bool zero, const Loop& loop) {
  const Tensor x = compute_input(input);
  Tensor out = compute_output(result);
  if (zero) out.zero_();
  loop(x.scalar_type(), x.const_data_ptr(), out.data_ptr());
  return finish(out, result);
}
}  // namespace brasa::ops::pool
