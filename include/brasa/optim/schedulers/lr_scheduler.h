#pragma once
// LRScheduler base: each step() advances the epoch counter and writes new learning rates into the
// optimizer's groups. Schedules follow PyTorch's Python semantics: building a scheduler performs
// its step for epoch 0 (libtorch's C++ schedulers lag one step behind; see docs).

#include <vector>

#include "brasa/archive/ivalue.h"
#include "brasa/optim/optimizer.h"

namespace brasa::optim {

class BRASA_API LRScheduler {
 public:
  explicit LRScheduler(Optimizer& optimizer);
  virtual ~LRScheduler() = default;
  LRScheduler(const LRScheduler&) = delete;
  LRScheduler& operator=(const LRScheduler&) = delete;

  /// Advances one epoch and applies the new learning rates.
  virtual void step();
  /// The learning rates of the groups after the last step (or construction).
  const std::vector<double>& get_last_lr() const { return last_lr_; }
  /// The number of steps taken since construction (PyTorch's last_epoch).
  int64_t last_epoch() const { return last_epoch_; }
  Optimizer& optimizer() const { return optimizer_; }
  /// PyTorch's scheduler.state_dict(): a dict of "last_epoch", "_step_count", "base_lrs",
  /// "_last_lr" (plus "_schedulers" for SequentialLR / ChainedScheduler). Options come from the
  /// constructor, as in PyTorch, so load into a scheduler built the same way.
  virtual IValue state_dict() const;
  /// Restores state_dict() (not the optimizer's rates: load the optimizer for those); throws
  /// SerializationError for a missing or mistyped key or a group count that differs.
  virtual void load_state_dict(const IValue& state);

 protected:
  /// The learning rates for epoch last_epoch(), from the groups' current rates (chainable form).
  virtual std::vector<double> get_lrs() = 0;
  /// The learning rates for epoch last_epoch() from base_lrs_ alone; defaults to get_lrs().
  virtual std::vector<double> get_closed_form_lrs() { return get_lrs(); }
  /// Runs the epoch-0 step; called at the end of each derived constructor.
  void initial_step();
  /// Jumps to `epoch` and applies the closed form (used by SequentialLR at its milestones).
  void step_to(int64_t epoch);
  std::vector<double> get_current_lrs() const;
  void set_optimizer_lrs(const std::vector<double>& learning_rates);

  Optimizer& optimizer_;
  /// The groups' learning rates when the scheduler was built (PyTorch's base_lrs).
  std::vector<double> base_lrs_;
  std::vector<double> last_lr_;
  int64_t last_epoch_ = -1;
  unsigned step_count_ = 0;

  friend class SequentialLR;
  friend class ChainedScheduler;
};

}  // namespace brasa::optim
