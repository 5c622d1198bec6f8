// Dispatched ops, free functions and Tensor methods of the unary pointwise family
// (the list is in unary_ops.h; the loops in backends/cpu/kernels/unary_kernels*.cpp).
#include "ops/pointwise/unary_ops.h"

#include <cstring>

#include "brasa/core/error.h"
#include "brasa/ops/pointwise.h"

namespace brasa::ops {

cpu::TensorIterator make_unary_iterator(const char* name, UnaryKind kind, const Tensor& self,
                                        const Tensor& out) {
  BRASA_CHECK(self.defined(), name, ": got an undefined tensor");
  cpu::TensorIteratorConfig cfg(name);
  cfg.add_output(out).add_input(self);
  switch (kind) {
    case UnaryKind::Float: cfg.promote_integer_inputs_to_float(true); break;
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

#define BRASA_DEFINE_UNARY(name, kind)                                               \
  BRASA_DEFINE_STUB(name##_stub, UnaryKernel);                                       \
  BRASA_DEFINE_OP(name##_op, #name, #name "(Tensor self, Tensor? out) -> Tensor",    \
                  Tensor(const Tensor&, const Tensor&))                              \
  static Tensor name##_kernel(const Tensor& self, const Tensor& out) {               \
    cpu::TensorIterator it = make_unary_iterator(#name, UnaryKind::kind, self, out); \
    if (!it.is_meta()) name##_stub(it);                                              \
    it.finish();                                                                     \
    return it.output();                                                              \
  }                                                                                  \
  BRASA_REGISTER_KERNEL(name##_op, name##_kernel, CPU, Meta)
BRASA_FORALL_UNARY_OPS(BRASA_DEFINE_UNARY)
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
BRASA_FORALL_UNARY_FLOAT_OPS(BRASA_UNARY_API)
BRASA_UNARY_API(neg, Numeric)
BRASA_UNARY_API(abs, Numeric)
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
