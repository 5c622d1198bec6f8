// L-BFGS step: two-loop recursion over the stored curvature pairs, then a fixed step or a strong
// Wolfe line search; the run's state lives under the first parameter.
#include "brasa/optim/lbfgs.h"

#include <cmath>

#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "optim/closure.h"
#include "optim/line_search.h"

namespace brasa::optim {

LBFGSOptions::LBFGSOptions(double lr) : lr_(lr) {}

void LBFGSOptions::save(StateEntry& e) const {
  e.scalars["lr"] = lr();
  e.scalars["max_iter"] = static_cast<double>(max_iter());
  if (max_eval()) e.scalars["max_eval"] = static_cast<double>(*max_eval());
  e.scalars["tolerance_grad"] = tolerance_grad();
  e.scalars["tolerance_change"] = tolerance_change();
  e.scalars["history_size"] = static_cast<double>(history_size());
  if (line_search_fn()) e.strings["line_search_fn"] = *line_search_fn();
}

void LBFGSOptions::load(const StateEntry& e) {
  lr(e.scalars.at("lr"));
  max_iter(static_cast<int64_t>(e.scalars.at("max_iter")));
  auto me = e.scalars.find("max_eval");
  max_eval(me != e.scalars.end() ? std::optional<int64_t>(static_cast<int64_t>(me->second))
                                 : std::nullopt);
  tolerance_grad(e.scalars.at("tolerance_grad"));
  tolerance_change(e.scalars.at("tolerance_change"));
  history_size(static_cast<int64_t>(e.scalars.at("history_size")));
  auto ls = e.strings.find("line_search_fn");
  line_search_fn(ls != e.strings.end() ? std::optional<std::string>(ls->second) : std::nullopt);
}

bool operator==(const LBFGSOptions& a, const LBFGSOptions& b) {
  return a.lr() == b.lr() && a.max_iter() == b.max_iter() && a.max_eval() == b.max_eval() &&
         a.tolerance_grad() == b.tolerance_grad() && a.tolerance_change() == b.tolerance_change() &&
         a.history_size() == b.history_size() && a.line_search_fn() == b.line_search_fn();
}

void LBFGSParamState::save(StateEntry& e) const {
  e.scalars["func_evals"] = static_cast<double>(func_evals());
  e.scalars["n_iter"] = static_cast<double>(n_iter());
  e.scalars["t"] = t();
  e.scalars["prev_loss"] = prev_loss();
  if (d().defined()) e.buffers["d"] = d();
  if (H_diag().defined()) e.buffers["H_diag"] = H_diag();
  if (prev_flat_grad().defined()) e.buffers["prev_flat_grad"] = prev_flat_grad();
  e.tensor_lists["old_dirs"] = {old_dirs().begin(), old_dirs().end()};
  e.tensor_lists["old_stps"] = {old_stps().begin(), old_stps().end()};
  e.tensor_lists["ro"] = {ro().begin(), ro().end()};
  if (al()) e.tensor_lists["al"] = *al();
}

void LBFGSParamState::load(const StateEntry& e) {
  func_evals(static_cast<int64_t>(e.scalars.at("func_evals")));
  n_iter(static_cast<int64_t>(e.scalars.at("n_iter")));
  t(e.scalars.at("t"));
  prev_loss(e.scalars.at("prev_loss"));
  auto buffer = [&](const char* name) {
    auto it = e.buffers.find(name);
    return it != e.buffers.end() ? it->second : Tensor();
  };
  d(buffer("d"));
  H_diag(buffer("H_diag"));
  prev_flat_grad(buffer("prev_flat_grad"));
  auto list = [&](const char* name) {
    auto it = e.tensor_lists.find(name);
    return it != e.tensor_lists.end() ? std::deque<Tensor>(it->second.begin(), it->second.end())
                                      : std::deque<Tensor>();
  };
  old_dirs(list("old_dirs"));
  old_stps(list("old_stps"));
  ro(list("ro"));
  auto it = e.tensor_lists.find("al");
  al(it != e.tensor_lists.end() ? std::optional<std::vector<Tensor>>(it->second) : std::nullopt);
}

LBFGS::LBFGS(std::vector<OptimizerParamGroup> param_groups, LBFGSOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<LBFGSOptions>(defaults)) {
  BRASA_CHECK(param_groups_.size() == 1,
              "LBFGS doesn't support per-parameter options (parameter groups)");
  if (!defaults.max_eval()) {
    const int64_t max_eval = defaults.max_iter() * 5 / 4;
    static_cast<LBFGSOptions&>(param_groups_[0].options()).max_eval(max_eval);
    static_cast<LBFGSOptions&>(*defaults_).max_eval(max_eval);
  }
}

LBFGS::LBFGS(std::vector<Tensor> params, LBFGSOptions defaults)
    : LBFGS(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, defaults) {}

Tensor LBFGS::gather_flat_grad() const {
  std::vector<Tensor> views;
  for (const auto& p : param_groups_[0].params()) {
    views.push_back(p.grad().defined() ? p.grad().reshape({-1}) : zeros({p.numel()}, p.options()));
  }
  return cat(views, 0);
}

void LBFGS::add_grad(double step_size, const Tensor& update) {
  int64_t offset = 0;
  for (const auto& p : param_groups_[0].params()) {
    const int64_t n = p.numel();
    p.add_(update.slice(0, offset, offset + n).view_as(p), step_size);
    offset += n;
  }
}

std::vector<Tensor> LBFGS::clone_params() const {
  std::vector<Tensor> out;
  for (const auto& p : param_groups_[0].params()) out.push_back(p.clone());
  return out;
}

void LBFGS::set_params(const std::vector<Tensor>& values) {
  const auto& params = param_groups_[0].params();
  for (size_t i = 0; i < params.size(); ++i) params[i].copy_(values[i]);
}

std::pair<double, Tensor> LBFGS::directional_evaluate(const LossClosure& closure,
                                                      const std::vector<Tensor>& x, double t,
                                                      const Tensor& d) {
  add_grad(t, d);
  const double loss = detail::run_closure(closure).item<double>();
  Tensor flat_grad = gather_flat_grad();
  set_params(x);
  return {loss, flat_grad};
}

Tensor LBFGS::step(LossClosure closure) {
  BRASA_CHECK(closure != nullptr, "LBFGS::step: a closure that returns the loss is required");
  NoGradGuard no_grad;
  const auto& o = static_cast<const LBFGSOptions&>(param_groups_[0].options());
  const auto& fn = o.line_search_fn();
  BRASA_CHECK(!fn || *fn == "strong_wolfe", "LBFGS: only 'strong_wolfe' is supported, got '", *fn,
              "'");
  const Tensor& first = param_groups_[0].params().at(0);
  auto& slot = state_[param_key(first)];
  if (!slot) slot = std::make_unique<LBFGSParamState>();
  auto& s = static_cast<LBFGSParamState&>(*slot);

  Tensor orig_loss = detail::run_closure(closure);
  double loss = orig_loss.item<double>();
  int64_t current_evals = 1;
  s.func_evals(s.func_evals() + 1);
  Tensor flat_grad = gather_flat_grad();
  if (flat_grad.abs().max().item<double>() <= o.tolerance_grad()) return orig_loss;

  Tensor d = s.d(), H_diag = s.H_diag(), prev_flat_grad = s.prev_flat_grad();
  double t = s.t(), prev_loss = s.prev_loss();
  auto& old_dirs = s.old_dirs();
  auto& old_stps = s.old_stps();
  auto& ro = s.ro();
  const auto history = static_cast<size_t>(o.history_size());
  int64_t n_iter = 0;
  while (n_iter < o.max_iter()) {
    ++n_iter;
    s.n_iter(s.n_iter() + 1);
    if (s.n_iter() == 1) {
      d = flat_grad.neg();
      old_dirs.clear();
      old_stps.clear();
      ro.clear();
      H_diag = ones(IntArrayRef{}, flat_grad.options());
    } else {
      Tensor y = flat_grad.sub(prev_flat_grad);
      Tensor step_vec = d.mul(t);
      Tensor ys = y.dot(step_vec);
      if (ys.item<double>() > 1e-10) {
        if (old_dirs.size() == history) {
          old_dirs.pop_front();
          old_stps.pop_front();
          ro.pop_front();
        }
        old_dirs.push_back(y);
        old_stps.push_back(step_vec);
        ro.push_back(ys.reciprocal());
        H_diag = ys / y.dot(y);
      }
      // Two-loop recursion: d = -H * g with H the L-BFGS inverse-Hessian estimate.
      if (!s.al()) s.al(std::vector<Tensor>(history));
      auto& al = *s.al();
      Tensor q = flat_grad.neg();
      for (size_t i = old_dirs.size(); i-- > 0;) {
        al[i] = old_stps[i].dot(q) * ro[i];
        q.add_(old_dirs[i], -al[i].item<double>());
      }
      d = q.mul(H_diag);
      for (size_t i = 0; i < old_dirs.size(); ++i) {
        Tensor be_i = old_dirs[i].dot(d) * ro[i];
        d.add_(old_stps[i], (al[i] - be_i).item<double>());
      }
    }
    if (!prev_flat_grad.defined()) {
      prev_flat_grad = flat_grad.clone();
    } else {
      prev_flat_grad.copy_(flat_grad);
    }
    prev_loss = loss;
    t = s.n_iter() == 1 ? std::min(1., 1. / flat_grad.abs().sum().item<double>()) * o.lr() : o.lr();
    const double gtd = flat_grad.dot(d).item<double>();
    if (gtd > -o.tolerance_change()) break;

    int64_t ls_func_evals = 0;
    bool opt_cond = false;
    if (fn) {
      const std::vector<Tensor> x_init = clone_params();
      auto obj = [&](double step_t) { return directional_evaluate(closure, x_init, step_t, d); };
      auto r = detail::strong_wolfe(obj, t, d, loss, flat_grad, gtd);
      loss = r.loss;
      flat_grad = r.flat_grad;
      t = r.t;
      ls_func_evals = r.func_evals;
      add_grad(t, d);
      opt_cond = flat_grad.abs().max().item<double>() <= o.tolerance_grad();
    } else {
      add_grad(t, d);
      if (n_iter != o.max_iter()) {
        loss = detail::run_closure(closure).item<double>();
        flat_grad = gather_flat_grad();
        opt_cond = flat_grad.abs().max().item<double>() <= o.tolerance_grad();
        ls_func_evals = 1;
      }
    }
    current_evals += ls_func_evals;
    s.func_evals(s.func_evals() + ls_func_evals);
    if (n_iter == o.max_iter()) break;
    if (current_evals >= o.max_eval().value_or(o.max_iter() * 5 / 4)) break;
    if (opt_cond) break;
    if (d.mul(t).abs().max().item<double>() <= o.tolerance_change()) break;
    if (std::abs(loss - prev_loss) < o.tolerance_change()) break;
  }
  s.d(d);
  s.t(t);
  s.H_diag(H_diag);
  s.prev_flat_grad(prev_flat_grad);
  s.prev_loss(prev_loss);
  return orig_loss;
}

// Note [Optimizer instantiations]
template class OptimizerCloneableOptions<LBFGSOptions>;
template class OptimizerCloneableParamState<LBFGSParamState>;

std::vector<LegacyField> LBFGS::legacy_fields() const {
  return {{"d", "d", LegacyField::kBuffer},
          {"H_diag", "H_diag", LegacyField::kBuffer},
          {"prev_flat_grad", "prev_flat_grad", LegacyField::kBuffer},
          {"t", "t", LegacyField::kScalar},
          {"prev_loss", "prev_loss", LegacyField::kScalar},
          {"old_dirs", "old_dirs", LegacyField::kList},
          {"old_stps", "old_stps", LegacyField::kList}};
}

std::unique_ptr<OptimizerParamState> LBFGS::make_param_state() const {
  return std::make_unique<LBFGSParamState>();
}

}  // namespace brasa::optim
