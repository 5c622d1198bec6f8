// Derivatives of var, std, norm and logsumexp. Like PyTorch, std and norm give a zero gradient
// where the result is 0 (instead of 0/0).

#include <cmath>

#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "ops/reduce/reduce_grad.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

namespace {

// Gradient of var(x, dims, correction, keepdim=true) given g already of that keepdim shape.
Tensor var_backward(const Tensor& g, const Tensor& x, IntArrayRef dims, int64_t correction) {
  const double dof = static_cast<double>(reduced_count(x.sizes(), dims) - correction);
  // PyTorch's 0-d case: 2/dof, without the (0) deviation factor.
  if (x.dim() == 0) return (2.0 / dof) * g;
  return (2.0 / dof) * g * (x - x.mean(dims, true));
}

template <bool kStd>
Tensor var_std_ag(const Tensor& self, IntArrayRef dim, int64_t correction, bool keepdim) {
  auto& op = kStd ? std_op() : var_op();
  Tensor r;
  {
    autograd::BelowAutograd below;
    r = op.call(self, dim, correction, keepdim);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  const int64_t ndim = self.dim();
  autograd::record_unary(kStd ? "StdBackward0" : "VarBackward0", op.name().c_str(), self, r, true,
                         kStd,
                         [dims = DimVector(dim), correction, keepdim, ndim](
                             const Tensor& g, const Tensor& x, const Tensor& y) {
                           Tensor gk = unsqueeze_reduced(g, ndim, dims, keepdim);
                           if constexpr (kStd) {
                             Tensor yk = unsqueeze_reduced(y, ndim, dims, keepdim);
                             gk = (gk / (2.0 * yk)).masked_fill(yk.eq(0), 0.0);
                           }
                           return var_backward(gk, x, dims, correction);
                         });
  return r;
}

// g and y already have the keepdim shape.
Tensor norm_backward(const Tensor& g, const Tensor& x, const Tensor& y, double p,
                     IntArrayRef dims) {
  if (p == 0.0) return zeros_like(x);
  if (p == 1.0) return x.sign() * g;
  Tensor y_is_zero = y.eq(0);
  if (p == 2.0) return g * (x / y).masked_fill(y_is_zero, 0.0);
  if (std::isinf(p)) {
    Tensor hit = x.abs().eq(y).to(g.dtype());
    Tensor count = dims.empty() ? hit.sum() : hit.sum(dims, true);
    return x.sign() * hit * (g / count);
  }
  Tensor ax = x.abs();
  Tensor scale = (g / y.pow(p - 1.0)).masked_fill(y_is_zero, 0.0);
  if (p < 1.0) return (x.sign() * ax.pow(p - 1.0)).masked_fill(x.eq(0), 0.0) * scale;
  if (p < 2.0) return x.sign() * ax.pow(p - 1.0) * scale;
  return x * ax.pow(p - 2.0) * scale;
}

Tensor norm_ag(const Tensor& self, std::optional<Scalar> p, IntArrayRef dim, bool keepdim) {
  Tensor r;
  {
    autograd::BelowAutograd below;
    r = norm_op().call(self, p, dim, keepdim);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  const int64_t ndim = self.dim();
  autograd::record_unary("NormBackward1", "norm", self, r, true, true,
                         [pv = p ? p->toDouble() : 2.0, dims = DimVector(dim), keepdim, ndim](
                             const Tensor& g, const Tensor& x, const Tensor& y) {
                           return norm_backward(unsqueeze_reduced(g, ndim, dims, keepdim), x,
                                                unsqueeze_reduced(y, ndim, dims, keepdim), pv,
                                                dims);
                         });
  return r;
}

Tensor logsumexp_ag(const Tensor& self, IntArrayRef dim, bool keepdim) {
  Tensor r;
  {
    autograd::BelowAutograd below;
    r = logsumexp_op().call(self, dim, keepdim);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  const int64_t ndim = self.dim();
  autograd::record_unary(
      "LogsumexpBackward0", "logsumexp", self, r, true, true,
      [dims = DimVector(dim), keepdim, ndim](const Tensor& g, const Tensor& x, const Tensor& y) {
        return unsqueeze_reduced(g, ndim, dims, keepdim) *
               (x - unsqueeze_reduced(y, ndim, dims, keepdim)).exp();
      });
  return r;
}

}  // namespace

BRASA_REGISTER_KERNEL(var_op, var_std_ag<false>, Autograd)
BRASA_REGISTER_KERNEL(std_op, var_std_ag<true>, Autograd)
BRASA_REGISTER_KERNEL(norm_op, norm_ag, Autograd)
BRASA_REGISTER_KERNEL(logsumexp_op, logsumexp_ag, Autograd)

}  // namespace brasa::ops
