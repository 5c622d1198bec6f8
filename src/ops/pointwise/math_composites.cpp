// The pointwise ops of brasa/ops/math.h: libtorch's aliases, and the ops PyTorch defines as
// compositions of others, written the same way (so their derivatives come from their parts).
#include <cmath>
#include <numbers>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/type_promotion.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/complex.h"
#include "brasa/ops/composite_out.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/math.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/special.h"

namespace brasa {
namespace {

using ops::composite_out;
using ops::OutDtype;

// A wrapped number: a 0-d CPU tensor (as the binary ops make them), whatever the other
// operand's device.
Tensor wrap(const Scalar& s, const Tensor& like) {
  (void)like;
  return detail::wrap_scalar(s);
}

void check_defined(const char* op, const Tensor& t) {
  BRASA_CHECK(t.defined(), op, ": got an undefined tensor");
}

void check_floating(const char* op, const Tensor& a, const Tensor& b) {
  check_defined(op, a);
  check_defined(op, b);
  BRASA_CHECK_TYPE(is_floating_type(result_type(a, b)), op, ": expected floating inputs, got ",
                   a.scalar_type(), " and ", b.scalar_type());
}

void check_not_complex(const char* op, const Tensor& t) {
  check_defined(op, t);
  BRASA_CHECK_TYPE(!t.is_complex(), op, ": does not support complex inputs, got ", t.scalar_type());
}

/// The default float dtype for integral and bool tensors, the tensor's own otherwise.
Tensor to_floating(const Tensor& t) {
  return is_floating_type(t.scalar_type()) || t.is_complex() ? t : t.to(get_default_dtype());
}

}  // namespace

// ---- aliases ----
#define BRASA_UNARY_ALIAS(alias, target)                    \
  Tensor alias(const Tensor& self) { return target(self); } \
  Tensor& alias##_out(Tensor& out, const Tensor& self) { return target##_out(out, self); }
BRASA_UNARY_ALIAS(arccos, acos)
BRASA_UNARY_ALIAS(arcsin, asin)
BRASA_UNARY_ALIAS(arctan, atan)
BRASA_UNARY_ALIAS(fix, trunc)
#undef BRASA_UNARY_ALIAS
Tensor arctan2(const Tensor& self, const Tensor& other) { return atan2(self, other); }
Tensor& arctan2_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return atan2_out(out, self, other);
}
#define BRASA_COMPARE_ALIAS(alias, target)                                              \
  Tensor alias(const Tensor& self, const Tensor& other) { return target(self, other); } \
  Tensor alias(const Tensor& self, const Scalar& other) { return target(self, other); } \
  Tensor& alias##_out(Tensor& out, const Tensor& self, const Tensor& other) {           \
    return target##_out(out, self, other);                                              \
  }                                                                                     \
  Tensor& alias##_out(Tensor& out, const Tensor& self, const Scalar& other) {           \
    return target##_out(out, self, wrap(other, self));                                  \
  }
BRASA_COMPARE_ALIAS(greater_equal, ge)
BRASA_COMPARE_ALIAS(less_equal, le)
BRASA_COMPARE_ALIAS(not_equal, ne)
#undef BRASA_COMPARE_ALIAS

Tensor positive(const Tensor& self) {
  check_defined("positive", self);
  BRASA_CHECK_TYPE(self.scalar_type() != kBool, "positive: bool tensors are not supported");
  return self;
}

Tensor sgn(const Tensor& self) {
  check_defined("sgn", self);
  if (!self.is_complex()) return sign(self);
  // x / |x|, with |x| replaced by 1 where x is 0 and the quotient masked there (so that the
  // gradient at 0 is 0, as in PyTorch).
  Tensor r = self.abs();
  Tensor nonzero = r.ne(0);
  return self / where(nonzero, r, ones_like(r)) * nonzero.to(r.scalar_type());
}
Tensor& sgn_out(Tensor& out, const Tensor& self) {
  return composite_out(out, sgn(self), "sgn", OutDtype::Exact);
}

// ---- angles, sinc, predicates ----
Tensor deg2rad(const Tensor& self) {
  check_not_complex("deg2rad", self);
  return to_floating(self) * (std::numbers::pi / 180.0);
}
Tensor& deg2rad_out(Tensor& out, const Tensor& self) {
  return composite_out(out, deg2rad(self), "deg2rad");
}
Tensor rad2deg(const Tensor& self) {
  check_not_complex("rad2deg", self);
  return to_floating(self) * (180.0 / std::numbers::pi);
}
Tensor& rad2deg_out(Tensor& out, const Tensor& self) {
  return composite_out(out, rad2deg(self), "rad2deg");
}

Tensor sinc(const Tensor& self) {
  check_defined("sinc", self);
  Tensor x = to_floating(self) * std::numbers::pi;
  // A safe denominator at 0, so that the unused branch's gradient is not 0/0.
  Tensor zero = x.eq(0);
  Tensor safe = where(zero, ones_like(x), x);
  return where(zero, ones_like(x), safe.sin() / safe);
}
Tensor& sinc_out(Tensor& out, const Tensor& self) { return composite_out(out, sinc(self), "sinc"); }

Tensor isneginf(const Tensor& self) {
  check_not_complex("isneginf", self);
  return logical_and(isinf(self), self.lt(0));
}
Tensor& isneginf_out(Tensor& out, const Tensor& self) {
  return composite_out(out, isneginf(self), "isneginf", OutDtype::Exact);
}
Tensor isposinf(const Tensor& self) {
  check_not_complex("isposinf", self);
  return logical_and(isinf(self), self.gt(0));
}
Tensor& isposinf_out(Tensor& out, const Tensor& self) {
  return composite_out(out, isposinf(self), "isposinf", OutDtype::Exact);
}
Tensor isreal(const Tensor& self) {
  check_defined("isreal", self);
  if (!self.is_complex()) return ones_like(self, kBool);
  return imag(self).eq(0);
}

// ---- addcdiv, addcmul ----
Tensor addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
               const Scalar& value) {
  check_defined("addcdiv", self);
  check_defined("addcdiv", tensor1);
  check_defined("addcdiv", tensor2);
  BRASA_CHECK_TYPE(!(is_integral_type(tensor1.scalar_type(), true) &&
                     is_integral_type(tensor2.scalar_type(), true)),
                   "addcdiv: integer division is not supported (tensor1 ", tensor1.scalar_type(),
                   ", tensor2 ", tensor2.scalar_type(), "); use true_divide or floor_divide");
  return add(self, div(tensor1, tensor2), value);
}
Tensor& addcdiv_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                    const Scalar& value) {
  return composite_out(out, addcdiv(self, tensor1, tensor2, value), "addcdiv");
}
Tensor addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
               const Scalar& value) {
  check_defined("addcmul", self);
  check_defined("addcmul", tensor1);
  check_defined("addcmul", tensor2);
  return add(self, mul(tensor1, tensor2), value);
}
Tensor& addcmul_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                    const Scalar& value) {
  return composite_out(out, addcmul(self, tensor1, tensor2, value), "addcmul");
}

// ---- float_power ----
namespace {
ScalarType float_power_dtype(bool complex) { return complex ? kComplexDouble : kDouble; }
}  // namespace
Tensor float_power(const Tensor& self, const Tensor& exponent) {
  check_defined("float_power", self);
  check_defined("float_power", exponent);
  const ScalarType dt = float_power_dtype(self.is_complex() || exponent.is_complex());
  return pow(self.to(dt), exponent.to(dt));
}
Tensor float_power(const Tensor& self, const Scalar& exponent) {
  check_defined("float_power", self);
  const ScalarType dt = float_power_dtype(self.is_complex() || exponent.isComplex());
  return pow(self.to(dt), exponent);
}
Tensor float_power(const Scalar& self, const Tensor& exponent) {
  check_defined("float_power", exponent);
  const ScalarType dt = float_power_dtype(self.isComplex() || exponent.is_complex());
  return pow(self, exponent.to(dt));
}
Tensor& float_power_out(Tensor& out, const Tensor& self, const Tensor& exponent) {
  return composite_out(out, float_power(self, exponent), "float_power");
}
Tensor& float_power_out(Tensor& out, const Tensor& self, const Scalar& exponent) {
  return composite_out(out, float_power(self, exponent), "float_power");
}

// ---- fmax, fmin, ldexp ----
Tensor fmax(const Tensor& self, const Tensor& other) {
  check_not_complex("fmax", self);
  check_not_complex("fmax", other);
  Tensor m = maximum(self, other);
  return where(isnan(other), where(isnan(self), m, self.to(m.scalar_type())),
               where(isnan(self), other.to(m.scalar_type()), m));
}
Tensor& fmax_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return composite_out(out, fmax(self, other), "fmax");
}
Tensor fmin(const Tensor& self, const Tensor& other) {
  check_not_complex("fmin", self);
  check_not_complex("fmin", other);
  Tensor m = minimum(self, other);
  return where(isnan(other), where(isnan(self), m, self.to(m.scalar_type())),
               where(isnan(self), other.to(m.scalar_type()), m));
}
Tensor& fmin_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return composite_out(out, fmin(self, other), "fmin");
}
Tensor ldexp(const Tensor& self, const Tensor& other) {
  check_defined("ldexp", self);
  check_defined("ldexp", other);
  return mul(self, pow(2.0, other));
}
Tensor& ldexp_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return composite_out(out, ldexp(self, other), "ldexp");
}

// ---- logaddexp, logaddexp2 ----
// m + log(1 + exp(-|a - b|)) with m = max(a, b); where a == b is infinite the difference is NaN and
// the result is a itself.
Tensor logaddexp(const Tensor& self, const Tensor& other) {
  check_floating("logaddexp", self, other);
  Tensor m = maximum(self, other);
  Tensor r = m + (self - other).abs().neg().exp().log1p();
  return where(logical_and(isinf(self), self.eq(other)), self.to(r.scalar_type()), r);
}
Tensor& logaddexp_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return composite_out(out, logaddexp(self, other), "logaddexp");
}
Tensor logaddexp2(const Tensor& self, const Tensor& other) {
  check_floating("logaddexp2", self, other);
  Tensor m = maximum(self, other);
  Tensor r = m + (self - other).abs().neg().exp2().log1p() * (1.0 / std::numbers::ln2);
  return where(logical_and(isinf(self), self.eq(other)), self.to(r.scalar_type()), r);
}
Tensor& logaddexp2_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return composite_out(out, logaddexp2(self, other), "logaddexp2");
}

// ---- xlogy ----
Tensor xlogy(const Tensor& self, const Tensor& other) {
  check_defined("xlogy", self);
  check_defined("xlogy", other);
  Tensor r = mul(self, to_floating(other).log());
  Tensor zero = logical_and(self.eq(0), logical_not(isnan(other)));
  return where(zero, zeros_like(r), r);
}
Tensor xlogy(const Tensor& self, const Scalar& other) { return xlogy(self, wrap(other, self)); }
Tensor xlogy(const Scalar& self, const Tensor& other) { return xlogy(wrap(self, other), other); }
Tensor& xlogy_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return composite_out(out, xlogy(self, other), "xlogy");
}
Tensor& xlogy_out(Tensor& out, const Tensor& self, const Scalar& other) {
  return composite_out(out, xlogy(self, other), "xlogy");
}

// ---- copysign, heaviside ----
Tensor copysign(const Tensor& self, const Tensor& other) {
  check_not_complex("copysign", self);
  check_not_complex("copysign", other);
  ScalarType dt = result_type(self, other);
  if (!is_floating_type(dt)) dt = get_default_dtype();
  Tensor a = self.to(dt).abs();
  Tensor r = where(signbit(other), a.neg(), a);
  return r;
}
Tensor copysign(const Tensor& self, const Scalar& other) {
  return copysign(self, wrap(other, self));
}
Tensor& copysign_out(Tensor& out, const Tensor& self, const Tensor& other) {
  return composite_out(out, copysign(self, other), "copysign");
}
Tensor& copysign_out(Tensor& out, const Tensor& self, const Scalar& other) {
  return composite_out(out, copysign(self, other), "copysign");
}

Tensor heaviside(const Tensor& self, const Tensor& values) {
  check_not_complex("heaviside", self);
  check_not_complex("heaviside", values);
  BRASA_CHECK_TYPE(self.scalar_type() == values.scalar_type(),
                   "heaviside: expected self and values of one dtype, got ", self.scalar_type(),
                   " and ", values.scalar_type());
  return where(self.eq(0), values, self.gt(0).to(self.scalar_type()));
}
Tensor& heaviside_out(Tensor& out, const Tensor& self, const Tensor& values) {
  return composite_out(out, heaviside(self, values), "heaviside");
}

// ---- isclose, isin ----
Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  check_defined("isclose", self);
  check_defined("isclose", other);
  BRASA_CHECK_TYPE(self.scalar_type() == other.scalar_type(),
                   "isclose: expected self and other of one dtype, got ", self.scalar_type(),
                   " and ", other.scalar_type());
  BRASA_CHECK(rtol >= 0, "isclose: rtol must be greater than or equal to zero, but got ", rtol);
  BRASA_CHECK(atol >= 0, "isclose: atol must be greater than or equal to zero, but got ", atol);
  NoGradGuard no_grad;
  Tensor close = self.eq(other);
  if (equal_nan && (is_floating_type(self.scalar_type()) || self.is_complex())) {
    // A complex value is NaN when either part is.
    auto nan = [](const Tensor& t) {
      return t.is_complex() ? logical_or(isnan(t.real()), isnan(t.imag())) : isnan(t);
    };
    close = logical_or(close, logical_and(nan(self), nan(other)));
  }
  if (self.scalar_type() == kBool) return close;
  Tensor a = to_floating(self), b = to_floating(other);
  Tensor diff = (a - b).abs();
  Tensor bound = b.abs() * rtol + atol;
  return logical_or(close, logical_and(isfinite(diff), diff.le(bound)));
}

Tensor isin(const Tensor& elements, const Tensor& test_elements, bool assume_unique, bool invert) {
  (void)assume_unique;
  check_not_complex("isin", elements);
  check_not_complex("isin", test_elements);
  NoGradGuard no_grad;
  const ScalarType dt = result_type(elements, test_elements);
  Tensor e = elements.to(dt), t = std::get<0>(sort(test_elements.to(dt).flatten()));
  Tensor r;
  if (t.numel() == 0) {
    r = zeros_like(elements, kBool);
  } else {
    // The first position of each element in the sorted test set; a hit when the value there equals
    // it.
    Tensor pos = searchsorted(t, e.contiguous()).clamp_max(t.numel() - 1);
    r = t.index_select(0, pos.flatten()).view(e.sizes()).eq(e);
  }
  return invert ? logical_not(r) : r;
}
Tensor isin(const Tensor& elements, const Scalar& test_element, bool assume_unique, bool invert) {
  (void)assume_unique;
  check_not_complex("isin", elements);
  return invert ? elements.ne(test_element) : elements.eq(test_element);
}
Tensor isin(const Scalar& element, const Tensor& test_elements, bool assume_unique, bool invert) {
  (void)assume_unique;
  check_not_complex("isin", test_elements);
  Tensor r = test_elements.eq(element).any();
  return invert ? logical_not(r) : r;
}

}  // namespace brasa
