// ReduceLROnPlateau: PyTorch's best/bad-epoch/cooldown bookkeeping.
#include "brasa/optim/schedulers/reduce_on_plateau_scheduler.h"

#include <algorithm>
#include <limits>

#include "brasa/core/error.h"

namespace brasa::optim {

ReduceLROnPlateauScheduler::ReduceLROnPlateauScheduler(
    Optimizer& optimizer, SchedulerMode mode, double factor, int64_t patience, double threshold,
    ThresholdMode threshold_mode, int64_t cooldown, std::vector<double> min_lr, double eps)
    : optimizer_(optimizer),
      mode_(mode),
      factor_(factor),
      patience_(patience),
      threshold_(threshold),
      threshold_mode_(threshold_mode),
      cooldown_(cooldown),
      eps_(eps) {
  BRASA_CHECK(factor < 1.0, "ReduceLROnPlateau: factor should be < 1.0, got ", factor);
  const size_t groups = optimizer.param_groups().size();
  if (min_lr.size() == 1) {
    min_lrs_.assign(groups, min_lr[0]);
  } else {
    BRASA_CHECK(min_lr.size() == groups, "ReduceLROnPlateau: expected ", groups, " min_lrs, got ",
                min_lr.size());
    min_lrs_ = std::move(min_lr);
  }
  best_ = mode == min ? std::numeric_limits<double>::infinity()
                      : -std::numeric_limits<double>::infinity();
  for (const auto& g : optimizer.param_groups()) last_lr_.push_back(g.options().get_lr());
}

bool ReduceLROnPlateauScheduler::is_better(double a) const {
  if (mode_ == min)
    return threshold_mode_ == rel ? a < best_ * (1. - threshold_) : a < best_ - threshold_;
  return threshold_mode_ == rel ? a > best_ * (threshold_ + 1.) : a > best_ + threshold_;
}

void ReduceLROnPlateauScheduler::step(double metric) {
  ++last_epoch_;
  if (is_better(metric)) {
    best_ = metric;
    num_bad_epochs_ = 0;
  } else {
    ++num_bad_epochs_;
  }
  if (cooldown_counter_ > 0) {
    --cooldown_counter_;
    num_bad_epochs_ = 0;
  }
  if (num_bad_epochs_ > patience_) {
    auto& groups = optimizer_.param_groups();
    for (size_t i = 0; i < groups.size(); ++i) {
      const double old_lr = groups[i].options().get_lr();
      const double new_lr = std::max(old_lr * factor_, min_lrs_[i]);
      if (old_lr - new_lr > eps_) groups[i].options().set_lr(new_lr);
    }
    cooldown_counter_ = cooldown_;
    num_bad_epochs_ = 0;
  }
  last_lr_.clear();
  for (const auto& g : optimizer_.param_groups()) last_lr_.push_back(g.options().get_lr());
}

}  // namespace brasa::optim
