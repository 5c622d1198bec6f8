#pragma once
// Half/BFloat16 inputs of composite functionals compute in float and round once at the end, like
// PyTorch's fused kernels (rounding every intermediate would cost several ulps).

#include <utility>

#include "brasa/core/tensor.h"
#include "brasa/core/type_promotion.h"
#include "brasa/dispatch/autocast_mode.h"

namespace brasa::nn::functional::detail {

inline bool is_reduced(ScalarType t) { return t == kHalf || t == kBFloat16; }

/// f(input in float) rounded back to input's dtype for Half/BFloat16; f(input) otherwise.
template <typename F>
Tensor in_opmath(const Tensor& input, F&& f) {
  if (!is_reduced(input.scalar_type())) return f(input);
  return f(input.to(kFloat)).to(input.scalar_type());
}

}  // namespace brasa::nn::functional::detail

namespace brasa::nn::functional::detail {

inline Tensor to_opmath(const Tensor& t) {
  return t.defined() && is_reduced(t.scalar_type()) ? t.to(kFloat) : t;
}

/// f(a, b) with Half/BFloat16 operands in float, the result rounded to their promoted dtype when
/// that is reduced (a's dtype when b is not floating, e.g. class indices).
template <typename F>
Tensor in_opmath2(const Tensor& a, const Tensor& b, F&& f) {
  if (!is_reduced(a.scalar_type()) && !(b.defined() && is_reduced(b.scalar_type()))) return f(a, b);
  const ScalarType out = b.defined() && is_floating_type(b.scalar_type())
                             ? promote_types(a.scalar_type(), b.scalar_type())
                             : a.scalar_type();
  Tensor r = f(to_opmath(a), to_opmath(b));
  return is_reduced(out) ? r.to(out) : r;
}

/// in_opmath2 for the losses, which are float32 ops under autocast (Note [Autocast]): there f(a, b)
/// runs in float32 and the result stays float32.
template <typename F>
Tensor loss_opmath2(const Tensor& a, const Tensor& b, F&& f) {
  if (BRASA_UNLIKELY(autocast::is_active())) {
    autocast::AutocastExclude exclude;
    return f(autocast::cached_cast(kFloat, a), autocast::cached_cast(kFloat, b));
  }
  return in_opmath2(a, b, std::forward<F>(f));
}

}  // namespace brasa::nn::functional::detail
