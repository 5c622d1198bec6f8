#pragma once
// Multiplicative decays: StepLR (every step_size epochs), MultiStepLR (at milestones) and
// ExponentialLR (every epoch).

#include "brasa/optim/schedulers/lr_scheduler.h"

namespace brasa::optim {

/// lr *= gamma every step_size epochs. Throws ValueError when step_size is 0.
class BRASA_API StepLR : public LRScheduler {
 public:
  StepLR(Optimizer& optimizer, unsigned step_size, double gamma = 0.1);

 protected:
  std::vector<double> get_lrs() override;
  std::vector<double> get_closed_form_lrs() override;

 private:
  unsigned step_size_;
  double gamma_;
};

/// lr *= gamma at each milestone epoch (a repeated milestone applies gamma that many times).
class BRASA_API MultiStepLR : public LRScheduler {
 public:
  MultiStepLR(Optimizer& optimizer, std::vector<int64_t> milestones, double gamma = 0.1);

 protected:
  std::vector<double> get_lrs() override;
  std::vector<double> get_closed_form_lrs() override;

 private:
  std::vector<int64_t> milestones_;  // sorted
  double gamma_;
};

/// lr *= gamma every epoch.
class BRASA_API ExponentialLR : public LRScheduler {
 public:
  ExponentialLR(Optimizer& optimizer, double gamma);

 protected:
  std::vector<double> get_lrs() override;
  std::vector<double> get_closed_form_lrs() override;

 private:
  double gamma_;
};

}  // namespace brasa::optim
