// LRScheduler base and the multiplicative schedules (StepLR, MultiStepLR, ExponentialLR).
#include "brasa/optim/schedulers/lr_scheduler.h"

#include <algorithm>
#include <cmath>

#include "brasa/core/error.h"
#include "brasa/optim/schedulers/step_lr.h"

namespace brasa::optim {

LRScheduler::LRScheduler(Optimizer& optimizer)
    : optimizer_(optimizer), base_lrs_(get_current_lrs()) {}

std::vector<double> LRScheduler::get_current_lrs() const {
  std::vector<double> lrs;
  for (const auto& group : optimizer_.param_groups()) lrs.push_back(group.options().get_lr());
  return lrs;
}

void LRScheduler::set_optimizer_lrs(const std::vector<double>& learning_rates) {
  auto& groups = optimizer_.param_groups();
  BRASA_CHECK(learning_rates.size() == groups.size(), "LRScheduler: ", learning_rates.size(),
              " learning rates for ", groups.size(), " parameter groups");
  for (size_t i = 0; i < groups.size(); ++i) groups[i].options().set_lr(learning_rates[i]);
  last_lr_ = learning_rates;
}

void LRScheduler::step() {
  ++step_count_;
  ++last_epoch_;
  set_optimizer_lrs(get_lrs());
}

void LRScheduler::initial_step() {
  step_count_ = 0;
  last_epoch_ = -1;
  step();
}

void LRScheduler::step_to(int64_t epoch) {
  ++step_count_;
  last_epoch_ = epoch;
  set_optimizer_lrs(get_closed_form_lrs());
}

namespace {

std::vector<double> scaled(std::vector<double> lrs, double factor) {
  for (auto& lr : lrs) lr *= factor;
  return lrs;
}

}  // namespace

StepLR::StepLR(Optimizer& optimizer, unsigned step_size, double gamma)
    : LRScheduler(optimizer), step_size_(step_size), gamma_(gamma) {
  BRASA_CHECK(step_size > 0, "StepLR: step_size must be positive");
  initial_step();
}

std::vector<double> StepLR::get_lrs() {
  if (last_epoch_ == 0 || last_epoch_ % step_size_ != 0) return get_current_lrs();
  return scaled(get_current_lrs(), gamma_);
}

std::vector<double> StepLR::get_closed_form_lrs() {
  return scaled(base_lrs_, std::pow(gamma_, static_cast<double>(last_epoch_ / step_size_)));
}

MultiStepLR::MultiStepLR(Optimizer& optimizer, std::vector<int64_t> milestones, double gamma)
    : LRScheduler(optimizer), milestones_(std::move(milestones)), gamma_(gamma) {
  std::sort(milestones_.begin(), milestones_.end());
  initial_step();
}

std::vector<double> MultiStepLR::get_lrs() {
  const auto hits = std::count(milestones_.begin(), milestones_.end(), last_epoch_);
  if (hits == 0) return get_current_lrs();
  return scaled(get_current_lrs(), std::pow(gamma_, static_cast<double>(hits)));
}

std::vector<double> MultiStepLR::get_closed_form_lrs() {
  const auto passed =
      std::upper_bound(milestones_.begin(), milestones_.end(), last_epoch_) - milestones_.begin();
  return scaled(base_lrs_, std::pow(gamma_, static_cast<double>(passed)));
}

ExponentialLR::ExponentialLR(Optimizer& optimizer, double gamma)
    : LRScheduler(optimizer), gamma_(gamma) {
  initial_step();
}

std::vector<double> ExponentialLR::get_lrs() {
  if (last_epoch_ == 0) return get_current_lrs();
  return scaled(get_current_lrs(), gamma_);
}

std::vector<double> ExponentialLR::get_closed_form_lrs() {
  return scaled(base_lrs_, std::pow(gamma_, static_cast<double>(last_epoch_)));
}

}  // namespace brasa::optim
