// nan_to_num; loop in backends/cpu/kernels/ternary_kernels.cpp.
#include "backends/cpu/kernels/ternary_kernels.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/pointwise.h"
#include "ops/meta.h"
#include "ops/pointwise/ternary_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(nan_to_num_stub, NanToNumKernel);

namespace {
using OptDouble = std::optional<double>;

cpu::TensorIterator make_nan_to_num_iterator(const Tensor& self, const Tensor& out) {
  BRASA_CHECK(self.defined(), "nan_to_num: got an undefined tensor");
  BRASA_CHECK_TYPE(!out.defined() || out.dtype() == self.dtype(),
                   "nan_to_num: dtype of out: ", out.dtype(),
                   " should be same as input: ", self.dtype());
  cpu::TensorIteratorConfig cfg("nan_to_num");
  cfg.add_output(out).add_input(self).common_dtype(self.dtype());
  return cfg.build();
}

Tensor nan_to_num_meta(const Tensor& self, OptDouble, OptDouble, OptDouble, const Tensor& out) {
  return iterator_meta(make_nan_to_num_iterator(self, out));
}

Tensor nan_to_num_kernel(const Tensor& self, OptDouble nan, OptDouble posinf, OptDouble neginf,
                         const Tensor& out) {
  cpu::TensorIterator it = make_nan_to_num_iterator(self, out);
  nan_to_num_stub(it, nan.value_or(0.0), posinf, neginf);
  it.finish();
  return it.output();
}
}  // namespace

BRASA_DEFINE_OP(nan_to_num_op)
BRASA_REGISTER_KERNEL(nan_to_num_op, nan_to_num_kernel, CPU)
BRASA_REGISTER_KERNEL(nan_to_num_op, nan_to_num_meta, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  return ops::nan_to_num_op().call(self, nan, posinf, neginf, Tensor());
}
Tensor& nan_to_num_out(Tensor& out, const Tensor& self, std::optional<double> nan,
                       std::optional<double> posinf, std::optional<double> neginf) {
  ops::nan_to_num_op().call(self, nan, posinf, neginf, out);
  return out;
}
Tensor Tensor::nan_to_num(std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf) const {
  return brasa::nan_to_num(*this, nan, posinf, neginf);
}
const Tensor& Tensor::nan_to_num_(std::optional<double> nan, std::optional<double> posinf,
                                  std::optional<double> neginf) const {
  ops::nan_to_num_op().call(*this, nan, posinf, neginf, *this);
  return *this;
}

}  // namespace brasa
