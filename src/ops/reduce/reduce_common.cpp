#include "ops/reduce/reduce_common.h"

#include <iterator>

#include "backends/cpu/new_tensor_writes.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(sum_stub, ReduceKernel);
BRASA_DEFINE_STUB(prod_stub, ReduceKernel);
BRASA_DEFINE_STUB(mean_stub, ReduceKernel);
BRASA_DEFINE_STUB(amax_stub, ReduceKernel);
BRASA_DEFINE_STUB(amin_stub, ReduceKernel);
BRASA_DEFINE_STUB(max_dim_stub, ReduceKernel);
BRASA_DEFINE_STUB(min_dim_stub, ReduceKernel);
BRASA_DEFINE_STUB(argmax_stub, ReduceKernel);
BRASA_DEFINE_STUB(argmin_stub, ReduceKernel);
BRASA_DEFINE_STUB(var_stub, ReduceKernel);
BRASA_DEFINE_STUB(norm_stub, ReduceKernel);
BRASA_DEFINE_STUB(logsumexp_stub, ReduceKernel);
BRASA_DEFINE_STUB(all_stub, ReduceKernel);
BRASA_DEFINE_STUB(any_stub, ReduceKernel);
BRASA_DEFINE_STUB(count_nonzero_stub, ReduceKernel);

void resize_output(const Tensor& out, IntArrayRef shape, const char* op) {
  if (out.sizes().equals(shape)) return;
  BRASA_CHECK(out.numel() == 0, op, ": expected out= with shape ", shape, " (or no elements), got ",
              out.sizes());
  TensorImpl* impl = out.unsafeGetTensorImpl();
  impl->set_sizes_contiguous(shape);
  size_t need = (impl->storage_offset() + impl->numel()) * impl->itemsize();
  if (!out.is_meta() && need > impl->storage()->nbytes()) {
    BRASA_CHECK(impl->storage()->resizable(), op, ": cannot resize out= over external memory");
    impl->storage()->set_data(impl->storage()->allocator()->allocate(need), need);
  }
}

void check_nonempty_reduction(const Tensor& self, cpu::DimMask mask, bool whole, const char* op) {
  if (self.numel() != 0) return;
  BRASA_CHECK(!whole, op,
              ": Expected reduction dim to be specified for input.numel() == 0. Specify the "
              "reduction dim with the 'dim' argument.");
  for (int64_t d = 0; d < self.dim(); ++d)
    BRASA_CHECK_INDEX(!(mask >> d & 1) || self.size(d) != 0, op, ": Expected reduction dim ", d,
                      " to have non-zero size.");
}

namespace {
// The shape rule shared by every reduction: checks and resizes out=; returns the tensor the loop
// writes, out itself when it has `dtype`, else a fresh one.
Tensor reduction_result(const char* op, const Tensor& self, cpu::DimMask mask, bool keepdim,
                        ScalarType dtype, const Tensor& out) {
  BRASA_CHECK(self.defined(), op, ": got an undefined tensor");
  DimVector shape = cpu::reduced_shape(self.sizes(), mask, keepdim);
  if (out.defined()) {
    BRASA_CHECK_TYPE(out.device() == self.device(), op, ": expected out= on ", self.device(),
                     ", got ", out.device());
    resize_output(out, shape, op);
    if (out.dtype() == dtype) return out;
  }
  return detail::empty_generic(shape, dtype, self.device());
}

// Hands a written result back through out= (copied when it was a temporary of another dtype).
Tensor finish_reduction(const Tensor& result, const Tensor& out) {
  if (!out.defined()) return result;
  if (!result.is_same(out))
    out.copy_(result);
  else
    cpu::count_write(out);
  return out;
}

// Values (when wanted) and int64 indices of an index reduction.
std::tuple<Tensor, Tensor> index_reduction_results(const char* op, const Tensor& self,
                                                   cpu::DimMask mask, bool keepdim,
                                                   bool want_values) {
  BRASA_CHECK(self.defined(), op, ": got an undefined tensor");
  DimVector shape = cpu::reduced_shape(self.sizes(), mask, keepdim);
  Tensor values;
  if (want_values) values = detail::empty_generic(shape, self.dtype(), self.device());
  return {values, detail::empty_generic(shape, kLong, self.device())};
}
}  // namespace

Tensor reduce_meta(cpu::DispatchStub<ReduceKernel>&, const char* op, const Tensor& self,
                   cpu::DimMask mask, bool keepdim, ScalarType dtype, const Tensor& out,
                   const ReduceParams&) {
  return finish_reduction(reduction_result(op, self, mask, keepdim, dtype, out), out);
}

Tensor run_reduction(cpu::DispatchStub<ReduceKernel>& stub, const char* op, const Tensor& self,
                     cpu::DimMask mask, bool keepdim, ScalarType dtype, const Tensor& out,
                     const ReduceParams& params) {
  Tensor result = reduction_result(op, self, mask, keepdim, dtype, out);
  if (result.numel() > 0) {
    Tensor outs[] = {result};
    stub(cpu::ReduceIter(self, ArrayRef<Tensor>(outs, std::size(outs)), mask, keepdim, false),
         params);
  }
  return finish_reduction(result, out);
}

std::tuple<Tensor, Tensor> reduce_index_meta(cpu::DispatchStub<ReduceKernel>&, const char* op,
                                             const Tensor& self, cpu::DimMask mask, bool keepdim,
                                             bool want_values) {
  return index_reduction_results(op, self, mask, keepdim, want_values);
}

std::tuple<Tensor, Tensor> run_index_reduction(cpu::DispatchStub<ReduceKernel>& stub,
                                               const char* op, const Tensor& self,
                                               cpu::DimMask mask, bool keepdim, bool want_values) {
  auto [values, indices] = index_reduction_results(op, self, mask, keepdim, want_values);
  if (indices.numel() > 0) {
    if (want_values) {
      Tensor outs[] = {values, indices};
      stub(cpu::ReduceIter(self, ArrayRef<Tensor>(outs, std::size(outs)), mask, keepdim, true),
           ReduceParams{});
    } else {
      Tensor outs[] = {indices};
      stub(cpu::ReduceIter(self, ArrayRef<Tensor>(outs, std::size(outs)), mask, keepdim, true),
           ReduceParams{});
    }
  }
  return {values, indices};
}

}  // namespace brasa::ops
