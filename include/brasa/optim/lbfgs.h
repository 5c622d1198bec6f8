#pragma once
// L-BFGS (PyTorch's port of minFunc): a closure re-evaluates the loss; fixed step lr or a strong
// Wolfe line search (line_search_fn = "strong_wolfe"). One parameter group only.

#include <deque>
#include <optional>
#include <string>

#include "brasa/core/options_arg.h"
#include "brasa/optim/optimizer.h"

namespace brasa::optim {

struct BRASA_API LBFGSOptions : public OptimizerCloneableOptions<LBFGSOptions> {
  LBFGSOptions(double lr = 1);  // NOLINT(google-explicit-constructor)
  BRASA_ARG(double, lr) = 1;
  BRASA_ARG(int64_t, max_iter) = 20;
  BRASA_ARG(std::optional<int64_t>, max_eval) = std::nullopt;
  BRASA_ARG(double, tolerance_grad) = 1e-7;
  BRASA_ARG(double, tolerance_change) = 1e-9;
  BRASA_ARG(int64_t, history_size) = 100;
  BRASA_ARG(std::optional<std::string>, line_search_fn) = std::nullopt;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void save(StateEntry& entry) const override;
  void load(const StateEntry& entry) override;
  friend BRASA_API bool operator==(const LBFGSOptions& a, const LBFGSOptions& b);
};

/// The state of the whole run, kept under the first parameter; flat tensors span all parameters.
struct BRASA_API LBFGSParamState : public OptimizerCloneableParamState<LBFGSParamState> {
  BRASA_ARG(int64_t, func_evals) = 0;
  BRASA_ARG(int64_t, n_iter) = 0;
  BRASA_ARG(double, t) = 0;
  BRASA_ARG(double, prev_loss) = 0;
  BRASA_ARG(Tensor, d) = {};
  BRASA_ARG(Tensor, H_diag) = {};
  BRASA_ARG(Tensor, prev_flat_grad) = {};
  BRASA_ARG(std::deque<Tensor>, old_dirs);
  BRASA_ARG(std::deque<Tensor>, old_stps);
  BRASA_ARG(std::deque<Tensor>, ro);
  BRASA_ARG(std::optional<std::vector<Tensor>>, al) = std::nullopt;

 public:
  void save(StateEntry& entry) const override;
  void load(const StateEntry& entry) override;
};

extern template class OptimizerCloneableOptions<LBFGSOptions>;
extern template class OptimizerCloneableParamState<LBFGSParamState>;

class BRASA_API LBFGS : public Optimizer {
 public:
  /// Throws ValueError with more than one parameter group.
  explicit LBFGS(std::vector<OptimizerParamGroup> param_groups, LBFGSOptions defaults = {});
  explicit LBFGS(std::vector<Tensor> params, LBFGSOptions defaults = {});
  /// Runs up to max_iter iterations; returns the closure's first loss. Throws ValueError without
  /// a closure or with an unknown line_search_fn.
  Tensor step(LossClosure closure) override;

 protected:
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
  std::vector<LegacyField> legacy_fields() const override;

 private:
  Tensor gather_flat_grad() const;
  void add_grad(double step_size, const Tensor& update);
  std::vector<Tensor> clone_params() const;
  void set_params(const std::vector<Tensor>& values);
  /// Loss and flat gradient at x + t * d; the parameters are restored to x afterwards.
  std::pair<double, Tensor> directional_evaluate(const LossClosure& closure,
                                                 const std::vector<Tensor>& x, double t,
                                                 const Tensor& d);
};

}  // namespace brasa::optim
