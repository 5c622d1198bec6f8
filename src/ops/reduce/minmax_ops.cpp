// amax, amin, max, min, argmax and argmin (loops in backends/cpu/kernels/reduce_kernels*.cpp).
#include "brasa/core/error.h"
#include "brasa/ops/reduce.h"
#include "dispatch/node_name.h"
#include "ops/reduce/reduce_common.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

BRASA_DEFINE_OP(amax_op)
BRASA_DEFINE_OP(amin_op)
BRASA_DEFINE_OP(max_dim_op)
BRASA_DEFINE_OP(min_dim_op)
BRASA_DEFINE_OP(argmax_op)
BRASA_DEFINE_OP(argmin_op)

namespace {
template <ReduceRunner run>
Tensor amax_kernel(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  cpu::DimMask mask = cpu::make_dim_mask(dim, self.dim(), "amax");
  check_nonempty_reduction(self, mask, dim.empty(), "amax()");
  return run(amax_stub, "amax", self, mask, keepdim, self.dtype(), out, {});
}
template <ReduceRunner run>
Tensor amin_kernel(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  cpu::DimMask mask = cpu::make_dim_mask(dim, self.dim(), "amin");
  check_nonempty_reduction(self, mask, dim.empty(), "amin()");
  return run(amin_stub, "amin", self, mask, keepdim, self.dtype(), out, {});
}
template <IndexReduceRunner run>
std::tuple<Tensor, Tensor> max_dim_kernel(const Tensor& self, int64_t dim, bool keepdim) {
  cpu::DimMask mask = cpu::make_dim_mask(dim, self.dim(), "max");
  check_nonempty_reduction(self, mask, false, "max()");
  return run(max_dim_stub, "max", self, mask, keepdim, true);
}
template <IndexReduceRunner run>
std::tuple<Tensor, Tensor> min_dim_kernel(const Tensor& self, int64_t dim, bool keepdim) {
  cpu::DimMask mask = cpu::make_dim_mask(dim, self.dim(), "min");
  check_nonempty_reduction(self, mask, false, "min()");
  return run(min_dim_stub, "min", self, mask, keepdim, true);
}
template <IndexReduceRunner run>
Tensor arg_kernel(cpu::DispatchStub<ReduceKernel>& stub, const char* op, const Tensor& self,
                  std::optional<int64_t> dim, bool keepdim) {
  BRASA_CHECK_TYPE(self.dtype() != kBool, op, ": not implemented for dtype Bool");
  cpu::DimMask mask =
      dim ? cpu::make_dim_mask(*dim, self.dim(), op) : cpu::make_dim_mask({}, self.dim(), op);
  check_nonempty_reduction(self, mask, !dim, op);
  return std::get<1>(run(stub, op, self, mask, keepdim, false));
}
template <IndexReduceRunner run>
Tensor argmax_kernel(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_kernel<run>(argmax_stub, "argmax", self, dim, keepdim);
}
template <IndexReduceRunner run>
Tensor argmin_kernel(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_kernel<run>(argmin_stub, "argmin", self, dim, keepdim);
}
}  // namespace

BRASA_REGISTER_KERNEL(amax_op, amax_kernel<run_reduction>, CPU)
BRASA_REGISTER_KERNEL(amax_op, amax_kernel<reduce_meta>, Meta)
BRASA_REGISTER_KERNEL(amin_op, amin_kernel<run_reduction>, CPU)
BRASA_REGISTER_KERNEL(amin_op, amin_kernel<reduce_meta>, Meta)
BRASA_REGISTER_KERNEL(max_dim_op, max_dim_kernel<run_index_reduction>, CPU)
BRASA_REGISTER_KERNEL(max_dim_op, max_dim_kernel<reduce_index_meta>, Meta)
BRASA_REGISTER_KERNEL(min_dim_op, min_dim_kernel<run_index_reduction>, CPU)
BRASA_REGISTER_KERNEL(min_dim_op, min_dim_kernel<reduce_index_meta>, Meta)
BRASA_REGISTER_KERNEL(argmax_op, argmax_kernel<run_index_reduction>, CPU)
BRASA_REGISTER_KERNEL(argmax_op, argmax_kernel<reduce_index_meta>, Meta)
BRASA_REGISTER_KERNEL(argmin_op, argmin_kernel<run_index_reduction>, CPU)
BRASA_REGISTER_KERNEL(argmin_op, argmin_kernel<reduce_index_meta>, Meta)

}  // namespace brasa::ops

namespace brasa {
namespace {
const Tensor kNoOut;
void check_full(const Tensor& self, const char* op) {
  BRASA_CHECK(self.numel() != 0, op,
              ": Expected reduction dim to be specified for input.numel() == 0. Specify the "
              "reduction dim with the 'dim' argument.");
}
}  // namespace

Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return ops::amax_op().call(self, dim, keepdim, kNoOut);
}
Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return ops::amin_op().call(self, dim, keepdim, kNoOut);
}
Tensor& amax_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim) {
  ops::amax_op().call(self, dim, keepdim, out);
  return out;
}
Tensor& amin_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim) {
  ops::amin_op().call(self, dim, keepdim, out);
  return out;
}
Tensor max(const Tensor& self) {
  check_full(self, "max()");
  autograd::NodeName node("MaxBackward1");  // Note [Overload node names]
  return ops::amax_op().call(self, {}, false, kNoOut);
}
Tensor min(const Tensor& self) {
  check_full(self, "min()");
  autograd::NodeName node("MinBackward1");
  return ops::amin_op().call(self, {}, false, kNoOut);
}
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  return ops::max_dim_op().call(self, dim, keepdim);
}
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  return ops::min_dim_op().call(self, dim, keepdim);
}
Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return ops::argmax_op().call(self, dim, keepdim);
}
Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return ops::argmin_op().call(self, dim, keepdim);
}

Tensor Tensor::amax(IntArrayRef dim, bool keepdim) const {
  return brasa::amax(*this, dim, keepdim);
}
Tensor Tensor::amin(IntArrayRef dim, bool keepdim) const {
  return brasa::amin(*this, dim, keepdim);
}
Tensor Tensor::max() const { return brasa::max(*this); }
Tensor Tensor::min() const { return brasa::min(*this); }
std::tuple<Tensor, Tensor> Tensor::max(int64_t dim, bool keepdim) const {
  return brasa::max(*this, dim, keepdim);
}
std::tuple<Tensor, Tensor> Tensor::min(int64_t dim, bool keepdim) const {
  return brasa::min(*this, dim, keepdim);
}
Tensor Tensor::argmax(std::optional<int64_t> dim, bool keepdim) const {
  return brasa::argmax(*this, dim, keepdim);
}
Tensor Tensor::argmin(std::optional<int64_t> dim, bool keepdim) const {
  return brasa::argmin(*this, dim, keepdim);
}

}  // namespace brasa
