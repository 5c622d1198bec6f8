#pragma once
// Fused optimizer steps: one parallel pass over a contiguous float/double parameter updates it and
// its state (loops in backends/cpu/kernels/optim_kernels.cpp). Scalars follow PyTorch's
// single-tensor updates: computed in double, applied in the tensor's type.

#include <cstdint>

#include "backends/cpu/stub.h"
#include "brasa/core/dtype.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::optim::detail {

struct AdamStepArgs {
  void* param = nullptr;
  const void* grad = nullptr;
  void* exp_avg = nullptr;
  void* exp_avg_sq = nullptr;
  void* max_exp_avg_sq = nullptr;  // null unless amsgrad
  int64_t numel = 0;
  ScalarType dtype = ScalarType::Float;
  double beta1 = 0, beta2 = 0, eps = 0;
  double weight_decay = 0;  // L2 added to the gradient (Adam); 0 for AdamW
  double param_scale = 1;   // 1 - lr * weight_decay for AdamW, else 1
  double step_size = 0;     // lr / bias_correction1
  double bias_correction2_sqrt = 1;
  bool maximize = false;
};

using FusedAdamKernel = void (*)(const AdamStepArgs&);
BRASA_DECLARE_STUB(fused_adam_stub, FusedAdamKernel);

/// SGD with an existing momentum buffer: d = g (+ wd * p); buf = buf * momentum + (1 - dampening)
/// * d; p -= lr * (nesterov ? d + momentum * buf : buf).
struct SgdStepArgs {
  void* param = nullptr;
  const void* grad = nullptr;
  void* momentum_buffer = nullptr;
  int64_t numel = 0;
  ScalarType dtype = ScalarType::Float;
  double lr = 0, momentum = 0, dampening = 0, weight_decay = 0;
  bool nesterov = false, maximize = false;
};

using FusedSgdKernel = void (*)(const SgdStepArgs&);
BRASA_DECLARE_STUB(fused_sgd_stub, FusedSgdKernel);

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
BRASA_DECLARE_OP(fused_sgd_op, "_fused_sgd_",
                 "_fused_sgd_(Tensor(a!) self, Tensor grad, Tensor(b!) momentum_buffer, float lr, "
                 "float momentum, float dampening, float weight_decay, bool nesterov, bool "
                 "maximize) -> ()",
                 void(const Tensor&, const Tensor&, const Tensor&, double, double, double, double,
                      bool, bool));

}  // namespace brasa::optim::detail
