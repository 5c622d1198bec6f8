// Adam/AdamW per-parameter update: the fused kernel when it applies, in-place ops otherwise.
#include "optim/adam_update.h"

#include "backends/cpu/kernels/optim_kernels.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/pointwise.h"
#include "optim/fused_ops.h"

namespace brasa::optim::detail {

BRASA_DEFINE_STUB(fused_adam_stub, FusedAdamKernel);

void check_adam_hyper(const AdamHyper& h, const char* name) {
  BRASA_CHECK(h.lr >= 0, name, ": invalid learning rate: ", h.lr);
  BRASA_CHECK(h.eps >= 0, name, ": invalid epsilon value: ", h.eps);
  BRASA_CHECK(h.beta1 >= 0 && h.beta1 < 1, name, ": invalid beta parameter at index 0: ", h.beta1);
  BRASA_CHECK(h.beta2 >= 0 && h.beta2 < 1, name, ": invalid beta parameter at index 1: ", h.beta2);
  BRASA_CHECK(h.weight_decay >= 0, name, ": invalid weight_decay value: ", h.weight_decay);
}

BRASA_DEFINE_OP(fused_adam_op)

namespace {

void fused_adam_cpu(const Tensor& param, const Tensor& grad, const Tensor& exp_avg,
                    const Tensor& exp_avg_sq, const Tensor& max_exp_avg_sq, double beta1,
                    double beta2, double eps, double weight_decay, double param_scale,
                    double step_size, double bc2_sqrt, bool maximize) {
  AdamStepArgs a;
  a.param = param.data_ptr();
  a.grad = grad.const_data_ptr();
  a.exp_avg = exp_avg.data_ptr();
  a.exp_avg_sq = exp_avg_sq.data_ptr();
  a.max_exp_avg_sq = max_exp_avg_sq.defined() ? max_exp_avg_sq.data_ptr() : nullptr;
  a.numel = param.numel();
  a.dtype = param.scalar_type();
  a.beta1 = beta1;
  a.beta2 = beta2;
  a.eps = eps;
  a.weight_decay = weight_decay;
  a.param_scale = param_scale;
  a.step_size = step_size;
  a.bias_correction2_sqrt = bc2_sqrt;
  a.maximize = maximize;
  fused_adam_stub(a);
}
BRASA_REGISTER_KERNEL(fused_adam_op, fused_adam_cpu, CPU)

bool fusable(const Tensor& t, const Tensor& param) {
  return t.defined() && t.is_contiguous() && t.scalar_type() == param.scalar_type() &&
         t.device() == param.device() && !t.is_meta() && t.sizes() == param.sizes();
}

}  // namespace

void adam_param_step(const Tensor& param, const Tensor& grad, int64_t step, const Tensor& exp_avg,
                     const Tensor& exp_avg_sq, const Tensor& max_exp_avg_sq, const AdamHyper& h) {
  const double bias_correction1 = 1 - std::pow(h.beta1, static_cast<double>(step));
  const double bias_correction2 = 1 - std::pow(h.beta2, static_cast<double>(step));
  const double step_size = h.lr / bias_correction1;
  const double bc2_sqrt = std::sqrt(bias_correction2);
  const ScalarType dtype = param.scalar_type();
  const bool fuse = (dtype == kFloat || dtype == kDouble) && fusable(param, param) &&
                    fusable(grad, param) && fusable(exp_avg, param) && fusable(exp_avg_sq, param) &&
                    (!h.amsgrad || fusable(max_exp_avg_sq, param));
  if (fuse) {
    fused_adam_op().call(param, grad, exp_avg, exp_avg_sq, h.amsgrad ? max_exp_avg_sq : Tensor(),
                         h.beta1, h.beta2, h.eps, h.decoupled ? 0 : h.weight_decay,
                         h.decoupled ? 1 - h.lr * h.weight_decay : 1, step_size, bc2_sqrt,
                         h.maximize);
    return;
  }
  Tensor g = h.maximize ? grad.neg() : grad;
  if (h.decoupled) {
    param.mul_(1 - h.lr * h.weight_decay);
  } else if (h.weight_decay != 0) {
    g = g.add(param, h.weight_decay);
  }
  exp_avg.mul_(h.beta1).add_(g, 1 - h.beta1);
  exp_avg_sq.mul_(h.beta2).add_(g * g, 1 - h.beta2);
  Tensor second = exp_avg_sq;
  if (h.amsgrad) {
    max_exp_avg_sq.copy_(maximum(max_exp_avg_sq, exp_avg_sq));
    second = max_exp_avg_sq;
  }
  Tensor denom = (second.sqrt() / bc2_sqrt).add_(h.eps);
  param.add_(exp_avg / denom, -step_size);
}

}  // namespace brasa::optim::detail
