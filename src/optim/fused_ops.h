#pragma once
// The fused optimizer steps as dispatched ops (Note [Op declarations]); their CPU loops are behind
// backends/cpu/kernels/optim_kernels.h.

#include "brasa/core/tensor.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::optim::detail {

// Note [Fused optimizer ops]: the fused steps are dispatched ops (like PyTorch's _fused_adamw_),
// so a tensor on any device takes the same arithmetic: a backend may implement the op, or the CPU
// fallback runs the CPU kernel on copies, and results equal the CPU's bit for bit. Kernels:
// adam_update.cpp and sgd.cpp.
BRASA_DECLARE_OP(fused_adam_op, "_fused_adam_",
                 "_fused_adam_(Tensor(a!) self, Tensor grad, Tensor(b!) exp_avg, Tensor(c!) "
                 "exp_avg_sq, Tensor(d!)? max_exp_avg_sq, float beta1, float beta2, float eps, "
                 "float weight_decay, float param_scale, float step_size, float "
                 "bias_correction2_sqrt, bool maximize) -> ()",
                 void(const Tensor&, const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                      double, double, double, double, double, double, double, bool));
BRASA_ATEN(fused_adam_op,
           "none: aten's _fused_adam_ steps lists of tensors from lr and a step tensor; brasa's "
           "steps one tensor from precomputed scales");
BRASA_DECLARE_OP(fused_sgd_op, "_fused_sgd_",
                 "_fused_sgd_(Tensor(a!) self, Tensor grad, Tensor(b!) momentum_buffer, float lr, "
                 "float momentum, float dampening, float weight_decay, bool nesterov, bool "
                 "maximize) -> ()",
                 void(const Tensor&, const Tensor&, const Tensor&, double, double, double, double,
                      bool, bool));
BRASA_ATEN(fused_sgd_op, "none: aten 1.13 has no _fused_sgd_");

}  // namespace brasa::optim::detail
