// Derivatives of cumsum and cumprod. cumprod is exact with zeros in the input: positions before
// a line's first zero use (reverse cumsum of g * y) / x, the first zero itself the reverse cumsum
// of g times the cumprod with that zero replaced by 1, and later positions get 0.

#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "ops/reduce/reduce_grad.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

namespace {

Tensor reverse_cumsum(const Tensor& t, int64_t d) {
  return t.flip(IntArrayRef{d}).cumsum(d).flip(IntArrayRef{d});
}

Tensor cumprod_backward(const Tensor& g, const Tensor& x_in, const Tensor& y, int64_t d) {
  Tensor x = x_in.to(y.dtype());
  Tensor is_zero = x.eq(0);
  if (!is_zero.any().item<bool>()) return reverse_cumsum(g * y, d) / x;
  Tensor zeros_so_far = is_zero.cumsum(d);
  Tensor before = zeros_so_far.eq(0);
  Tensor first_zero = is_zero.logical_and(zeros_so_far.eq(1));
  Tensor at_before = reverse_cumsum(g * y, d) / where(before, x, 1.0);
  Tensor at_first = reverse_cumsum(g * where(first_zero, 1.0, x).cumprod(d), d);
  return where(before, at_before, where(first_zero, at_first, 0.0));
}

template <bool kProd>
Tensor scan_ag(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  auto& op = kProd ? cumprod_op() : cumsum_op();
  Tensor r;
  {
    autograd::BelowAutograd below;
    r = op.call(self, dim, dtype);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  const int64_t d = self.dim() == 0 ? 0 : detail::wrap_dim(dim, self.dim(), op.name().c_str());
  const bool scalar = self.dim() == 0 || self.numel() == 0;
  autograd::record_unary(kProd ? "CumprodBackward0" : "CumsumBackward0", op.name().c_str(), self, r,
                         kProd, kProd,
                         [d, scalar](const Tensor& g, const Tensor& x, const Tensor& y) {
                           if (scalar) return g;
                           if constexpr (kProd) {
                             return cumprod_backward(g, x, y, d);
                           } else {
                             return reverse_cumsum(g, d);
                           }
                         });
  return r;
}

}  // namespace

BRASA_REGISTER_KERNEL(cumsum_op, scan_ag<false>, Autograd)
BRASA_REGISTER_KERNEL(cumprod_op, scan_ag<true>, Autograd)

}  // namespace brasa::ops
