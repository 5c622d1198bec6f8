// Dispatched ops, free functions and Tensor methods of the binary pointwise family
// (the list is in binary_ops.h; the loops in backends/cpu/kernels/binary_kernels.cpp).
#include "ops/pointwise/binary_ops.h"

#include "brasa/core/error.h"
#include "brasa/ops/pointwise.h"
#include "dispatch/node_name.h"
#include "ops/meta.h"

namespace brasa::ops {
namespace {
// Runs the flat copy of a kernel (Note [Flat fast path]) writing r = op(a, b).
void run_flat(cpu::DispatchStub<BinaryKernel>& stub, const Tensor& r, const Tensor& a, void* b,
              const Scalar& alpha) {
  char* data[3] = {static_cast<char*>(r.data_ptr()), static_cast<char*>(a.data_ptr()),
                   static_cast<char*>(b)};
  const int64_t items[3] = {static_cast<int64_t>(r.itemsize()), static_cast<int64_t>(a.itemsize()),
                            static_cast<int64_t>(a.itemsize())};
  cpu::FlatIterator it(3, data, items, a.numel(), a.dtype(), r.dtype());
  stub(it, alpha);
}

// Note [Scalar fast path]: a one-element tensor with a Python-style scalar (x * 2 on the tiny
// tensors of scalar code and autograd tests) skips the iterator: the scalar is converted into a
// stack buffer and both run through the flat kernel with n = 1.
Tensor run_flat_scalar(cpu::DispatchStub<BinaryKernel>& stub, ScalarType out_dtype, const Tensor& a,
                       const Tensor& b, const Scalar& alpha) {
  alignas(16) char buf[16];
  detail::store_scalar(b.item(), a.dtype(), buf);
  Tensor r = detail::empty_generic(a.sizes(), out_dtype, a.device());
  run_flat(stub, r, a, buf, alpha);
  return r;
}
}  // namespace

// The meta function of every binary op (Note [Meta functions]): the iterator's shape and dtype.
template <const char* name, BinaryKind kind>
Tensor binary_meta(const Tensor& a, const Tensor& b, const Scalar& alpha, const Tensor& out) {
  return iterator_meta(make_binary_iterator(name, kind, a, b, alpha, out));
}

// The CPU kernel of every binary op: the flat paths when they apply, else the iterator.
template <const char* name, BinaryKind kind, cpu::DispatchStub<BinaryKernel>& stub>
Tensor binary_kernel(const Tensor& a, const Tensor& b, const Scalar& alpha, const Tensor& out) {
  if (auto dt = flat_binary_dtype(kind, a, b, alpha, out)) {
    Tensor r = detail::empty_generic(a.sizes(), *dt, a.device());
    run_flat(stub, r, a, b.data_ptr(), alpha);
    return r;
  }
  if (auto dt = flat_scalar_binary_dtype(kind, a, b, alpha, out))
    return run_flat_scalar(stub, *dt, a, b, alpha);
  cpu::TensorIterator it = make_binary_iterator(name, kind, a, b, alpha, out);
  stub(it, alpha);
  it.finish();
  return it.output();
}

// Defines op `var` (declared in binary_ops.h) and its stubs, and registers its kernels.
#define BRASA_DEFINE_BINARY(var, kind, stub)                                                 \
  BRASA_DEFINE_STUB(stub, BinaryKernel);                                                     \
  BRASA_DEFINE_OP(var)                                                                       \
  BRASA_REGISTER_KERNEL(var, (binary_kernel<var##_decl::name, BinaryKind::kind, stub>), CPU) \
  BRASA_REGISTER_KERNEL(var, (binary_meta<var##_decl::name, BinaryKind::kind>), Meta)
BRASA_DEFINE_BINARY(add_op, Arith, add_stub)
BRASA_DEFINE_BINARY(sub_op, Subtract, sub_stub)
BRASA_DEFINE_BINARY(mul_op, Arith, mul_stub)
BRASA_DEFINE_BINARY(div_op, TrueDivide, div_stub)
BRASA_DEFINE_BINARY(div_trunc_op, Arith, div_trunc_stub)
BRASA_DEFINE_BINARY(floor_divide_op, Arith, floor_divide_stub)
BRASA_DEFINE_BINARY(remainder_op, Arith, remainder_stub)
BRASA_DEFINE_BINARY(fmod_op, Arith, fmod_stub)
BRASA_DEFINE_STUB(pow_stub, BinaryKernel);
BRASA_DEFINE_OP(pow_op)
// pow refuses an integral base raised to a negative integral Python-style scalar (a wrapped number:
// C++'s pow(t, -1), Python's t ** -1 or t.pow(-1)), as PyTorch does: the result would be 0 for
// |base| > 1, which is almost never what was meant. A tensor exponent is not checked.
Tensor pow_kernel(const Tensor& a, const Tensor& b, const Scalar& alpha, const Tensor& out) {
  BRASA_CHECK(!(is_integral_type(a.dtype(), true) && b.unsafeGetTensorImpl()->is_wrapped_number() &&
                is_integral_type(b.dtype(), false) && b.item().toLong() < 0),
              "pow: integers to negative integer powers are not allowed (base dtype ", a.dtype(),
              ", exponent ", b.item(), ")");
  return binary_kernel<pow_op_decl::name, BinaryKind::Arith, pow_stub>(a, b, alpha, out);
}
BRASA_REGISTER_KERNEL(pow_op, pow_kernel, CPU)
BRASA_REGISTER_KERNEL(pow_op, (binary_meta<pow_op_decl::name, BinaryKind::Arith>), Meta)
BRASA_DEFINE_BINARY(atan2_op, Float, atan2_stub)
BRASA_DEFINE_BINARY(hypot_op, FloatOnly, hypot_stub)
BRASA_DEFINE_BINARY(maximum_op, Arith, maximum_stub)
BRASA_DEFINE_BINARY(minimum_op, Arith, minimum_stub)
BRASA_DEFINE_BINARY(threshold_backward_op, Arith, threshold_backward_stub)
BRASA_DEFINE_BINARY(eq_op, Compare, eq_stub)
BRASA_DEFINE_BINARY(ne_op, Compare, ne_stub)
BRASA_DEFINE_BINARY(lt_op, Compare, lt_stub)
BRASA_DEFINE_BINARY(le_op, Compare, le_stub)
BRASA_DEFINE_BINARY(gt_op, Compare, gt_stub)
BRASA_DEFINE_BINARY(ge_op, Compare, ge_stub)
BRASA_DEFINE_BINARY(logical_and_op, Logical, logical_and_stub)
BRASA_DEFINE_BINARY(logical_or_op, Logical, logical_or_stub)
BRASA_DEFINE_BINARY(logical_xor_op, Logical, logical_xor_stub)
BRASA_DEFINE_BINARY(bitwise_and_op, Bitwise, bitwise_and_stub)
BRASA_DEFINE_BINARY(bitwise_or_op, Bitwise, bitwise_or_stub)
BRASA_DEFINE_BINARY(bitwise_xor_op, Bitwise, bitwise_xor_stub)
#undef BRASA_DEFINE_BINARY

}  // namespace brasa::ops

namespace brasa {
namespace {
const Tensor kNoOut;
inline Tensor wrap(const Scalar& s) { return detail::wrap_scalar(s); }
}  // namespace

// ---- add / sub (with alpha) ----
Tensor add(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  return ops::add_op().call(a, b, alpha, kNoOut);
}
Tensor add(const Tensor& a, const Scalar& b, const Scalar& alpha) {
  autograd::NodeName node("AddBackward1");
  return ops::add_op().call(a, wrap(b), alpha, kNoOut);
}
Tensor& add_out(Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha) {
  ops::add_op().call(a, b, alpha, out);
  return out;
}
Tensor sub(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  return ops::sub_op().call(a, b, alpha, kNoOut);
}
Tensor sub(const Tensor& a, const Scalar& b, const Scalar& alpha) {
  autograd::NodeName node("SubBackward1");
  return sub(a, wrap(b), alpha);
}
Tensor& sub_out(Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha) {
  ops::sub_op().call(a, b, alpha, out);
  return out;
}
Tensor subtract(const Tensor& a, const Tensor& b, const Scalar& alpha) { return sub(a, b, alpha); }
Tensor rsub(const Tensor& a, const Tensor& b, const Scalar& alpha) {
  autograd::NodeName node("RsubBackward0");
  return sub(b, a, alpha);
}
Tensor rsub(const Tensor& a, const Scalar& b, const Scalar& alpha) {
  autograd::NodeName node("RsubBackward1");
  return sub(wrap(b), a, alpha);
}

Tensor Tensor::add(const Tensor& o, const Scalar& alpha) const {
  return brasa::add(*this, o, alpha);
}
Tensor Tensor::add(const Scalar& o, const Scalar& alpha) const {
  return brasa::add(*this, o, alpha);
}
const Tensor& Tensor::add_(const Tensor& o, const Scalar& alpha) const {
  ops::add_op().call(*this, o, alpha, *this);
  return *this;
}
const Tensor& Tensor::add_(const Scalar& o, const Scalar& alpha) const {
  autograd::NodeName node("AddBackward1");
  return add_(wrap(o), alpha);
}
Tensor Tensor::sub(const Tensor& o, const Scalar& alpha) const {
  return brasa::sub(*this, o, alpha);
}
Tensor Tensor::sub(const Scalar& o, const Scalar& alpha) const {
  return brasa::sub(*this, o, alpha);
}
const Tensor& Tensor::sub_(const Tensor& o, const Scalar& alpha) const {
  ops::sub_op().call(*this, o, alpha, *this);
  return *this;
}
const Tensor& Tensor::sub_(const Scalar& o, const Scalar& alpha) const {
  autograd::NodeName node("SubBackward1");
  return sub_(wrap(o), alpha);
}

// ---- div with rounding modes ----
namespace {
ops::BinaryOp& div_variant(std::optional<std::string_view> mode) {
  if (!mode) return ops::div_op();
  if (*mode == "trunc") return ops::div_trunc_op();
  if (*mode == "floor") return ops::floor_divide_op();
  BRASA_THROW(ValueError,
              "div: expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
              *mode, "'");
}
}  // namespace
// Their nodes: DivBackward0 (Tensor), 1 (Scalar), 2 (Tensor, mode), 3 (Scalar, mode).
const char* div_node(bool scalar, const std::optional<std::string_view>& mode) {
  if (!mode) return scalar ? "DivBackward1" : "DivBackward0";
  return scalar ? "DivBackward3" : "DivBackward2";
}
Tensor div(const Tensor& a, const Tensor& b, std::optional<std::string_view> mode) {
  autograd::NodeName node(div_node(false, mode));
  return div_variant(mode).call(a, b, 1, kNoOut);
}
Tensor div(const Tensor& a, const Scalar& b, std::optional<std::string_view> mode) {
  autograd::NodeName node(div_node(true, mode));
  return div_variant(mode).call(a, wrap(b), 1, kNoOut);
}
Tensor& div_out(Tensor& out, const Tensor& a, const Tensor& b,
                std::optional<std::string_view> mode) {
  div_variant(mode).call(a, b, 1, out);
  return out;
}
Tensor Tensor::div(const Tensor& o, std::optional<std::string_view> m) const {
  return brasa::div(*this, o, m);
}
Tensor Tensor::div(const Scalar& o, std::optional<std::string_view> m) const {
  return brasa::div(*this, o, m);
}
const Tensor& Tensor::div_(const Tensor& o, std::optional<std::string_view> m) const {
  autograd::NodeName node(div_node(false, m));
  div_variant(m).call(*this, o, 1, *this);
  return *this;
}
const Tensor& Tensor::div_(const Scalar& o, std::optional<std::string_view> m) const {
  autograd::NodeName node(div_node(true, m));
  div_variant(m).call(*this, wrap(o), 1, *this);
  return *this;
}

// ---- the plain binary ops ----
// scalar_node: the node of the Scalar overload (Note [Overload node names]), or nullptr.
#define BRASA_BINARY_API(name, scalar_node)                                                        \
  Tensor name(const Tensor& a, const Tensor& b) { return ops::name##_op().call(a, b, 1, kNoOut); } \
  Tensor name(const Tensor& a, const Scalar& b) {                                                  \
    autograd::NodeName node(scalar_node);                                                          \
    return ops::name##_op().call(a, wrap(b), 1, kNoOut);                                           \
  }                                                                                                \
  Tensor& name##_out(Tensor& out, const Tensor& a, const Tensor& b) {                              \
    ops::name##_op().call(a, b, 1, out);                                                           \
    return out;                                                                                    \
  }                                                                                                \
  Tensor Tensor::name(const Tensor& o) const { return brasa::name(*this, o); }                     \
  Tensor Tensor::name(const Scalar& o) const { return brasa::name(*this, o); }                     \
  const Tensor& Tensor::name##_(const Tensor& o) const {                                           \
    ops::name##_op().call(*this, o, 1, *this);                                                     \
    return *this;                                                                                  \
  }                                                                                                \
  const Tensor& Tensor::name##_(const Scalar& o) const {                                           \
    autograd::NodeName node(scalar_node);                                                          \
    return name##_(wrap(o));                                                                       \
  }
BRASA_BINARY_API(mul, "MulBackward1")
BRASA_BINARY_API(div, "DivBackward1")
BRASA_BINARY_API(remainder, nullptr)
BRASA_BINARY_API(fmod, nullptr)
BRASA_BINARY_API(floor_divide, nullptr)
BRASA_BINARY_API(atan2, nullptr)
BRASA_BINARY_API(hypot, nullptr)
BRASA_BINARY_API(maximum, nullptr)
BRASA_BINARY_API(minimum, nullptr)
BRASA_BINARY_API(eq, nullptr)
BRASA_BINARY_API(ne, nullptr)
BRASA_BINARY_API(lt, nullptr)
BRASA_BINARY_API(le, nullptr)
BRASA_BINARY_API(gt, nullptr)
BRASA_BINARY_API(ge, nullptr)
BRASA_BINARY_API(logical_and, nullptr)
BRASA_BINARY_API(logical_or, nullptr)
BRASA_BINARY_API(logical_xor, nullptr)
BRASA_BINARY_API(bitwise_and, nullptr)
BRASA_BINARY_API(bitwise_or, nullptr)
BRASA_BINARY_API(bitwise_xor, nullptr)
#undef BRASA_BINARY_API

// pow: the kernel refuses integers to negative integral scalar powers (ops::pow_kernel).
Tensor pow(const Tensor& a, const Tensor& b) { return ops::pow_op().call(a, b, 1, kNoOut); }
Tensor pow(const Tensor& a, const Scalar& b) { return ops::pow_op().call(a, wrap(b), 1, kNoOut); }
Tensor& pow_out(Tensor& out, const Tensor& a, const Tensor& b) {
  ops::pow_op().call(a, b, 1, out);
  return out;
}
Tensor Tensor::pow(const Tensor& o) const { return brasa::pow(*this, o); }
Tensor Tensor::pow(const Scalar& o) const { return brasa::pow(*this, o); }
const Tensor& Tensor::pow_(const Tensor& o) const {
  ops::pow_op().call(*this, o, 1, *this);
  return *this;
}
const Tensor& Tensor::pow_(const Scalar& o) const {
  ops::pow_op().call(*this, wrap(o), 1, *this);
  return *this;
}

Tensor multiply(const Tensor& a, const Tensor& b) { return mul(a, b); }
Tensor divide(const Tensor& a, const Tensor& b) { return div(a, b); }
Tensor true_divide(const Tensor& a, const Tensor& b) { return div(a, b); }
Tensor pow(const Scalar& a, const Tensor& b) {
  autograd::NodeName node("PowBackward2");  // pow.Scalar (Python's 2 ** x is pow.Tensor_Tensor)
  return ops::pow_op().call(wrap(a), b, 1, kNoOut);
}
Tensor max(const Tensor& a, const Tensor& b) { return maximum(a, b); }
Tensor min(const Tensor& a, const Tensor& b) { return minimum(a, b); }
Tensor greater(const Tensor& a, const Tensor& b) { return gt(a, b); }
Tensor less(const Tensor& a, const Tensor& b) { return lt(a, b); }

// Scalar on the left: the scalar becomes a wrapped 0-d tensor.
Tensor operator+(const Scalar& a, const Tensor& b) { return add(b, a); }
Tensor operator-(const Scalar& a, const Tensor& b) { return sub(wrap(a), b); }
Tensor operator*(const Scalar& a, const Tensor& b) { return mul(b, a); }
Tensor operator/(const Scalar& a, const Tensor& b) { return div(wrap(a), b); }
Tensor operator%(const Scalar& a, const Tensor& b) { return remainder(wrap(a), b); }
Tensor operator&(const Scalar& a, const Tensor& b) { return bitwise_and(b, a); }
Tensor operator|(const Scalar& a, const Tensor& b) { return bitwise_or(b, a); }
Tensor operator^(const Scalar& a, const Tensor& b) { return bitwise_xor(b, a); }
Tensor operator==(const Scalar& a, const Tensor& b) { return eq(b, a); }
Tensor operator!=(const Scalar& a, const Tensor& b) { return ne(b, a); }
Tensor operator<(const Scalar& a, const Tensor& b) { return gt(b, a); }
Tensor operator<=(const Scalar& a, const Tensor& b) { return ge(b, a); }
Tensor operator>(const Scalar& a, const Tensor& b) { return lt(b, a); }
Tensor operator>=(const Scalar& a, const Tensor& b) { return le(b, a); }

}  // namespace brasa
