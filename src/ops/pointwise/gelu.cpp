// gelu and gelu_backward: shape/dtype rule, CPU kernels (gelu_ops.h).
#include <string>

#include "backends/cpu/kernels/gelu_kernels.h"
#include "brasa/core/error.h"
#include "ops/meta.h"
#include "ops/pointwise/gelu_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(gelu_stub, GeluKernel);
BRASA_DEFINE_STUB(gelu_backward_stub, GeluKernel);

namespace {

bool is_tanh(const std::string& approximate, const char* op) {
  BRASA_CHECK(approximate == "none" || approximate == "tanh", op,
              ": approximate must be 'none' or 'tanh', got '", approximate, "'");
  return approximate == "tanh";
}

void check_input(const Tensor& t, const char* op, const char* what) {
  BRASA_CHECK(t.defined(), op, ": got an undefined ", what);
  BRASA_CHECK_TYPE(is_floating_type(t.scalar_type()), op, ": expected a floating ", what, ", got ",
                   t.scalar_type());
}

cpu::TensorIterator gelu_iterator(const Tensor& self, const Tensor& out) {
  check_input(self, "gelu", "input");
  cpu::TensorIteratorConfig cfg("gelu");
  cfg.add_output(out).add_input(self).common_dtype(self.scalar_type());
  return cfg.build();
}

cpu::TensorIterator gelu_backward_iterator(const Tensor& grad, const Tensor& self,
                                           const Tensor& out) {
  check_input(grad, "gelu_backward", "grad_output");
  check_input(self, "gelu_backward", "input");
  BRASA_CHECK_TYPE(grad.scalar_type() == self.scalar_type(),
                   "gelu_backward: expected grad_output and input of one dtype, got ",
                   grad.scalar_type(), " and ", self.scalar_type());
  cpu::TensorIteratorConfig cfg("gelu_backward");
  cfg.add_output(out).add_input(grad).add_input(self).common_dtype(self.scalar_type());
  return cfg.build();
}

Tensor gelu_meta(const Tensor& self, std::string approximate, const Tensor& out) {
  is_tanh(approximate, "gelu");
  return iterator_meta(gelu_iterator(self, out));
}
Tensor gelu_kernel(const Tensor& self, std::string approximate, const Tensor& out) {
  const bool tanh = is_tanh(approximate, "gelu");
  cpu::TensorIterator it = gelu_iterator(self, out);
  gelu_stub(it, tanh);
  it.finish();
  return it.output();
}

Tensor gelu_backward_meta(const Tensor& grad, const Tensor& self, std::string approximate,
                          const Tensor& out) {
  is_tanh(approximate, "gelu_backward");
  return iterator_meta(gelu_backward_iterator(grad, self, out));
}
Tensor gelu_backward_kernel(const Tensor& grad, const Tensor& self, std::string approximate,
                            const Tensor& out) {
  const bool tanh = is_tanh(approximate, "gelu_backward");
  cpu::TensorIterator it = gelu_backward_iterator(grad, self, out);
  gelu_backward_stub(it, tanh);
  it.finish();
  return it.output();
}

}  // namespace

BRASA_DEFINE_OP(gelu_op)
BRASA_REGISTER_KERNEL(gelu_op, gelu_kernel, CPU)
BRASA_REGISTER_KERNEL(gelu_op, gelu_meta, Meta)
BRASA_DEFINE_OP(gelu_backward_op)
BRASA_REGISTER_KERNEL(gelu_backward_op, gelu_backward_kernel, CPU)
BRASA_REGISTER_KERNEL(gelu_backward_op, gelu_backward_meta, Meta)

}  // namespace brasa::ops
