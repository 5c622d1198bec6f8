#pragma once
// Dynamic loss scaling for float16 training: Python's torch.cuda.amp.GradScaler as brasa::amp
// (libtorch 1.13 has no C++ GradScaler). The loss is multiplied by a scale before backward; step()
// unscales the gradients, skips the optimizer step when any of them is inf or NaN, and update()
// halves the scale after such a step or doubles it after `growth_interval` clean ones.
//
//   brasa::amp::GradScaler scaler;
//   scaler.scale(loss).backward();
//   scaler.step(optimizer);  // skipped when a gradient overflowed
//   scaler.update();

#include <map>
#include <optional>
#include <vector>

#include "brasa/archive/ivalue.h"
#include "brasa/core/options_arg.h"
#include "brasa/optim/optimizer.h"

namespace brasa::amp {

struct BRASA_API GradScalerOptions {
  BRASA_ARG(double, init_scale) = 65536.0;
  BRASA_ARG(double, growth_factor) = 2.0;
  BRASA_ARG(double, backoff_factor) = 0.5;
  BRASA_ARG(int64_t, growth_interval) = 2000;
  BRASA_ARG(bool, enabled) = true;
};

class BRASA_API GradScaler {
 public:
  /// Throws ValueError unless growth_factor > 1, 0 < backoff_factor < 1, init_scale > 0 and
  /// growth_interval > 0 (when enabled).
  explicit GradScaler(GradScalerOptions options = {});

  /// outputs * scale (a float32 1-element tensor, so float16 outputs become float32, as in
  /// PyTorch); outputs unchanged when disabled.
  Tensor scale(const Tensor& outputs);
  std::vector<Tensor> scale(const std::vector<Tensor>& outputs);
  /// Divides the optimizer's gradients by the scale in place and records whether any is inf or
  /// NaN. Throws RuntimeError when called twice before update() or after step(), and ValueError
  /// for float16 gradients (keep float32 master parameters).
  void unscale_(optim::Optimizer& optimizer);
  /// Unscales (unless unscale_ ran) and runs optimizer.step() when every gradient is finite.
  /// Returns whether the step ran. Throws RuntimeError when called twice before update().
  bool step(optim::Optimizer& optimizer);
  /// Backs the scale off after a skipped step, grows it after growth_interval clean steps, or
  /// sets it to `new_scale`. Throws RuntimeError when no optimizer was unscaled since the last
  /// update.
  void update(std::optional<double> new_scale = std::nullopt);

  /// The current scale (1.0 when disabled).
  double get_scale() const;
  double get_growth_factor() const { return options_.growth_factor(); }
  void set_growth_factor(double f) { options_.growth_factor(f); }
  double get_backoff_factor() const { return options_.backoff_factor(); }
  void set_backoff_factor(double f) { options_.backoff_factor(f); }
  int64_t get_growth_interval() const { return options_.growth_interval(); }
  void set_growth_interval(int64_t n) { options_.growth_interval(n); }
  /// Clean steps since the scale last changed.
  int64_t growth_tracker() const { return growth_tracker_; }
  bool is_enabled() const { return options_.enabled(); }

  /// Python's keys: scale, growth_factor, backoff_factor, growth_interval, _growth_tracker (empty
  /// when disabled).
  GenericDict state_dict() const;
  /// Throws RuntimeError for an empty dict and IndexError for a missing key.
  void load_state_dict(const GenericDict& state);

 private:
  enum class Stage { Ready, Unscaled, Stepped };
  struct OptimizerState {
    Stage stage = Stage::Ready;
    bool found_inf = false;
  };
  GradScalerOptions options_;
  float scale_;
  int64_t growth_tracker_ = 0;
  std::map<const optim::Optimizer*, OptimizerState> per_optimizer_;
};

}  // namespace brasa::amp
