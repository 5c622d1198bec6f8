#pragma once
// One way to give a unary pointwise op (UnaryOp: (self, out)) its derivative: a formula of
// (grad, input, result) and which of the two the node keeps. Used by the unary and the special-
// function families (unary_grad.cpp, special_grad.cpp).

#include <cstdint>

#include "autograd/function_node.h"
#include "ops/pointwise/unary.h"

namespace brasa::ops::unary_derivative {

/// x: the input, y: the result.
using Formula = Tensor (*)(const Tensor& g, const Tensor& x, const Tensor& y);
enum Saves : uint8_t { kNone = 0, kInput = 1, kResult = 2 };

struct Derivative {
  const char* node;
  uint8_t saves;
  Formula formula;
};

/// Runs op(x, out) below autograd and, when x requires grad, records d's node, keeping only what
/// d.saves names.
inline Tensor differentiate(UnaryOp& op, const Derivative& d, const Tensor& x, const Tensor& out) {
  using autograd::SavedVariable;
  if (!autograd::any_requires_grad({&x})) {
    autograd::BelowAutograd below;
    return op.call(x, out);
  }
  const char* name = op.name().c_str();
  if (out.defined() && !out.is_same(x)) autograd::throw_out_with_grad(name);
  autograd::UnaryClosure<Formula> c{
      (d.saves & kInput) ? SavedVariable(autograd::saved_input(x, out)) : SavedVariable(),
      SavedVariable(), d.formula};
  auto [r, node] = autograd::record(
      d.node, name, {&x}, x, out, std::move(c), [&] { return op.call(x, out); }, d.saves != kNone);
  if (d.saves & kResult) node->closure().y = SavedVariable(r, true);
  return r;
}

}  // namespace brasa::ops::unary_derivative

/// Defines op's derivative `formula` (an expression of g, x and y) and registers it at Autograd.
#define BRASA_UNARY_DERIVATIVE(op, node, saves, ...)                                       \
  Tensor op##_formula(const Tensor& g, const Tensor& x, const Tensor& y) {                 \
    (void)x;                                                                               \
    (void)y;                                                                               \
    return __VA_ARGS__;                                                                    \
  }                                                                                        \
  Tensor op##_autograd(const Tensor& x, const Tensor& out) {                               \
    static constexpr ::brasa::ops::unary_derivative::Derivative kDerivative{node, saves,   \
                                                                            op##_formula}; \
    return ::brasa::ops::unary_derivative::differentiate(op(), kDerivative, x, out);       \
  }                                                                                        \
  BRASA_REGISTER_KERNEL(op, op##_autograd, Autograd)
