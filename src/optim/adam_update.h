#pragma once
// The shared body of Adam and AdamW: per-group option checks and the per-parameter update
// (the fused kernel for contiguous float/double tensors, in-place ops otherwise).

#include <cmath>

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/optim/optimizer.h"
#include "optim/closure.h"

namespace brasa::optim::detail {

struct AdamHyper {
  double lr = 0, beta1 = 0, beta2 = 0, eps = 0, weight_decay = 0;
  bool amsgrad = false, maximize = false, decoupled = false;
};

/// Throws ValueError (naming `name`) for PyTorch's invalid Adam hyper-parameters.
void check_adam_hyper(const AdamHyper& h, const char* name);

/// One Adam/AdamW update of `param` at step `step` (already incremented).
void adam_param_step(const Tensor& param, const Tensor& grad, int64_t step, const Tensor& exp_avg,
                     const Tensor& exp_avg_sq, const Tensor& max_exp_avg_sq, const AdamHyper& h);

template <typename Options>
AdamHyper adam_hyper(const Options& o, bool decoupled) {
  return {o.lr(),
          std::get<0>(o.betas()),
          std::get<1>(o.betas()),
          o.eps(),
          o.weight_decay(),
          o.amsgrad(),
          o.maximize(),
          decoupled};
}

/// Runs the closure (with grad enabled), then updates every parameter that has a gradient.
template <typename Options, typename State>
Tensor adam_family_step(Optimizer& opt, const Optimizer::LossClosure& closure, bool decoupled) {
  Tensor loss = run_closure(closure);
  NoGradGuard no_grad;
  for (auto& group : opt.param_groups()) {
    const AdamHyper h = adam_hyper(static_cast<const Options&>(group.options()), decoupled);
    for (const auto& p : group.params()) {
      const Tensor& grad = p.grad();
      if (!grad.defined()) continue;
      auto& slot = opt.state()[param_key(p)];
      if (!slot) {
        auto fresh = std::make_unique<State>();
        fresh->exp_avg(zeros_like(p));
        fresh->exp_avg_sq(zeros_like(p));
        if (h.amsgrad) fresh->max_exp_avg_sq(zeros_like(p));
        slot = std::move(fresh);
      }
      auto& s = static_cast<State&>(*slot);
      if (h.amsgrad && !s.max_exp_avg_sq().defined()) s.max_exp_avg_sq(zeros_like(p));
      s.step(s.step() + 1);
      adam_param_step(p, grad, s.step(), s.exp_avg(), s.exp_avg_sq(),
                      h.amsgrad ? s.max_exp_avg_sq() : Tensor(), h);
    }
  }
  return loss;
}

}  // namespace brasa::optim::detail
