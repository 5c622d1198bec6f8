// SequentialLR and ChainedScheduler.
#include "brasa/optim/schedulers/sequential_lr.h"

#include <algorithm>

#include "brasa/core/error.h"

namespace brasa::optim {

SequentialLR::SequentialLR(Optimizer& optimizer,
                           std::vector<std::shared_ptr<LRScheduler>> schedulers,
                           std::vector<int64_t> milestones)
    : LRScheduler(optimizer),
      schedulers_(std::move(schedulers)),
      milestones_(std::move(milestones)) {
  BRASA_CHECK(!schedulers_.empty(), "SequentialLR: expects at least one scheduler");
  BRASA_CHECK(milestones_.size() + 1 == schedulers_.size(),
              "SequentialLR: expects one more scheduler than milestones, got ", schedulers_.size(),
              " schedulers and ", milestones_.size(), " milestones");
  for (size_t i = 0; i < schedulers_.size(); ++i) {
    BRASA_CHECK(schedulers_[i] && &schedulers_[i]->optimizer_ == &optimizer,
                "SequentialLR: the scheduler at index ", i,
                " does not belong to the optimizer passed in");
  }
  // Every schedule starts from the rates the first scheduler found (PyTorch's initial_lr).
  base_lrs_ = schedulers_[0]->base_lrs_;
  set_optimizer_lrs(base_lrs_);
  for (auto& s : schedulers_) {
    s->base_lrs_ = base_lrs_;
    s->last_epoch_ -= 1;
  }
  schedulers_[0]->initial_step();
  last_epoch_ = 0;
  last_lr_ = schedulers_[0]->get_last_lr();
}

void SequentialLR::step() {
  ++last_epoch_;
  ++step_count_;
  const auto idx = static_cast<size_t>(
      std::upper_bound(milestones_.begin(), milestones_.end(), last_epoch_) - milestones_.begin());
  LRScheduler& s = *schedulers_[idx];
  if (idx > 0 && milestones_[idx - 1] == last_epoch_) {
    s.step_to(0);
  } else {
    s.step();
  }
  last_lr_ = s.get_last_lr();
}

namespace {

Optimizer& first_optimizer(const std::vector<std::shared_ptr<LRScheduler>>& schedulers) {
  BRASA_CHECK(!schedulers.empty() && schedulers[0],
              "ChainedScheduler: expects at least one scheduler");
  return schedulers[0]->optimizer();
}

}  // namespace

ChainedScheduler::ChainedScheduler(std::vector<std::shared_ptr<LRScheduler>> schedulers)
    : LRScheduler(first_optimizer(schedulers)), schedulers_(std::move(schedulers)) {
  for (size_t i = 0; i < schedulers_.size(); ++i) {
    BRASA_CHECK(schedulers_[i] && &schedulers_[i]->optimizer_ == &optimizer_,
                "ChainedScheduler: the scheduler at index ", i,
                " drives a different optimizer than the first");
  }
  last_epoch_ = 0;
  last_lr_ = schedulers_.back()->get_last_lr();
}

void ChainedScheduler::step() {
  ++last_epoch_;
  ++step_count_;
  for (auto& s : schedulers_) s->step();
  last_lr_ = schedulers_.back()->get_last_lr();
}

}  // namespace brasa::optim
