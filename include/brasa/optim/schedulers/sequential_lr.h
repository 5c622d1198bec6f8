#pragma once
// Combining schedulers: SequentialLR (one after another, switching at milestones, e.g. a
// LinearLR warmup then a decay) and ChainedScheduler (all of them every step).

#include <memory>

#include "brasa/optim/schedulers/lr_scheduler.h"

namespace brasa::optim {

/// Runs schedulers[i] between milestones[i-1] and milestones[i]. Throws ValueError unless there
/// is one milestone fewer than schedulers and all schedulers drive `optimizer`.
class BRASA_API SequentialLR : public LRScheduler {
 public:
  SequentialLR(Optimizer& optimizer, std::vector<std::shared_ptr<LRScheduler>> schedulers,
               std::vector<int64_t> milestones);
  void step() override;
  IValue state_dict() const override;
  void load_state_dict(const IValue& state) override;

 protected:
  std::vector<double> get_lrs() override { return get_current_lrs(); }

 private:
  std::vector<std::shared_ptr<LRScheduler>> schedulers_;
  std::vector<int64_t> milestones_;
};

/// Steps every scheduler each step (their multiplicative effects compose). Throws ValueError when
/// empty or when the schedulers drive different optimizers.
class BRASA_API ChainedScheduler : public LRScheduler {
 public:
  explicit ChainedScheduler(std::vector<std::shared_ptr<LRScheduler>> schedulers);
  void step() override;
  IValue state_dict() const override;
  void load_state_dict(const IValue& state) override;

 protected:
  std::vector<double> get_lrs() override { return get_current_lrs(); }

 private:
  std::vector<std::shared_ptr<LRScheduler>> schedulers_;
};

}  // namespace brasa::optim
