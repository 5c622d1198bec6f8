// nonzero and masked_select: results whose size depends on the data (nonzero's meta function
// throws NotImplementedError: the shape is unknown without the values).
#include "backends/cpu/kernels/gather_kernels.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/view.h"
#include "ops/index/gather_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(nonzero_stub, NonzeroKernel);

namespace {

// The result's shape depends on the values, which a meta tensor does not have.
Tensor nonzero_meta(const Tensor& self) {
  BRASA_CHECK(self.defined(), "nonzero: called on an undefined tensor");
  BRASA_THROW(NotImplementedError, "nonzero: the result shape of a meta tensor is data-dependent");
}

Tensor nonzero_kernel(const Tensor& self) {
  BRASA_CHECK(self.defined(), "nonzero: called on an undefined tensor");
  Tensor c = self.contiguous();
  const int64_t count = nonzero_stub(c, nullptr);
  Tensor out = detail::empty_generic({count, self.dim()}, kLong, self.device());
  if (count > 0 && self.dim() > 0) nonzero_stub(c, static_cast<int64_t*>(out.data_ptr()));
  return out;
}

DimVector broadcast_shape(IntArrayRef a, IntArrayRef b, const char* op) {
  const size_t n = std::max(a.size(), b.size());
  DimVector out(n, 1);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    BRASA_CHECK(x == y || x == 1 || y == 1, op, ": the size of tensor a (", x,
                ") must match the size of tensor b (", y, ") at non-singleton dimension ",
                n - 1 - i, " (shapes ", a, " and ", b, ")");
    out[n - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

Tensor masked_select_kernel(const Tensor& self, const Tensor& mask) {
  BRASA_CHECK(self.defined() && mask.defined(), "masked_select: got an undefined tensor");
  BRASA_CHECK_TYPE(mask.dtype() == kBool, "masked_select: expected mask to have dtype Bool, got ",
                   mask.dtype());
  DimVector shape = broadcast_shape(self.sizes(), mask.sizes(), "masked_select");
  Tensor positions = nonzero(mask.expand(shape).reshape({-1})).view({-1});
  return self.expand(shape).reshape({-1}).index_select(0, positions);
}

}  // namespace

BRASA_DEFINE_OP(nonzero_op)
BRASA_DEFINE_OP(masked_select_op)
BRASA_REGISTER_KERNEL(nonzero_op, nonzero_kernel, CPU)
BRASA_REGISTER_KERNEL(nonzero_op, nonzero_meta, Meta)
BRASA_REGISTER_KERNEL(masked_select_op, masked_select_kernel, CPU, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor nonzero(const Tensor& self) { return ops::nonzero_op().call(self); }
Tensor masked_select(const Tensor& self, const Tensor& mask) {
  return ops::masked_select_op().call(self, mask);
}
Tensor Tensor::nonzero() const { return brasa::nonzero(*this); }
Tensor Tensor::masked_select(const Tensor& mask) const { return brasa::masked_select(*this, mask); }

}  // namespace brasa
