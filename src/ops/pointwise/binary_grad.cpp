// Derivatives of the binary pointwise family (autograd kernels of the ops in binary_ops.h).
// Comparison, logical and bitwise ops have bool/integral results and need none.

#include <cmath>

#include "autograd/function_node.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"
#include "ops/pointwise/binary_ops.h"

namespace brasa::ops {
namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

struct Inputs {
  const Tensor& g;
  Tensor a, b, result;
  const Scalar& alpha;
  bool need_a, need_b;
};
using Grads = std::pair<Tensor, Tensor>;
using Formula = Grads (*)(const Inputs&);

enum Saves : uint8_t { kNone = 0, kA = 1, kB = 2, kResult = 4 };

struct Derivative {
  const char* node;
  uint8_t saves;
  Formula formula;
  // pow, remainder and fmod name their Scalar overloads' nodes from a wrapped `other` (both of
  // PyTorch's frontends call those overloads for a number); the other entry points name theirs
  // (Note [Overload node names]).
  const char* scalar_node;  // when other is a wrapped number
};

bool wrapped(const Tensor& t) { return t.unsafeGetTensorImpl()->is_wrapped_number(); }

struct Closure {
  SavedVariable a, b, result;
  Scalar alpha;
  Formula formula;
  variable_list operator()(BackwardContext& ctx) const {
    Inputs in{ctx.grad(0), ctx.unpack(a), ctx.unpack(b), ctx.unpack(result),
              alpha,       ctx.needs(0),  ctx.needs(1)};
    auto [ga, gb] = formula(in);
    return {ga, gb};
  }
};

Tensor run(BinaryOp& op, const Tensor& a, const Tensor& b, const Scalar& alpha, const Tensor& out) {
  BelowAutograd below;
  return op.call(a, b, alpha, out);
}

Tensor differentiate(BinaryOp& op, const Derivative& d, const Tensor& a, const Tensor& b,
                     const Scalar& alpha, const Tensor& out) {
  if (!autograd::any_requires_grad({&a, &b})) return run(op, a, b, alpha, out);
  const char* node = d.node;
  if (d.scalar_node && wrapped(b)) node = d.scalar_node;
  const char* name = op.name().c_str();
  if (out.defined() && !out.is_same(a)) autograd::throw_out_with_grad(name);
  Closure c{(d.saves & kA) ? SavedVariable(autograd::saved_input(a, out)) : SavedVariable(),
            (d.saves & kB) ? SavedVariable(autograd::saved_input(b, out)) : SavedVariable(),
            SavedVariable(), alpha, d.formula};
  auto [r, fn] = autograd::record(
      node, name, {&a, &b}, a, out, std::move(c), [&] { return op.call(a, b, alpha, out); },
      d.saves != kNone);
  if (d.saves & kResult) fn->closure().result = SavedVariable(r, true);
  return r;
}

// Evaluates the gradient expression only when that gradient is needed.
#define BRASA_IF_NEEDED(need, ...) ((need) ? Tensor(__VA_ARGS__) : Tensor())
bool is_one(const Scalar& s) { return s.equal(Scalar(1)); }

// Note [Complex gradients] (autograd/engine.cpp): for complex operands the chain rule multiplies
// by the conjugate of each partial derivative (g * conj(b) for a * b); conj() of a real tensor is
// the tensor itself, so the real case pays nothing.
Grads add_grad(const Inputs& in) {
  return {in.g, in.need_b ? (is_one(in.alpha) ? in.g : in.g * in.alpha.conj()) : Tensor()};
}
Grads sub_grad(const Inputs& in) {
  if (!in.need_b) return {in.g, Tensor()};
  if (is_one(in.alpha)) return {in.g, -in.g};
  return {in.g, in.alpha.isComplex() ? in.g * (-in.alpha).conj() : in.g * (-in.alpha.toDouble())};
}
Grads mul_grad(const Inputs& in) {
  return {BRASA_IF_NEEDED(in.need_a, in.g * in.b.conj()),
          BRASA_IF_NEEDED(in.need_b, in.g * in.a.conj())};
}
Grads div_grad(const Inputs& in) {
  return {BRASA_IF_NEEDED(in.need_a, in.g / in.b.conj()),
          BRASA_IF_NEEDED(in.need_b, -in.g * (in.a / (in.b * in.b)).conj())};
}
Grads zero_grad(const Inputs& in) {
  return {BRASA_IF_NEEDED(in.need_a, zeros_like(in.g)),
          BRASA_IF_NEEDED(in.need_b, zeros_like(in.g))};
}
Grads pow_grad(const Inputs& in) {
  Tensor ga, gb;
  if (in.need_a) {
    Tensor d = in.b * in.a.pow(in.b - 1);
    ga = in.g * where(in.b.eq(0), zeros_like(d), d);
  }
  if (in.need_b) {
    Tensor d = in.result * in.a.log();
    gb = in.g * where(in.a.eq(0).logical_and(in.b.ge(0)), zeros_like(d), d);
  }
  return {ga, gb};
}
Grads atan2_grad(const Inputs& in) {
  Tensor denom = in.a * in.a + in.b * in.b;
  return {BRASA_IF_NEEDED(in.need_a, in.g * in.b / denom),
          BRASA_IF_NEEDED(in.need_b, in.g * -in.a / denom)};
}
Grads hypot_grad(const Inputs& in) {
  return {BRASA_IF_NEEDED(in.need_a, in.g * in.a / in.result),
          BRASA_IF_NEEDED(in.need_b, in.g * in.b / in.result)};
}
// maximum/minimum: the gradient goes to the selected input, split evenly on ties; NaN
// comparisons are false, so both inputs of a NaN pair get it (as in PyTorch).
Grads select_grad(const Inputs& in, const Tensor& a_loses, const Tensor& b_loses) {
  Tensor shared = where(in.a.eq(in.b), in.g / 2, in.g);
  return {BRASA_IF_NEEDED(in.need_a, shared.masked_fill(a_loses, 0)),
          BRASA_IF_NEEDED(in.need_b, shared.masked_fill(b_loses, 0))};
}
Grads maximum_grad(const Inputs& in) { return select_grad(in, in.a.lt(in.b), in.a.gt(in.b)); }
Grads minimum_grad(const Inputs& in) { return select_grad(in, in.a.gt(in.b), in.a.lt(in.b)); }
// threshold_backward(g, y) is linear in g; y only selects.
Grads threshold_backward_grad(const Inputs& in) {
  return {BRASA_IF_NEEDED(in.need_a, threshold_backward_op().call(in.g, in.b, 1, Tensor())),
          BRASA_IF_NEEDED(in.need_b, zeros_like(in.g))};
}
Grads remainder_grad(const Inputs& in) {
  return {in.g, BRASA_IF_NEEDED(in.need_b, -in.g * floor_divide(in.a, in.b))};
}
Grads fmod_grad(const Inputs& in) {
  return {in.g, BRASA_IF_NEEDED(in.need_b, -in.g * div(in.a, in.b, std::string_view("trunc")))};
}

// NAMED: with the node names of the Scalar overloads.
#define BRASA_BINARY_DERIVATIVE_NAMED(op, node, saves, formula, scalar_node)                       \
  Tensor op##_autograd(const Tensor& a, const Tensor& b, const Scalar& alpha, const Tensor& out) { \
    static constexpr Derivative kDerivative{node, saves, formula, scalar_node};                    \
    return differentiate(op(), kDerivative, a, b, alpha, out);                                     \
  }                                                                                                \
  BRASA_REGISTER_KERNEL(op, op##_autograd, Autograd)
#define BRASA_BINARY_DERIVATIVE(op, node, saves, formula) \
  BRASA_BINARY_DERIVATIVE_NAMED(op, node, saves, formula, nullptr)

BRASA_BINARY_DERIVATIVE(add_op, "AddBackward0", kNone, add_grad)
BRASA_BINARY_DERIVATIVE(sub_op, "SubBackward0", kNone, sub_grad)
BRASA_BINARY_DERIVATIVE(mul_op, "MulBackward0", kA | kB, mul_grad)
BRASA_BINARY_DERIVATIVE(div_op, "DivBackward0", kA | kB, div_grad)
BRASA_BINARY_DERIVATIVE(div_trunc_op, "DivBackward2", kNone, zero_grad)
BRASA_BINARY_DERIVATIVE(floor_divide_op, "DivBackward2", kNone, zero_grad)
BRASA_BINARY_DERIVATIVE_NAMED(pow_op, "PowBackward1", kA | kB | kResult, pow_grad, "PowBackward0")
BRASA_BINARY_DERIVATIVE(atan2_op, "Atan2Backward0", kA | kB, atan2_grad)
BRASA_BINARY_DERIVATIVE(hypot_op, "HypotBackward0", kA | kB | kResult, hypot_grad)
BRASA_BINARY_DERIVATIVE(maximum_op, "MaximumBackward0", kA | kB, maximum_grad)
BRASA_BINARY_DERIVATIVE(minimum_op, "MinimumBackward0", kA | kB, minimum_grad)
BRASA_BINARY_DERIVATIVE(threshold_backward_op, "ThresholdBackwardBackward0", kB,
                        threshold_backward_grad)
BRASA_BINARY_DERIVATIVE_NAMED(remainder_op, "RemainderBackward1", kA | kB, remainder_grad,
                              "RemainderBackward0")
BRASA_BINARY_DERIVATIVE_NAMED(fmod_op, "FmodBackward1", kA | kB, fmod_grad, "FmodBackward0")

}  // namespace

}  // namespace brasa::ops
