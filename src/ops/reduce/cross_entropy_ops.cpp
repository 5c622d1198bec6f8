// _softmax_cross_entropy and its backward: shape/dtype rules and CPU kernels
// (cross_entropy_ops.h).
#include "ops/reduce/cross_entropy_ops.h"

#include "backends/cpu/kernels/cross_entropy_kernels.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(cross_entropy_stub, CrossEntropyKernel);
BRASA_DEFINE_STUB(cross_entropy_backward_stub, CrossEntropyBackwardKernel);

namespace {

constexpr const char* kOp = "cross_entropy";

/// The shape and dtype rule of both ops: self [N, C] Float or Double, target Long [N].
void check_inputs(const Tensor& self, const Tensor& target, int64_t reduction) {
  BRASA_CHECK(self.defined() && target.defined(), kOp, ": got an undefined tensor");
  BRASA_CHECK_TYPE(self.scalar_type() == kFloat || self.scalar_type() == kDouble, kOp,
                   ": expected Float or Double logits, got ", self.scalar_type());
  BRASA_CHECK_TYPE(target.scalar_type() == kLong, kOp,
                   ": expected a Long target of class indices, got ", target.scalar_type());
  BRASA_CHECK(self.dim() == 2 && target.dim() == 1 && target.size(0) == self.size(0), kOp,
              ": expected logits [N, C] and a target [N], got ", self.sizes(), " and ",
              target.sizes());
  BRASA_CHECK(reduction >= 0 && reduction <= 2, kOp,
              ": reduction must be 0 (none), 1 (mean) or 2 (sum), got ", reduction);
  BRASA_CHECK(self.device() == target.device(), kOp, ": expected logits and target on one ",
              "device, got ", self.device(), " and ", target.device());
}

Tensor loss_result(const Tensor& self, int64_t reduction) {
  return reduction == 0 ? detail::empty_generic({self.size(0)}, self.scalar_type(), self.device())
                        : detail::empty_generic({}, self.scalar_type(), self.device());
}

/// Every target is a class or the ignored index; returns how many are not ignored.
int64_t count_valid(const Tensor& target, int64_t classes, int64_t ignore) {
  const int64_t* t = target.data_ptr<int64_t>();
  int64_t valid = 0;
  for (int64_t i = 0, n = target.numel(); i < n; ++i) {
    if (t[i] == ignore) continue;
    BRASA_CHECK_INDEX(t[i] >= 0 && t[i] < classes, kOp, ": target ", t[i], " is out of bounds for ",
                      classes, " classes");
    ++valid;
  }
  return valid;
}

Tensor forward_meta(const Tensor& self, const Tensor& target, int64_t reduction, int64_t) {
  check_inputs(self, target, reduction);
  return loss_result(self, reduction);
}

Tensor forward_kernel(const Tensor& self, const Tensor& target, int64_t reduction, int64_t ignore) {
  check_inputs(self, target, reduction);
  const Tensor x = self.contiguous(), t = target.contiguous();
  const int64_t valid = count_valid(t, x.size(1), ignore);
  Tensor losses = detail::empty_generic({x.size(0)}, x.scalar_type(), x.device());
  if (x.numel() > 0) cross_entropy_stub(losses, x, t, ignore);
  if (reduction == 0) return losses;
  Tensor total = losses.sum();
  return reduction == 2 ? total : total / static_cast<double>(valid);
}

Tensor backward_meta(const Tensor& grad, const Tensor& self, const Tensor& target,
                     int64_t reduction, int64_t) {
  check_inputs(self, target, reduction);
  BRASA_CHECK(grad.defined() && grad.sizes() == loss_result(self, reduction).sizes(), kOp,
              ": expected a grad_output shaped like the loss");
  return detail::empty_generic(self.sizes(), self.scalar_type(), self.device());
}

Tensor backward_kernel(const Tensor& grad, const Tensor& self, const Tensor& target,
                       int64_t reduction, int64_t ignore) {
  Tensor result = backward_meta(grad, self, target, reduction, ignore);
  const Tensor x = self.contiguous(), t = target.contiguous();
  const int64_t n = x.size(0), valid = count_valid(t, x.size(1), ignore);
  if (result.numel() == 0) return result;
  // The loss's gradient per row: grad (none), grad (sum) or grad / valid (mean).
  Tensor scale = grad.to(kDouble).contiguous();
  if (reduction != 0) {
    const double g =
        *scale.data_ptr<double>() / (reduction == 1 ? static_cast<double>(valid) : 1.0);
    scale = full({n}, g, TensorOptions(kDouble));
  }
  cross_entropy_backward_stub(result, x, t, scale, ignore);
  return result;
}

}  // namespace

BRASA_DEFINE_OP(softmax_cross_entropy_op)
BRASA_REGISTER_KERNEL(softmax_cross_entropy_op, forward_kernel, CPU)
BRASA_REGISTER_KERNEL(softmax_cross_entropy_op, forward_meta, Meta)
BRASA_DEFINE_OP(softmax_cross_entropy_backward_op)
BRASA_REGISTER_KERNEL(softmax_cross_entropy_backward_op, backward_kernel, CPU)
BRASA_REGISTER_KERNEL(softmax_cross_entropy_backward_op, backward_meta, Meta)

}  // namespace brasa::ops
