// Dispatched ops, free functions and Tensor methods of the unary pointwise family
// (the list is in unary_ops.h; the loops in backends/cpu/kernels/unary_kernels*.cpp).
#include "ops/pointwise/unary_ops.h"

#include <cstring>

#include "brasa/core/error.h"
#include "brasa/ops/complex.h"
#include "brasa/ops/pointwise.h"
#include "ops/meta.h"

namespace brasa::ops {

cpu::TensorIterator make_unary_iterator(const char* name, UnaryKind kind, const Tensor& self,
                                        const Tensor& out) {
  BRASA_CHECK(self.defined(), name, ": got an undefined tensor");
  cpu::TensorIteratorConfig cfg(name);
  cfg.add_output(out).add_input(self);
  switch (kind) {
    case UnaryKind::Float: cfg.promote_integer_inputs_to_float(true); break;
    case UnaryKind::Abs:
      if (self.is_complex()) {
        const ScalarType dt = to_real_value_type(self.dtype());
        BRASA_CHECK_TYPE(!out.defined() || out.dtype() == dt, name, ": found dtype ", out.dtype(),
                         " for out but expected ", dt);
        cfg.common_dtype(self.dtype()).output_dtype(dt).check_safe_cast(false);
        break;
      }
      [[fallthrough]];
    case UnaryKind::Numeric:
      if (self.dtype() == kBool) {
        const char* hint = std::strcmp(name, "neg") == 0
                               ? "; to invert a mask use the ~ operator or logical_not()"
                               : "";
        BRASA_THROW(TypeError, name, ": bool tensors are not supported", hint);
      }
      [[fallthrough]];
    case UnaryKind::Same:
    case UnaryKind::Square: {
      ScalarType dt = kind == UnaryKind::Square && self.dtype() == kBool ? kLong : self.dtype();
      BRASA_CHECK_TYPE(!out.defined() || out.dtype() == dt, name, ": found dtype ", out.dtype(),
                       " for out but expected ", dt);
      cfg.common_dtype(dt);
      break;
    }
    case UnaryKind::Predicate: cfg.output_dtype(kBool); break;
    case UnaryKind::Logical: cfg.output_dtype(kBool).check_safe_cast(false); break;
  }
  return cfg.build();
}

// The meta function of every unary op (Note [Meta functions]): the iterator's shape and dtype.
template <const char* name, UnaryKind kind>
Tensor unary_meta(const Tensor& self, const Tensor& out) {
  return iterator_meta(make_unary_iterator(name, kind, self, out));
}

// The CPU kernel of every unary op.
template <const char* name, UnaryKind kind, cpu::DispatchStub<UnaryKernel>& stub>
Tensor unary_kernel(const Tensor& self, const Tensor& out) {
  cpu::TensorIterator it = make_unary_iterator(name, kind, self, out);
  stub(it);
  it.finish();
  return it.output();
}

// Defines op `var` (declared in unary_ops.h) and its stub, and registers its kernels.
#define BRASA_DEFINE_UNARY(var, kind, stub)                                                \
  BRASA_DEFINE_STUB(stub, UnaryKernel);                                                    \
  BRASA_DEFINE_OP(var)                                                                     \
  BRASA_REGISTER_KERNEL(var, (unary_kernel<var##_decl::name, UnaryKind::kind, stub>), CPU) \
  BRASA_REGISTER_KERNEL(var, (unary_meta<var##_decl::name, UnaryKind::kind>), Meta)
BRASA_DEFINE_UNARY(reciprocal_op, Float, reciprocal_stub)
BRASA_DEFINE_UNARY(exp_op, Float, exp_stub)
BRASA_DEFINE_UNARY(exp2_op, Float, exp2_stub)
BRASA_DEFINE_UNARY(expm1_op, Float, expm1_stub)
BRASA_DEFINE_UNARY(log_op, Float, log_stub)
BRASA_DEFINE_UNARY(log2_op, Float, log2_stub)
BRASA_DEFINE_UNARY(log10_op, Float, log10_stub)
BRASA_DEFINE_UNARY(log1p_op, Float, log1p_stub)
BRASA_DEFINE_UNARY(sqrt_op, Float, sqrt_stub)
BRASA_DEFINE_UNARY(rsqrt_op, Float, rsqrt_stub)
BRASA_DEFINE_UNARY(sin_op, Float, sin_stub)
BRASA_DEFINE_UNARY(cos_op, Float, cos_stub)
BRASA_DEFINE_UNARY(tan_op, Float, tan_stub)
BRASA_DEFINE_UNARY(asin_op, Float, asin_stub)
BRASA_DEFINE_UNARY(acos_op, Float, acos_stub)
BRASA_DEFINE_UNARY(atan_op, Float, atan_stub)
BRASA_DEFINE_UNARY(sinh_op, Float, sinh_stub)
BRASA_DEFINE_UNARY(cosh_op, Float, cosh_stub)
BRASA_DEFINE_UNARY(tanh_op, Float, tanh_stub)
BRASA_DEFINE_UNARY(sigmoid_op, Float, sigmoid_stub)
BRASA_DEFINE_UNARY(erf_op, Float, erf_stub)
BRASA_DEFINE_UNARY(erfinv_op, Float, erfinv_stub)
BRASA_DEFINE_UNARY(neg_op, Numeric, neg_stub)
BRASA_DEFINE_UNARY(abs_op, Abs, abs_stub)
BRASA_DEFINE_UNARY(conj_physical_op, Same, conj_physical_stub)
BRASA_DEFINE_UNARY(sign_op, Same, sign_stub)
BRASA_DEFINE_UNARY(square_op, Square, square_stub)
BRASA_DEFINE_UNARY(floor_op, Numeric, floor_stub)
BRASA_DEFINE_UNARY(ceil_op, Numeric, ceil_stub)
BRASA_DEFINE_UNARY(round_op, Numeric, round_stub)
BRASA_DEFINE_UNARY(trunc_op, Numeric, trunc_stub)
BRASA_DEFINE_UNARY(frac_op, Numeric, frac_stub)
BRASA_DEFINE_UNARY(relu_op, Numeric, relu_stub)
BRASA_DEFINE_UNARY(bitwise_not_op, Same, bitwise_not_stub)
BRASA_DEFINE_UNARY(logical_not_op, Logical, logical_not_stub)
BRASA_DEFINE_UNARY(isnan_op, Predicate, isnan_stub)
BRASA_DEFINE_UNARY(isinf_op, Predicate, isinf_stub)
BRASA_DEFINE_UNARY(isfinite_op, Predicate, isfinite_stub)
#undef BRASA_DEFINE_UNARY

}  // namespace brasa::ops

namespace brasa {
namespace {
const Tensor kNoOut;
}  // namespace

#define BRASA_UNARY_API(name, kind)                                               \
  Tensor name(const Tensor& self) { return ops::name##_op().call(self, kNoOut); } \
  Tensor& name##_out(Tensor& out, const Tensor& self) {                           \
    ops::name##_op().call(self, out);                                             \
    return out;                                                                   \
  }                                                                               \
  Tensor Tensor::name() const { return ops::name##_op().call(*this, kNoOut); }    \
  const Tensor& Tensor::name##_() const {                                         \
    ops::name##_op().call(*this, *this);                                          \
    return *this;                                                                 \
  }
BRASA_UNARY_API(reciprocal, Float)
BRASA_UNARY_API(exp, Float)
BRASA_UNARY_API(exp2, Float)
BRASA_UNARY_API(expm1, Float)
BRASA_UNARY_API(log, Float)
BRASA_UNARY_API(log2, Float)
BRASA_UNARY_API(log10, Float)
BRASA_UNARY_API(log1p, Float)
BRASA_UNARY_API(sqrt, Float)
BRASA_UNARY_API(rsqrt, Float)
BRASA_UNARY_API(sin, Float)
BRASA_UNARY_API(cos, Float)
BRASA_UNARY_API(tan, Float)
BRASA_UNARY_API(asin, Float)
BRASA_UNARY_API(acos, Float)
BRASA_UNARY_API(atan, Float)
BRASA_UNARY_API(sinh, Float)
BRASA_UNARY_API(cosh, Float)
BRASA_UNARY_API(tanh, Float)
BRASA_UNARY_API(sigmoid, Float)
BRASA_UNARY_API(erf, Float)
BRASA_UNARY_API(erfinv, Float)
BRASA_UNARY_API(neg, Numeric)
BRASA_UNARY_API(abs, Abs)
BRASA_UNARY_API(conj_physical, Same)
BRASA_UNARY_API(sign, Same)
BRASA_UNARY_API(square, Square)
BRASA_UNARY_API(floor, Numeric)
BRASA_UNARY_API(ceil, Numeric)
BRASA_UNARY_API(round, Numeric)
BRASA_UNARY_API(trunc, Numeric)
BRASA_UNARY_API(frac, Numeric)
BRASA_UNARY_API(relu, Numeric)
BRASA_UNARY_API(bitwise_not, Same)
BRASA_UNARY_API(logical_not, Logical)
#undef BRASA_UNARY_API

Tensor isnan(const Tensor& self) { return ops::isnan_op().call(self, kNoOut); }
Tensor isinf(const Tensor& self) { return ops::isinf_op().call(self, kNoOut); }
Tensor isfinite(const Tensor& self) { return ops::isfinite_op().call(self, kNoOut); }
Tensor Tensor::isnan() const { return brasa::isnan(*this); }
Tensor Tensor::isinf() const { return brasa::isinf(*this); }
Tensor Tensor::isfinite() const { return brasa::isfinite(*this); }

Tensor negative(const Tensor& self) { return neg(self); }
Tensor& negative_out(Tensor& out, const Tensor& self) { return neg_out(out, self); }
Tensor Tensor::negative() const { return neg(); }
const Tensor& Tensor::negative_() const { return neg_(); }
Tensor absolute(const Tensor& self) { return abs(self); }
Tensor& absolute_out(Tensor& out, const Tensor& self) { return abs_out(out, self); }
Tensor Tensor::absolute() const { return abs(); }
const Tensor& Tensor::absolute_() const { return abs_(); }

}  // namespace brasa
