// Derivatives of where, masked_fill, clamp (scalar and tensor bounds), clamp_min/clamp_max, lerp
// and nan_to_num. Their in-place forms (out = self) rebase self's history.
#include <optional>
#include <string>

#include "autograd/function_node.h"
#include "backends/cpu/kernels/ternary_kernels.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/pointwise.h"
#include "ops/pointwise/ternary_ops.h"

namespace brasa::ops {

using OptScalar = std::optional<Scalar>;
using OptTensor = std::optional<Tensor>;
using OptDouble = std::optional<double>;

namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::saved_input;
using autograd::SavedVariable;
using autograd::variable_list;

/// g where keep holds, 0 elsewhere.
Tensor keep_where(const Tensor& keep, const Tensor& g) { return where(keep, g, Scalar(0)); }

Tensor where_autograd(const Tensor& cond, const Tensor& a, const Tensor& b, const Tensor& out) {
  if (!autograd::any_requires_grad({&a, &b})) {
    BelowAutograd below;
    return where_op().call(cond, a, b, out);
  }
  auto fn = [c = SavedVariable(saved_input(cond, out))](BackwardContext& ctx) -> variable_list {
    Tensor m = ctx.unpack(c);
    if (m.dtype() != kBool) m = m.ne(0);
    const Tensor& g = ctx.grad(0);
    return {Tensor(), ctx.needs(1) ? keep_where(m, g) : Tensor(),
            ctx.needs(2) ? keep_where(m.logical_not(), g) : Tensor()};
  };
  return autograd::record("WhereBackward0", "where", {&cond, &a, &b}, a, out, std::move(fn),
                          [&] { return where_op().call(cond, a, b, out); })
      .first;
}

Tensor masked_fill_autograd(const Tensor& self, const Tensor& mask, const Scalar& value,
                            const Tensor& out) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return masked_fill_op().call(self, mask, value, out);
  }
  auto fn = [m = SavedVariable(saved_input(mask, out))](BackwardContext& ctx) -> variable_list {
    return {ctx.grad(0).masked_fill(ctx.unpack(m), Scalar(0))};
  };
  return autograd::record("MaskedFillBackward0", "masked_fill", {&self}, self, out, std::move(fn),
                          [&] { return masked_fill_op().call(self, mask, value, out); })
      .first;
}

/// Where self's gradient passes for scalar bounds: min <= x <= max (PyTorch's rule; NaN blocks).
Tensor clamp_pass(const Tensor& x, const OptScalar& min, const OptScalar& max) {
  if (min && max) return x.ge(*min).logical_and(x.le(*max));
  if (min) return x.ge(*min);
  return x.le(*max);
}

Tensor clamp_autograd(const Tensor& self, const OptScalar& min, const OptScalar& max,
                      const Tensor& out) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return clamp_op().call(self, min, max, out);
  }
  auto fn = [x = SavedVariable(saved_input(self, out)), min,
             max](BackwardContext& ctx) -> variable_list {
    const Tensor& g = ctx.grad(0);
    if (!min && !max) return {g};
    return {keep_where(clamp_pass(ctx.unpack(x), min, max), g)};
  };
  return autograd::record("ClampBackward1", "clamp", {&self}, self, out, std::move(fn),
                          [&] { return clamp_op().call(self, min, max, out); })
      .first;
}

Tensor clamp_min_autograd(const Tensor& self, const Scalar& min, const Tensor& out) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return clamp_min_op().call(self, min, out);
  }
  auto fn = [x = SavedVariable(saved_input(self, out)),
             min](BackwardContext& ctx) -> variable_list {
    return {keep_where(ctx.unpack(x).ge(min), ctx.grad(0))};
  };
  return autograd::record("ClampMinBackward0", "clamp_min", {&self}, self, out, std::move(fn),
                          [&] { return clamp_min_op().call(self, min, out); })
      .first;
}

Tensor clamp_max_autograd(const Tensor& self, const Scalar& max, const Tensor& out) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return clamp_max_op().call(self, max, out);
  }
  auto fn = [x = SavedVariable(saved_input(self, out)),
             max](BackwardContext& ctx) -> variable_list {
    return {keep_where(ctx.unpack(x).le(max), ctx.grad(0))};
  };
  return autograd::record("ClampMaxBackward0", "clamp_max", {&self}, self, out, std::move(fn),
                          [&] { return clamp_max_op().call(self, max, out); })
      .first;
}

Tensor defined_or_empty(const OptTensor& t) { return t.has_value() ? *t : Tensor(); }

/// PyTorch's clamp_backward_min_max: self passes inside [min, max]; min gets the gradient where
/// x < min < max, max where x > max or max < min (max wins when the bounds cross).
variable_list clamp_tensor_grads(BackwardContext& ctx, const Tensor& x, const Tensor& lo,
                                 const Tensor& hi) {
  const Tensor& g = ctx.grad(0);
  Tensor gx, glo, ghi;
  if (lo.defined() && hi.defined()) {
    if (ctx.needs(0)) gx = keep_where(x.ge(lo).logical_and(x.le(hi)), g);
    if (ctx.needs(1)) glo = keep_where(x.lt(lo).logical_and(lo.lt(hi)), g);
    if (ctx.needs(2)) ghi = keep_where(x.gt(hi).logical_or(hi.lt(lo)), g);
  } else if (lo.defined()) {
    if (ctx.needs(0)) gx = keep_where(x.ge(lo), g);
    if (ctx.needs(1)) glo = keep_where(x.lt(lo), g);
  } else if (hi.defined()) {
    if (ctx.needs(0)) gx = keep_where(x.le(hi), g);
    if (ctx.needs(2)) ghi = keep_where(x.gt(hi), g);
  } else {
    gx = g;
  }
  return {gx, glo, ghi};
}

Tensor clamp_tensor_autograd(const Tensor& self, const OptTensor& min, const OptTensor& max,
                             const Tensor& out) {
  Tensor lo = defined_or_empty(min), hi = defined_or_empty(max);
  if (!autograd::any_requires_grad({&self, &lo, &hi})) {
    BelowAutograd below;
    return clamp_tensor_op().call(self, min, max, out);
  }
  auto fn = [x = SavedVariable(saved_input(self, out)), l = SavedVariable(saved_input(lo, out)),
             h = SavedVariable(saved_input(hi, out))](BackwardContext& ctx) -> variable_list {
    return clamp_tensor_grads(ctx, ctx.unpack(x), ctx.unpack(l), ctx.unpack(h));
  };
  return autograd::record("ClampBackward0", "clamp.Tensor", {&self, &lo, &hi}, self, out,
                          std::move(fn),
                          [&] { return clamp_tensor_op().call(self, min, max, out); })
      .first;
}

Tensor lerp_scalar_autograd(const Tensor& self, const Tensor& end, const Scalar& weight,
                            const Tensor& out) {
  if (!autograd::any_requires_grad({&self, &end})) {
    BelowAutograd below;
    return lerp_scalar_op().call(self, end, weight, out);
  }
  const double w = weight.toDouble();
  auto fn = [w](BackwardContext& ctx) -> variable_list {
    const Tensor& g = ctx.grad(0);
    return {ctx.needs(0) ? g * (1.0 - w) : Tensor(), ctx.needs(1) ? g * w : Tensor()};
  };
  return autograd::record(
             "LerpBackward0", "lerp.Scalar", {&self, &end}, self, out, std::move(fn),
             [&] { return lerp_scalar_op().call(self, end, weight, out); }, false)
      .first;
}

Tensor lerp_tensor_autograd(const Tensor& self, const Tensor& end, const Tensor& weight,
                            const Tensor& out) {
  if (!autograd::any_requires_grad({&self, &end, &weight})) {
    BelowAutograd below;
    return lerp_tensor_op().call(self, end, weight, out);
  }
  const bool need_w = weight.requires_grad();
  auto fn = [x = SavedVariable(need_w ? saved_input(self, out) : Tensor()),
             e = SavedVariable(need_w ? saved_input(end, out) : Tensor()),
             w = SavedVariable(saved_input(weight, out))](BackwardContext& ctx) -> variable_list {
    const Tensor& g = ctx.grad(0);
    Tensor wt = ctx.unpack(w);
    Tensor gx = ctx.needs(0) ? g * (1 - wt) : Tensor();
    Tensor ge = ctx.needs(1) ? g * wt : Tensor();
    Tensor gw = ctx.needs(2) ? g * (ctx.unpack(e) - ctx.unpack(x)) : Tensor();
    return {gx, ge, gw};
  };
  return autograd::record("LerpBackward1", "lerp.Tensor", {&self, &end, &weight}, self, out,
                          std::move(fn),
                          [&] { return lerp_tensor_op().call(self, end, weight, out); })
      .first;
}

Tensor nan_to_num_autograd(const Tensor& self, OptDouble nan, OptDouble posinf, OptDouble neginf,
                           const Tensor& out) {
  if (!autograd::any_requires_grad({&self})) {
    BelowAutograd below;
    return nan_to_num_op().call(self, nan, posinf, neginf, out);
  }
  auto fn = [x = SavedVariable(saved_input(self, out))](BackwardContext& ctx) -> variable_list {
    return {keep_where(ctx.unpack(x).isfinite(), ctx.grad(0))};
  };
  return autograd::record("NanToNumBackward0", "nan_to_num", {&self}, self, out, std::move(fn),
                          [&] { return nan_to_num_op().call(self, nan, posinf, neginf, out); })
      .first;
}

}  // namespace

BRASA_REGISTER_KERNEL(where_op, where_autograd, Autograd)
BRASA_REGISTER_KERNEL(masked_fill_op, masked_fill_autograd, Autograd)
BRASA_REGISTER_KERNEL(clamp_op, clamp_autograd, Autograd)
BRASA_REGISTER_KERNEL(clamp_tensor_op, clamp_tensor_autograd, Autograd)
BRASA_REGISTER_KERNEL(clamp_min_op, clamp_min_autograd, Autograd)
BRASA_REGISTER_KERNEL(clamp_max_op, clamp_max_autograd, Autograd)
BRASA_REGISTER_KERNEL(lerp_scalar_op, lerp_scalar_autograd, Autograd)
BRASA_REGISTER_KERNEL(lerp_tensor_op, lerp_tensor_autograd, Autograd)
BRASA_REGISTER_KERNEL(nan_to_num_op, nan_to_num_autograd, Autograd)

}  // namespace brasa::ops
