// Optimizer base: parameter groups, zero_grad, and the in-memory state dict.
#include "brasa/optim/optimizer.h"

#include <sstream>
#include <unordered_set>

#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "brasa/ops/reduce.h"

namespace brasa::optim {
namespace {
// Note [Old optimizer interface]: size(), parameters() and add_parameters() predate parameter
// groups; libtorch 1.13 warns at every call that they are going away, and so does brasa (programs
// and libtorch's tests count the warning). brasa's own code uses param_groups().
void warn_old_interface(const char* method, const char* instead) {
  warn(std::string("Optimizer::") + method + " is the old single-group interface and will be " +
       "removed (as in libtorch); use " + instead);
}
}  // namespace

std::unique_ptr<OptimizerParamState> OptimizerParamState::clone() const {
  BRASA_THROW(NotImplementedError, "OptimizerParamState::clone: not implemented for this state");
}
void OptimizerParamState::save(StateEntry&) const {}
void OptimizerParamState::load(const StateEntry&) {}

namespace {
bool same_tensor(const Tensor& a, const Tensor& b) {
  return a.defined() == b.defined() && (!a.defined() || equal(a, b));
}
bool same_tensors(const std::map<std::string, Tensor>& a, const std::map<std::string, Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
    if (i->first != j->first || !same_tensor(i->second, j->second)) return false;
  return true;
}
}  // namespace

bool same_param_state(const OptimizerParamState& a, const OptimizerParamState& b) {
  StateEntry x, y;
  a.save(x);
  b.save(y);
  if (x.scalars != y.scalars || x.strings != y.strings || !same_tensors(x.tensors, y.tensors) ||
      !same_tensors(x.buffers, y.buffers) || x.tensor_lists.size() != y.tensor_lists.size())
    return false;
  for (auto i = x.tensor_lists.begin(), j = y.tensor_lists.begin(); i != x.tensor_lists.end();
       ++i, ++j) {
    if (i->first != j->first || i->second.size() != j->second.size()) return false;
    for (size_t k = 0; k < i->second.size(); ++k)
      if (!same_tensor(i->second[k], j->second[k])) return false;
  }
  return true;
}

std::unique_ptr<OptimizerOptions> OptimizerOptions::clone() const {
  BRASA_THROW(NotImplementedError, "OptimizerOptions::clone: not implemented for these options");
}
double OptimizerOptions::get_lr() const {
  BRASA_THROW(NotImplementedError, "OptimizerOptions::get_lr: not implemented for these options");
}
void OptimizerOptions::set_lr(double) {
  BRASA_THROW(NotImplementedError, "OptimizerOptions::set_lr: not implemented for these options");
}
void OptimizerOptions::save(StateEntry&) const {}
void OptimizerOptions::load(const StateEntry&) {}

OptimizerParamGroup::OptimizerParamGroup(const OptimizerParamGroup& other)
    : params_(other.params_), options_(other.has_options() ? other.options().clone() : nullptr) {}

OptimizerParamGroup& OptimizerParamGroup::operator=(const OptimizerParamGroup& other) {
  if (this != &other) {
    params_ = other.params_;
    options_ = other.has_options() ? other.options().clone() : nullptr;
  }
  return *this;
}

OptimizerParamGroup::OptimizerParamGroup(OptimizerParamGroup&&) noexcept = default;
OptimizerParamGroup& OptimizerParamGroup::operator=(OptimizerParamGroup&&) noexcept = default;
OptimizerParamGroup::~OptimizerParamGroup() = default;
OptimizerParamGroup::OptimizerParamGroup(std::vector<Tensor> params) : params_(std::move(params)) {}

OptimizerParamGroup::OptimizerParamGroup(std::vector<Tensor> params,
                                         std::unique_ptr<OptimizerOptions> options)
    : params_(std::move(params)), options_(std::move(options)) {}

OptimizerOptions& OptimizerParamGroup::options() {
  BRASA_CHECK(options_ != nullptr, "OptimizerParamGroup: the group has no options");
  return *options_;
}

const OptimizerOptions& OptimizerParamGroup::options() const {
  BRASA_CHECK(options_ != nullptr, "OptimizerParamGroup: the group has no options");
  return *options_;
}

std::string param_key(const Tensor& param) {
  std::ostringstream s;
  s << static_cast<const void*>(param.unsafeGetTensorImpl());
  return s.str();
}

Optimizer::Optimizer(Optimizer&&) noexcept = default;
Optimizer::~Optimizer() = default;
Optimizer::Optimizer(std::vector<OptimizerParamGroup> param_groups,
                     std::unique_ptr<OptimizerOptions> defaults)
    : defaults_(std::move(defaults)) {
  for (const auto& group : param_groups) add_param_group(group);
}

Optimizer::Optimizer(std::vector<Tensor> parameters, std::unique_ptr<OptimizerOptions> defaults)
    : Optimizer(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(parameters))},
                std::move(defaults)) {}

void Optimizer::add_param_group(const OptimizerParamGroup& param_group) {
  std::unordered_set<const TensorImpl*> seen;
  for (const auto& group : param_groups_)
    for (const auto& p : group.params()) seen.insert(p.unsafeGetTensorImpl());
  for (const auto& p : param_group.params()) {
    BRASA_CHECK(p.defined(), "Optimizer: a parameter is an undefined tensor");
    BRASA_CHECK(p.is_leaf(), "Optimizer: can't optimize a non-leaf Tensor");
    BRASA_CHECK(seen.insert(p.unsafeGetTensorImpl()).second,
                "Optimizer: some parameters appear in more than one parameter group");
  }
  OptimizerParamGroup group(param_group.params(), param_group.has_options()
                                                      ? param_group.options().clone()
                                                      : defaults_->clone());
  param_groups_.push_back(std::move(group));
}

void Optimizer::add_parameters(const std::vector<Tensor>& parameters) {
  warn_old_interface("add_parameters()", "add_param_group()");
  BRASA_CHECK(!param_groups_.empty(), "Optimizer::add_parameters: the optimizer has no group");
  auto& params = param_groups_[0].params();
  params.insert(params.end(), parameters.begin(), parameters.end());
}

void Optimizer::zero_grad(bool set_to_none) {
  for (auto& group : param_groups_) {
    for (auto& p : group.params()) {
      Tensor& grad = p.mutable_grad();
      if (!grad.defined()) continue;
      if (set_to_none) {
        grad.reset();
      } else {
        if (grad.grad_fn()) {
          grad = grad.detach();
        } else {
          grad.requires_grad_(false);
        }
        grad.zero_();
      }
    }
  }
}

const std::vector<Tensor>& Optimizer::parameters() const noexcept {
  warn_old_interface("parameters()", "param_groups()");
  return param_groups_.at(0).params();
}

std::vector<Tensor>& Optimizer::parameters() noexcept {
  warn_old_interface("parameters()", "param_groups()");
  return param_groups_.at(0).params();
}

size_t Optimizer::size() const noexcept {
  warn_old_interface("size()", "param_groups()");
  size_t n = 0;
  for (const auto& group : param_groups_) n += group.params().size();
  return n;
}

OptimizerStateDict Optimizer::state_dict() const {
  OptimizerStateDict dict;
  int64_t index = 0;
  for (const auto& group : param_groups_) {
    GroupEntry entry;
    group.options().save(entry.options);
    for (const auto& p : group.params()) {
      auto it = state_.find(param_key(p));
      if (it != state_.end()) {
        StateEntry saved;
        it->second->save(saved);
        for (auto& [name, t] : saved.tensors) t = t.clone();
        for (auto& [name, t] : saved.buffers) t = t.clone();
        for (auto& [name, list] : saved.tensor_lists)
          for (auto& t : list) t = t.clone();
        dict.state.emplace(index, std::move(saved));
      }
      entry.params.push_back(index++);
    }
    dict.param_groups.push_back(std::move(entry));
  }
  return dict;
}

namespace {

std::vector<Tensor> params_by_index(const std::vector<OptimizerParamGroup>& groups,
                                    const OptimizerStateDict& dict) {
  BRASA_CHECK(groups.size() == dict.param_groups.size(),
              "Optimizer::load_state_dict: the state has ", dict.param_groups.size(),
              " parameter groups but the optimizer has ", groups.size());
  std::vector<Tensor> by_index;
  for (size_t g = 0; g < groups.size(); ++g) {
    const auto& params = groups[g].params();
    const auto& indices = dict.param_groups[g].params;
    BRASA_CHECK(params.size() == indices.size(), "Optimizer::load_state_dict: parameter group ", g,
                " has ", indices.size(), " parameters in the state but ", params.size(),
                " in the optimizer");
    for (size_t i = 0; i < params.size(); ++i) {
      const auto index = static_cast<size_t>(indices[i]);
      BRASA_CHECK(indices[i] >= 0, "Optimizer::load_state_dict: negative parameter index");
      if (by_index.size() <= index) by_index.resize(index + 1);
      by_index[index] = params[i];
    }
  }
  return by_index;
}

}  // namespace

void Optimizer::load_state_dict(const OptimizerStateDict& dict) {
  const std::vector<Tensor> by_index = params_by_index(param_groups_, dict);
  // Check everything before changing anything, so a failed load leaves the optimizer intact.
  for (const auto& [index, entry] : dict.state) {
    BRASA_CHECK(index >= 0 && static_cast<size_t>(index) < by_index.size() &&
                    by_index[static_cast<size_t>(index)].defined(),
                "Optimizer::load_state_dict: the state names parameter ", index,
                " which the optimizer does not have");
    const Tensor& p = by_index[static_cast<size_t>(index)];
    for (const auto& [name, t] : entry.tensors) {
      BRASA_CHECK(!t.defined() || t.sizes() == p.sizes(), "Optimizer::load_state_dict: state '",
                  name, "' of parameter ", index, " has shape ", t.sizes(),
                  " but the parameter has shape ", p.sizes());
    }
  }
  for (size_t g = 0; g < param_groups_.size(); ++g)
    param_groups_[g].options().load(dict.param_groups[g].options);
  state_.clear();
  for (const auto& [index, entry] : dict.state) {
    const Tensor& p = by_index[static_cast<size_t>(index)];
    StateEntry copy = entry;
    for (auto& [name, t] : copy.tensors)
      if (t.defined()) t = t.to(p.scalar_type()).clone();
    for (auto& [name, t] : copy.buffers)
      if (t.defined()) t = t.clone();
    for (auto& [name, list] : copy.tensor_lists)
      for (auto& t : list) t = t.clone();
    auto state = make_param_state();
    state->load(copy);
    state_[param_key(p)] = std::move(state);
  }
}

std::unique_ptr<OptimizerParamState> Optimizer::make_param_state() const {
  BRASA_CHECK_TYPED(NotImplementedError, false,
                    "load_state_dict: this optimizer defines no make_param_state(), so the "
                    "per-parameter state in the state dict cannot be restored into it");
  return nullptr;
}

}  // namespace brasa::optim
