#include "brasa/core/type_promotion.h"

namespace brasa {
namespace {
int category(ScalarType t) {
  if (t == kBool) return 0;
  if (is_integral_type(t, false)) return 1;
  if (is_complex_type(t)) return 3;
  return 2;
}
// The lower-priority group only matters when it is of a higher category. A complex one over a
// floating one keeps the floating one's precision (float tensor * 0-d ComplexDouble is
// ComplexFloat), as PyTorch does.
ScalarType combine(ScalarType higher, ScalarType lower) {
  if (higher == ScalarType::Undefined) return lower;
  if (lower == ScalarType::Undefined) return higher;
  if (category(lower) <= category(higher)) return higher;
  if (is_complex_type(lower) && is_floating_type(higher)) return to_complex_type(higher);
  return promote_types(higher, lower);
}
}  // namespace

void ResultTypeState::add(const Tensor& t) {
  if (!t.defined()) return;
  ScalarType dt = t.dtype();
  if (t.unsafeGetTensorImpl()->is_wrapped_number()) {
    // A wrapped Python-style float counts as the default dtype, not Double (a complex one as
    // the default dtype's complex type).
    if (is_floating_type(dt)) dt = get_default_dtype();
    if (is_complex_type(dt)) dt = to_complex_type(get_default_dtype());
    wrapped_ = promote_types(wrapped_, dt);
  } else if (t.dim() == 0) {
    zero_ = promote_types(zero_, dt);
  } else {
    dim_ = promote_types(dim_, dt);
  }
}

void ResultTypeState::add(const Scalar& s) {
  ScalarType dt = s.isFloatingPoint() ? get_default_dtype()
                  : s.isComplex()     ? to_complex_type(get_default_dtype())
                                      : s.type();
  wrapped_ = promote_types(wrapped_, dt);
}

ScalarType ResultTypeState::result() const { return combine(dim_, combine(zero_, wrapped_)); }

ScalarType result_type(const Tensor& a, const Tensor& b) {
  ResultTypeState s;
  s.add(a);
  s.add(b);
  return s.result();
}
ScalarType result_type(const Tensor& a, const Scalar& b) {
  ResultTypeState s;
  s.add(a);
  s.add(b);
  return s.result();
}
ScalarType result_type(const Scalar& a, const Tensor& b) { return result_type(b, a); }
ScalarType result_type(TensorList tensors) {
  ResultTypeState s;
  for (const Tensor& t : tensors) s.add(t);
  return s.result();
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_complex_type(from) && !is_complex_type(to)) return false;
  if (is_floating_type(from) && is_integral_type(to, true)) return false;
  if (from != kBool && to == kBool) return false;
  return true;
}

}  // namespace brasa
