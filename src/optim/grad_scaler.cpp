#include "brasa/optim/grad_scaler.h"

#include <cmath>

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"

namespace brasa::amp {

GradScaler::GradScaler(GradScalerOptions options)
    : options_(options), scale_(static_cast<float>(options.init_scale())) {
  if (!options_.enabled()) return;
  BRASA_CHECK(options_.growth_factor() > 1.0, "GradScaler: the growth factor must be > 1.0, got ",
              options_.growth_factor());
  BRASA_CHECK(options_.backoff_factor() > 0.0 && options_.backoff_factor() < 1.0,
              "GradScaler: the backoff factor must be in (0, 1), got ", options_.backoff_factor());
  BRASA_CHECK(options_.init_scale() > 0.0 && std::isfinite(options_.init_scale()),
              "GradScaler: the initial scale must be positive and finite, got ",
              options_.init_scale());
  BRASA_CHECK(options_.growth_interval() > 0, "GradScaler: the growth interval must be > 0, got ",
              options_.growth_interval());
}

Tensor GradScaler::scale(const Tensor& outputs) {
  if (!is_enabled()) return outputs;
  BRASA_CHECK(outputs.defined(), "GradScaler.scale: got an undefined tensor");
  return outputs * full({1}, scale_, TensorOptions().dtype(kFloat).device(outputs.device()));
}

std::vector<Tensor> GradScaler::scale(const std::vector<Tensor>& outputs) {
  std::vector<Tensor> r;
  r.reserve(outputs.size());
  for (const Tensor& t : outputs) r.push_back(scale(t));
  return r;
}

void GradScaler::unscale_(optim::Optimizer& optimizer) {
  if (!is_enabled()) return;
  OptimizerState& state = per_optimizer_[&optimizer];
  BRASA_CHECK_TYPED(RuntimeError, state.stage != Stage::Unscaled,
                    "GradScaler.unscale_: unscale_() has already been called on this optimizer "
                    "since the last update()");
  BRASA_CHECK_TYPED(RuntimeError, state.stage != Stage::Stepped,
                    "GradScaler.unscale_: unscale_() is being called after step()");
  // Python's inv_scale: the reciprocal in double, rounded to float.
  const float inv_scale = static_cast<float>(1.0 / static_cast<double>(scale_));
  NoGradGuard no_grad;
  bool found_inf = false;
  for (const auto& group : optimizer.param_groups()) {
    for (const Tensor& p : group.params()) {
      Tensor g = p.grad();
      if (!g.defined()) continue;
      BRASA_CHECK(g.scalar_type() != kHalf,
                  "GradScaler.unscale_: attempting to unscale Float16 gradients (of a parameter "
                  "of shape ",
                  p.sizes(), "); keep the parameters in float32");
      if (!g.isfinite().all().item<bool>()) found_inf = true;
      g.mul_(static_cast<double>(inv_scale));
    }
  }
  state.found_inf = found_inf;
  state.stage = Stage::Unscaled;
}

bool GradScaler::step(optim::Optimizer& optimizer) {
  if (!is_enabled()) {
    optimizer.step();
    return true;
  }
  BRASA_CHECK_TYPED(RuntimeError, per_optimizer_[&optimizer].stage != Stage::Stepped,
                    "GradScaler.step: step() has already been called since the last update()");
  if (per_optimizer_[&optimizer].stage == Stage::Ready) unscale_(optimizer);
  OptimizerState& state = per_optimizer_[&optimizer];
  const bool run = !state.found_inf;
  if (run) optimizer.step();
  state.stage = Stage::Stepped;
  return run;
}

void GradScaler::update(std::optional<double> new_scale) {
  if (!is_enabled()) return;
  if (new_scale) {
    BRASA_CHECK(*new_scale > 0.0, "GradScaler.update: new_scale must be positive, got ",
                *new_scale);
    scale_ = static_cast<float>(*new_scale);
  } else {
    bool any = false, found_inf = false;
    for (const auto& [opt, state] : per_optimizer_) {
      if (state.stage == Stage::Ready) continue;
      any = true;
      found_inf = found_inf || state.found_inf;
    }
    BRASA_CHECK_TYPED(RuntimeError, any,
                      "GradScaler.update: no inf checks were recorded prior to update(); call "
                      "step() or unscale_() first");
    // PyTorch's _amp_update_scale_, in float like its scale tensor.
    if (found_inf) {
      scale_ = static_cast<float>(static_cast<double>(scale_) * options_.backoff_factor());
      growth_tracker_ = 0;
    } else if (growth_tracker_ + 1 == options_.growth_interval()) {
      const float grown =
          static_cast<float>(static_cast<double>(scale_) * options_.growth_factor());
      if (std::isfinite(grown)) scale_ = grown;
      growth_tracker_ = 0;
    } else {
      ++growth_tracker_;
    }
  }
  per_optimizer_.clear();
}

double GradScaler::get_scale() const { return is_enabled() ? static_cast<double>(scale_) : 1.0; }

GenericDict GradScaler::state_dict() const {
  GenericDict d;
  if (!is_enabled()) return d;
  d.insert("scale", get_scale());
  d.insert("growth_factor", options_.growth_factor());
  d.insert("backoff_factor", options_.backoff_factor());
  d.insert("growth_interval", options_.growth_interval());
  d.insert("_growth_tracker", growth_tracker_);
  return d;
}

void GradScaler::load_state_dict(const GenericDict& state) {
  if (!is_enabled()) return;
  BRASA_CHECK_TYPED(RuntimeError, !state.empty(),
                    "GradScaler.load_state_dict: the state dict is empty, possibly because it "
                    "was saved from a disabled GradScaler");
  scale_ = static_cast<float>(state.at("scale").toDouble());
  options_.growth_factor(state.at("growth_factor").toDouble());
  options_.backoff_factor(state.at("backoff_factor").toDouble());
  options_.growth_interval(state.at("growth_interval").toInt());
  growth_tracker_ = state.at("_growth_tracker").toInt();
}

}  // namespace brasa::amp
