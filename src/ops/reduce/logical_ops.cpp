// all, any, count_nonzero, equal and allclose.
#include "brasa/core/error.h"
#include "brasa/ops/math.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "ops/reduce/reduce_common.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(isclose_stub, IscloseKernel);

BRASA_DEFINE_OP(all_op)
BRASA_DEFINE_OP(any_op)
BRASA_DEFINE_OP(count_nonzero_op)
BRASA_DEFINE_OP(allclose_op)

namespace {
// PyTorch keeps uint8 for all/any of uint8 inputs (a legacy of byte masks); bool otherwise.
template <ReduceRunner run>
Tensor logical_reduce(cpu::DispatchStub<ReduceKernel>& stub, const char* op, const Tensor& self,
                      IntArrayRef dim, bool keepdim) {
  cpu::DimMask mask = cpu::make_dim_mask(dim, self.dim(), op);
  ScalarType dt = self.dtype() == kByte ? kByte : kBool;
  return run(stub, op, self, mask, keepdim, dt, {}, {});
}
template <ReduceRunner run>
Tensor all_kernel(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return logical_reduce<run>(all_stub, "all", self, dim, keepdim);
}
template <ReduceRunner run>
Tensor any_kernel(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return logical_reduce<run>(any_stub, "any", self, dim, keepdim);
}
template <ReduceRunner run>
Tensor count_nonzero_kernel(const Tensor& self, IntArrayRef dim) {
  cpu::DimMask mask = cpu::make_dim_mask(dim, self.dim(), "count_nonzero");
  return run(count_nonzero_stub, "count_nonzero", self, mask, false, kLong, {}, {});
}
void check_allclose(const Tensor& self, const Tensor& other) {
  BRASA_CHECK_TYPE(self.dtype() == other.dtype(), "allclose: ", self.dtype(), " did not match ",
                   other.dtype());
}
// The answer is a value computed from data, which meta tensors do not have.
bool allclose_meta(const Tensor& self, const Tensor& other, double, double, bool) {
  check_allclose(self, other);
  BRASA_THROW(NotImplementedError, "allclose: meta tensors have no data to compare");
}
bool allclose_kernel(const Tensor& self, const Tensor& other, double rtol, double atol,
                     bool equal_nan) {
  check_allclose(self, other);
  // Complex inputs compare by the modulus of the difference (isclose's composite), rather than
  // growing the element loop with complex instantiations.
  if (self.is_complex())
    return brasa::all(isclose(self, other, rtol, atol, equal_nan)).item<bool>();
  cpu::TensorIterator it = cpu::TensorIteratorConfig("allclose")
                               .add_output(Tensor())
                               .add_input(self)
                               .add_input(other)
                               .output_dtype(kBool)
                               .check_safe_cast(false)
                               .build();
  isclose_stub(it, rtol, atol, equal_nan);
  return brasa::all(it.output()).item<bool>();
}
}  // namespace

BRASA_REGISTER_KERNEL(all_op, all_kernel<run_reduction>, CPU)
BRASA_REGISTER_KERNEL(all_op, all_kernel<reduce_meta>, Meta)
BRASA_REGISTER_KERNEL(any_op, any_kernel<run_reduction>, CPU)
BRASA_REGISTER_KERNEL(any_op, any_kernel<reduce_meta>, Meta)
BRASA_REGISTER_KERNEL(count_nonzero_op, count_nonzero_kernel<run_reduction>, CPU)
BRASA_REGISTER_KERNEL(count_nonzero_op, count_nonzero_kernel<reduce_meta>, Meta)
BRASA_REGISTER_KERNEL(allclose_op, allclose_kernel, CPU)
BRASA_REGISTER_KERNEL(allclose_op, allclose_meta, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor all(const Tensor& self) { return ops::all_op().call(self, {}, false); }
Tensor all(const Tensor& self, int64_t dim, bool keepdim) {
  return ops::all_op().call(self, dim, keepdim);
}
Tensor any(const Tensor& self) { return ops::any_op().call(self, {}, false); }
Tensor any(const Tensor& self, int64_t dim, bool keepdim) {
  return ops::any_op().call(self, dim, keepdim);
}
Tensor count_nonzero(const Tensor& self, std::optional<int64_t> dim) {
  if (!dim) return ops::count_nonzero_op().call(self, {});
  return ops::count_nonzero_op().call(self, *dim);
}
Tensor count_nonzero(const Tensor& self, IntArrayRef dim) {
  return ops::count_nonzero_op().call(self, dim);
}
bool equal(const Tensor& self, const Tensor& other) {
  BRASA_CHECK(self.defined() && other.defined(), "equal: got an undefined tensor");
  BRASA_CHECK_TYPE(self.device() == other.device(),
                   "equal: expected both tensors on one device, got ", self.device(), " and ",
                   other.device());
  if (!self.sizes().equals(other.sizes())) return false;
  return all(eq(self, other)).item<bool>();
}
bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  return ops::allclose_op().call(self, other, rtol, atol, equal_nan);
}

Tensor Tensor::all() const { return brasa::all(*this); }
Tensor Tensor::all(int64_t dim, bool keepdim) const { return brasa::all(*this, dim, keepdim); }
Tensor Tensor::any() const { return brasa::any(*this); }
Tensor Tensor::any(int64_t dim, bool keepdim) const { return brasa::any(*this, dim, keepdim); }
Tensor Tensor::count_nonzero(std::optional<int64_t> dim) const {
  return brasa::count_nonzero(*this, dim);
}
Tensor Tensor::count_nonzero(IntArrayRef dim) const { return brasa::count_nonzero(*this, dim); }
bool Tensor::equal(const Tensor& other) const { return brasa::equal(*this, other); }
bool Tensor::allclose(const Tensor& other, double rtol, double atol, bool equal_nan) const {
  return brasa::allclose(*this, other, rtol, atol, equal_nan);
}

}  // namespace brasa
