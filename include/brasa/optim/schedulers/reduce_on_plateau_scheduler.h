#pragma once
// ReduceLROnPlateau: multiplies the learning rates by factor once a metric has stopped improving
// for more than `patience` steps (libtorch's ReduceLROnPlateauScheduler).

#include <vector>

#include "brasa/archive/ivalue.h"
#include "brasa/optim/optimizer.h"

namespace brasa::optim {

class BRASA_API ReduceLROnPlateauScheduler {
 public:
  enum SchedulerMode { min, max };
  enum ThresholdMode { rel, abs };

  /// Throws ValueError when factor >= 1 or min_lr has neither 1 nor one-per-group entries.
  explicit ReduceLROnPlateauScheduler(Optimizer& optimizer, SchedulerMode mode = min,
                                      double factor = 0.1, int64_t patience = 10,
                                      double threshold = 1e-4, ThresholdMode threshold_mode = rel,
                                      int64_t cooldown = 0, std::vector<double> min_lr = {0.0},
                                      double eps = 1e-8);
  /// Records one epoch's metric (e.g. validation loss) and reduces the rates when due.
  void step(double metric);
  const std::vector<double>& get_last_lr() const { return last_lr_; }
  int64_t num_bad_epochs() const { return num_bad_epochs_; }
  /// {"best", "num_bad_epochs", "cooldown_counter", "last_epoch", "_last_lr"} (PyTorch's keys).
  IValue state_dict() const;
  void load_state_dict(const IValue& state);

 private:
  bool is_better(double a) const;

  Optimizer& optimizer_;
  SchedulerMode mode_;
  double factor_;
  int64_t patience_;
  double threshold_;
  ThresholdMode threshold_mode_;
  int64_t cooldown_;
  std::vector<double> min_lrs_;
  double eps_;
  double best_;
  int64_t num_bad_epochs_ = 0;
  int64_t cooldown_counter_ = 0;
  int64_t last_epoch_ = 0;
  std::vector<double> last_lr_;
};

using ReduceLROnPlateau = ReduceLROnPlateauScheduler;

}  // namespace brasa::optim
