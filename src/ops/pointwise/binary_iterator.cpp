#include "brasa/core/error.h"
#include "ops/pointwise/binary.h"

namespace brasa::ops {

namespace {
// The flat path's result dtype for operands of dtype dt (nullopt: the op refuses or converts).
std::optional<ScalarType> flat_result_dtype(BinaryKind kind, ScalarType dt, const Scalar& alpha) {
  // Anything the full path would refuse or convert goes there (it also raises the errors).
  const bool floating = is_floating_type(dt);
  if ((alpha.isFloatingPoint() && !floating) || (alpha.isBoolean() && dt != kBool) ||
      alpha.isComplex() || is_complex_type(dt))
    return std::nullopt;
  switch (kind) {
    case BinaryKind::Arith: return dt;
    case BinaryKind::Subtract: return dt == kBool ? std::nullopt : std::optional(dt);
    case BinaryKind::TrueDivide:
    case BinaryKind::Float:
    case BinaryKind::FloatOnly: return floating ? std::optional(dt) : std::nullopt;
    case BinaryKind::Compare:
    case BinaryKind::Logical: return kBool;
    case BinaryKind::Bitwise: return is_integral_type(dt, true) ? std::optional(dt) : std::nullopt;
  }
  return std::nullopt;
}

int category(ScalarType t) {
  return t == kBool ? 0 : is_integral_type(t, false) ? 1 : is_complex_type(t) ? 3 : 2;
}
}  // namespace

std::optional<ScalarType> flat_binary_dtype(BinaryKind kind, const Tensor& a, const Tensor& b,
                                            const Scalar& alpha, const Tensor& out) {
  if (out.defined() || !a.defined() || !b.defined()) return std::nullopt;
  const TensorImpl* ia = a.unsafeGetTensorImpl();
  const TensorImpl* ib = b.unsafeGetTensorImpl();
  const ScalarType dt = ia->dtype();
  if (ib->dtype() != dt || !ia->is_contiguous() || !ib->is_contiguous() || !ia->device().is_cpu() ||
      !ib->device().is_cpu() || !ia->sizes().equals(ib->sizes()))
    return std::nullopt;
  return flat_result_dtype(kind, dt, alpha);
}

std::optional<ScalarType> flat_scalar_binary_dtype(BinaryKind kind, const Tensor& a,
                                                   const Tensor& b, const Scalar& alpha,
                                                   const Tensor& out) {
  if (out.defined() || !a.defined() || !b.defined()) return std::nullopt;
  const TensorImpl* ia = a.unsafeGetTensorImpl();
  const TensorImpl* ib = b.unsafeGetTensorImpl();
  if (ia->numel() != 1 || ib->dim() != 0 || !ia->device().is_cpu() || !ib->device().is_cpu() ||
      category(ib->dtype()) > category(ia->dtype()))
    return std::nullopt;
  return flat_result_dtype(kind, ia->dtype(), alpha);
}

cpu::TensorIterator make_binary_iterator(const char* name, BinaryKind kind, const Tensor& a,
                                         const Tensor& b, const Scalar& alpha, const Tensor& out) {
  BRASA_CHECK(a.defined() && b.defined(), name, ": got an undefined tensor");
  BRASA_CHECK_TYPE(kind != BinaryKind::Subtract || (a.dtype() != kBool && b.dtype() != kBool), name,
                   ": subtraction with a bool tensor is not supported; to invert a mask use ~ or "
                   "logical_not() instead (got ",
                   a.dtype(), " and ", b.dtype(), ")");
  cpu::TensorIteratorConfig cfg(name);
  cfg.add_output(out).add_input(a).add_input(b);
  switch (kind) {
    case BinaryKind::Arith:
    case BinaryKind::Subtract:
    case BinaryKind::FloatOnly: break;
    case BinaryKind::TrueDivide:
    case BinaryKind::Float: cfg.promote_integer_inputs_to_float(true); break;
    case BinaryKind::Compare:
    case BinaryKind::Logical: cfg.output_dtype(kBool).check_safe_cast(false); break;
    case BinaryKind::Bitwise: break;
  }
  cpu::TensorIterator it = cfg.build();
  const ScalarType dt = it.common_dtype();
  BRASA_CHECK_TYPE(!alpha.isComplex() || is_complex_type(dt), name,
                   ": for non-complex input tensors, argument alpha must not be a complex number "
                   "(inputs ",
                   a.dtype(), " and ", b.dtype(), ")");
  BRASA_CHECK_TYPE(!alpha.isFloatingPoint() || is_floating_type(dt) || is_complex_type(dt), name,
                   ": for integral input tensors, argument alpha must not be a floating point "
                   "number (inputs ",
                   a.dtype(), " and ", b.dtype(), ")");
  BRASA_CHECK_TYPE(!alpha.isBoolean() || dt == kBool, name,
                   ": a boolean alpha is only supported for boolean results, got ", dt);
  BRASA_CHECK_TYPE(kind != BinaryKind::FloatOnly || is_floating_type(dt), name,
                   ": only floating dtypes are supported, got ", dt);
  if (kind == BinaryKind::Bitwise)
    BRASA_CHECK_TYPE(is_integral_type(it.common_dtype(), true), name,
                     ": only integral and bool dtypes are supported, got ", it.common_dtype());
  return it;
}

}  // namespace brasa::ops
