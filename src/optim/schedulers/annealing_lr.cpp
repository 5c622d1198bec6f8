// CosineAnnealingLR, LinearLR and OneCycleLR with PyTorch's (recursive where PyTorch's is)
// formulas.
#include "brasa/optim/schedulers/annealing_lr.h"

#include <cmath>
#include <numbers>

#include "brasa/core/error.h"
#include "brasa/optim/adam.h"
#include "brasa/optim/adamw.h"
#include "brasa/optim/rmsprop.h"
#include "brasa/optim/sgd.h"

namespace brasa::optim {

using std::numbers::pi;

CosineAnnealingLR::CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min)
    : LRScheduler(optimizer), T_max_(T_max), eta_min_(eta_min) {
  BRASA_CHECK(T_max > 0, "CosineAnnealingLR: T_max must be positive, got ", T_max);
  initial_step();
}

std::vector<double> CosineAnnealingLR::get_lrs() {
  std::vector<double> lrs = get_current_lrs();
  if (last_epoch_ == 0) return lrs;
  const auto T = static_cast<double>(T_max_);
  const auto e = static_cast<double>(last_epoch_);
  for (size_t i = 0; i < lrs.size(); ++i) {
    if ((last_epoch_ - 1 - T_max_) % (2 * T_max_) == 0) {
      lrs[i] += (base_lrs_[i] - eta_min_) * (1 - std::cos(pi / T)) / 2;
    } else {
      lrs[i] = (1 + std::cos(pi * e / T)) / (1 + std::cos(pi * (e - 1) / T)) * (lrs[i] - eta_min_) +
               eta_min_;
    }
  }
  return lrs;
}

std::vector<double> CosineAnnealingLR::get_closed_form_lrs() {
  std::vector<double> lrs = base_lrs_;
  const double c = std::cos(pi * static_cast<double>(last_epoch_) / static_cast<double>(T_max_));
  for (auto& lr : lrs) lr = eta_min_ + (lr - eta_min_) * (1 + c) / 2;
  return lrs;
}

LinearLR::LinearLR(Optimizer& optimizer, double start_factor, double end_factor,
                   int64_t total_iters)
    : LRScheduler(optimizer),
      start_factor_(start_factor),
      end_factor_(end_factor),
      total_iters_(total_iters) {
  BRASA_CHECK(start_factor > 0 && start_factor <= 1,
              "LinearLR: starting multiplicative factor expected to be in (0, 1], got ",
              start_factor);
  BRASA_CHECK(end_factor >= 0 && end_factor <= 1,
              "LinearLR: ending multiplicative factor expected to be in [0, 1], got ", end_factor);
  BRASA_CHECK(total_iters > 0, "LinearLR: total_iters must be positive, got ", total_iters);
  initial_step();
}

std::vector<double> LinearLR::get_lrs() {
  std::vector<double> lrs = get_current_lrs();
  if (last_epoch_ == 0) {
    for (auto& lr : lrs) lr *= start_factor_;
  } else if (last_epoch_ <= total_iters_) {
    const double delta = end_factor_ - start_factor_;
    const double factor = 1. + delta / (static_cast<double>(total_iters_) * start_factor_ +
                                        static_cast<double>(last_epoch_ - 1) * delta);
    for (auto& lr : lrs) lr *= factor;
  }
  return lrs;
}

std::vector<double> LinearLR::get_closed_form_lrs() {
  std::vector<double> lrs = base_lrs_;
  const double progress =
      static_cast<double>(std::min(total_iters_, last_epoch_)) / static_cast<double>(total_iters_);
  for (auto& lr : lrs) lr *= start_factor_ + (end_factor_ - start_factor_) * progress;
  return lrs;
}

OneCycleLR::OneCycleLR(Optimizer& optimizer, double max_lr, int64_t total_steps, double pct_start,
                       const std::string& anneal_strategy, bool cycle_momentum,
                       double base_momentum, double max_momentum, double div_factor,
                       double final_div_factor, bool three_phase)
    : LRScheduler(optimizer),
      total_steps_(total_steps),
      cos_(anneal_strategy == "cos"),
      cycle_momentum_(cycle_momentum),
      base_momentum_(base_momentum),
      max_momentum_(max_momentum) {
  BRASA_CHECK(total_steps > 0, "OneCycleLR: expected positive total_steps, got ", total_steps);
  BRASA_CHECK(pct_start >= 0 && pct_start <= 1, "OneCycleLR: expected pct_start in [0, 1], got ",
              pct_start);
  BRASA_CHECK(anneal_strategy == "cos" || anneal_strategy == "linear",
              "OneCycleLR: anneal_strategy must be 'cos' or 'linear', got '", anneal_strategy, "'");
  const auto steps = static_cast<double>(total_steps);
  if (three_phase) {
    phases_ = {{pct_start * steps - 1, 0, 1, true, false},
               {2 * pct_start * steps - 2, 1, 0, false, true},
               {steps - 1, 0, 2, true, true}};
  } else {
    phases_ = {{pct_start * steps - 1, 0, 1, true, false}, {steps - 1, 1, 2, false, true}};
  }
  for (size_t g = 0; g < optimizer.param_groups().size(); ++g) {
    initial_lr_.push_back(max_lr / div_factor);
    max_lr_.push_back(max_lr);
    min_lr_.push_back(max_lr / div_factor / final_div_factor);
    if (cycle_momentum_) set_momentum(g, max_momentum);
  }
  base_lrs_ = initial_lr_;
  initial_step();
}

double OneCycleLR::anneal(double start, double end, double pct) const {
  if (cos_) return end + (start - end) / 2.0 * (std::cos(pi * pct) + 1);
  return (end - start) * pct + start;
}

void OneCycleLR::set_momentum(size_t group, double momentum) {
  OptimizerOptions& o = optimizer_.param_groups()[group].options();
  if (auto* sgd = dynamic_cast<SGDOptions*>(&o)) {
    sgd->momentum(momentum);
  } else if (auto* rms = dynamic_cast<RMSpropOptions*>(&o)) {
    rms->momentum(momentum);
  } else if (auto* adam = dynamic_cast<AdamOptions*>(&o)) {
    adam->betas({momentum, std::get<1>(adam->betas())});
  } else if (auto* adamw = dynamic_cast<AdamWOptions*>(&o)) {
    adamw->betas({momentum, std::get<1>(adamw->betas())});
  } else {
    BRASA_THROW(ValueError,
                "OneCycleLR: optimizer must support momentum with `cycle_momentum` "
                "option enabled");
  }
}

std::vector<double> OneCycleLR::get_lrs() {
  BRASA_CHECK(last_epoch_ <= total_steps_, "OneCycleLR: tried to step ", last_epoch_ + 1,
              " times; the specified number of total steps is ", total_steps_);
  const auto step_num = static_cast<double>(last_epoch_);
  std::vector<double> lrs;
  for (size_t g = 0; g < initial_lr_.size(); ++g) {
    const double levels[3] = {initial_lr_[g], max_lr_[g], min_lr_[g]};
    double start_step = 0;
    for (size_t i = 0; i < phases_.size(); ++i) {
      const Phase& ph = phases_[i];
      if (step_num <= ph.end_step || i + 1 == phases_.size()) {
        const double pct = (step_num - start_step) / (ph.end_step - start_step);
        lrs.push_back(anneal(levels[ph.start_lr], levels[ph.end_lr], pct));
        if (cycle_momentum_) {
          set_momentum(g, anneal(ph.start_momentum_max ? max_momentum_ : base_momentum_,
                                 ph.end_momentum_max ? max_momentum_ : base_momentum_, pct));
        }
        break;
      }
      start_step = ph.end_step;
    }
  }
  return lrs;
}

}  // namespace brasa::optim
