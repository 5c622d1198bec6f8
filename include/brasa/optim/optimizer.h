#pragma once
// Optimizer base (libtorch's torch::optim::Optimizer): parameter groups with their own options,
// per-parameter state keyed by the parameter, zero_grad, step(closure), and an in-memory
// state_dict() / load_state_dict() that a serializer can write.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "brasa/core/tensor.h"

namespace brasa::serialize {
class OutputArchive;
class InputArchive;
}  // namespace brasa::serialize

namespace brasa::optim {

/// Named tensors and scalars of one parameter's state or one group's options. `tensors` must have
/// the parameter's shape (checked on load); `buffers` and `tensor_lists` may have any shape.
struct BRASA_API StateEntry {
  std::map<std::string, Tensor> tensors;
  std::map<std::string, Tensor> buffers;
  std::map<std::string, std::vector<Tensor>> tensor_lists;
  std::map<std::string, double> scalars;
  std::map<std::string, std::string> strings;
};

/// One parameter group in a state dict: its options and the indices of its parameters (counted
/// over all groups, in order, like PyTorch's state_dict()).
struct BRASA_API GroupEntry {
  std::vector<int64_t> params;
  StateEntry options;
};

/// PyTorch's optimizer.state_dict(): state per parameter index plus the groups.
struct BRASA_API OptimizerStateDict {
  std::map<int64_t, StateEntry> state;
  std::vector<GroupEntry> param_groups;
};

/// Per-parameter state of an optimizer (momentum buffers, moments, step counts).
class BRASA_API OptimizerParamState {
 public:
  virtual ~OptimizerParamState() = default;
  virtual std::unique_ptr<OptimizerParamState> clone() const;
  virtual void save(StateEntry& entry) const;
  virtual void load(const StateEntry& entry);
};

// Note [Optimizer instantiations]
// Each optimizer's options and state derive from these templates, whose clone() and vtable a
// program would otherwise instantiate in every translation unit that includes the optimizer
// headers. The library instantiates them once, in each optimizer's .cpp, and each optimizer's
// header declares them `extern template` (as Note [Module instantiations] does for modules).
// clone() is defined outside the class so that the library's copies are exported.
/// Whether two states hold the same values: what their save() writes, tensors compared with
/// equal() (two undefined tensors are the same).
BRASA_API bool same_param_state(const OptimizerParamState& a, const OptimizerParamState& b);

template <typename Derived>
class BRASA_API OptimizerCloneableParamState : public OptimizerParamState {
 public:
  std::unique_ptr<OptimizerParamState> clone() const override;
  /// libtorch's `state == other_state` for every optimizer's state type.
  friend bool operator==(const Derived& a, const Derived& b) { return same_param_state(a, b); }
};
template <typename Derived>
std::unique_ptr<OptimizerParamState> OptimizerCloneableParamState<Derived>::clone() const {
  return std::make_unique<Derived>(static_cast<const Derived&>(*this));
}

// Note [Legacy optimizer archives]: libtorch before 1.5 saved an optimizer as lists of
// per-parameter tensors ("exp_average_buffers/size", "exp_average_buffers/0", ...) and, for LBFGS,
// loose tensors, and 1.13 still loads them with a warning. Optimizer::load does the same when an
// archive has no "state": each optimizer's legacy_fields() says where those tensors go in its
// StateEntry (the parameters' order is the first group's); the rest keeps a fresh state's values.
struct LegacyField {
  enum Kind {
    kPerParam,      // "<key>/size", "<key>/<i>": tensors[state_key] of parameter i
    kPerParamStep,  // the same, each a 0-d tensor: scalars[state_key]
    kBuffer,        // "<key>": buffers[state_key] of the first parameter's state
    kScalar,        // "<key>", a 0-d tensor: scalars[state_key] of the first parameter's state
    kList,          // "<key>/size", "<key>/<i>": tensor_lists[state_key] of the first parameter
  };
  const char* archive_key;
  const char* state_key;
  Kind kind;
};

/// Hyper-parameters of a group; every optimizer's options have an lr.
class BRASA_API OptimizerOptions {
 public:
  virtual ~OptimizerOptions() = default;
  virtual std::unique_ptr<OptimizerOptions> clone() const;
  virtual double get_lr() const;
  virtual void set_lr(double lr);
  virtual void save(StateEntry& entry) const;
  virtual void load(const StateEntry& entry);
};

/// Options whose clone() copies the derived options (Note [Optimizer instantiations]).
template <typename Derived>
class BRASA_API OptimizerCloneableOptions : public OptimizerOptions {
 public:
  std::unique_ptr<OptimizerOptions> clone() const override;
};
template <typename Derived>
std::unique_ptr<OptimizerOptions> OptimizerCloneableOptions<Derived>::clone() const {
  return std::make_unique<Derived>(static_cast<const Derived&>(*this));
}

/// Parameters sharing options; a group built without options takes the optimizer's defaults.
class BRASA_API OptimizerParamGroup {
 public:
  OptimizerParamGroup(const OptimizerParamGroup& other);
  OptimizerParamGroup& operator=(const OptimizerParamGroup& other);
  OptimizerParamGroup(OptimizerParamGroup&&) noexcept;
  OptimizerParamGroup& operator=(OptimizerParamGroup&&) noexcept;
  ~OptimizerParamGroup();
  OptimizerParamGroup(std::vector<Tensor> params);  // NOLINT(google-explicit-constructor)
  OptimizerParamGroup(std::vector<Tensor> params, std::unique_ptr<OptimizerOptions> options);

  bool has_options() const { return options_ != nullptr; }
  /// Throws ValueError when the group has no options.
  OptimizerOptions& options();
  const OptimizerOptions& options() const;
  void set_options(std::unique_ptr<OptimizerOptions> options) { options_ = std::move(options); }
  std::vector<Tensor>& params() { return params_; }
  const std::vector<Tensor>& params() const { return params_; }

 protected:
  std::vector<Tensor> params_;
  std::unique_ptr<OptimizerOptions> options_;
};

class BRASA_API Optimizer {
 public:
  using LossClosure = std::function<Tensor()>;
  using StateMap = std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>>;

  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;
  // Out of line (optimizer.cpp): a program does not compile the members' moves and destructors.
  Optimizer(Optimizer&&) noexcept;
  virtual ~Optimizer();

  Optimizer(std::vector<OptimizerParamGroup> param_groups,
            std::unique_ptr<OptimizerOptions> defaults);
  Optimizer(std::vector<Tensor> parameters, std::unique_ptr<OptimizerOptions> defaults);

  /// Appends a group (options default to a copy of defaults()); throws ValueError when a
  /// parameter is already in another group or is not a leaf.
  void add_param_group(const OptimizerParamGroup& param_group);
  /// Appends parameters to the first group.
  void add_parameters(const std::vector<Tensor>& parameters);
  /// Clears every parameter's gradient: zeroed in place, as libtorch 1.13's zero_grad(), or
  /// reset with set_to_none (libtorch 2.x's default).
  void zero_grad(bool set_to_none = false);
  /// One optimisation step; the closure (re)computes the loss with gradients. Returns its loss,
  /// or an undefined tensor without a closure.
  virtual Tensor step(LossClosure closure = nullptr) = 0;

  /// The old single-group interface: the first group's parameters, the number of parameters in all
  /// groups. Each call warns that it will be removed, as libtorch 1.13's do (Note [Old optimizer
  /// interface]); add_parameters() too.
  const std::vector<Tensor>& parameters() const noexcept;
  std::vector<Tensor>& parameters() noexcept;
  size_t size() const noexcept;
  OptimizerOptions& defaults() noexcept { return *defaults_; }
  const OptimizerOptions& defaults() const noexcept { return *defaults_; }
  std::vector<OptimizerParamGroup>& param_groups() noexcept { return param_groups_; }
  const std::vector<OptimizerParamGroup>& param_groups() const noexcept { return param_groups_; }
  /// State per parameter, keyed by param_key(parameter).
  StateMap& state() noexcept { return state_; }
  const StateMap& state() const noexcept { return state_; }

  /// A deep copy of the state and the group options, parameters named by index.
  OptimizerStateDict state_dict() const;
  /// Restores state_dict(); throws ValueError (naming the parameter index and both shapes) when
  /// the groups, parameter counts or state shapes differ from this optimizer's.
  void load_state_dict(const OptimizerStateDict& state_dict);
  /// Writes state_dict() into `archive` (keys "state" and "param_groups"; see
  /// optimizer_state_to_ivalue) and reads it back with load_state_dict's checks.
  virtual void save(serialize::OutputArchive& archive) const;
  virtual void load(serialize::InputArchive& archive);

 protected:
  /// A fresh, empty state of this optimizer's kind (for load_state_dict). An optimizer written for
  /// libtorch defines only step(); loading per-parameter state into it throws NotImplementedError.
  virtual std::unique_ptr<OptimizerParamState> make_param_state() const;

  /// Where the tensors of libtorch's old archives go (Note [Legacy optimizer archives]).
  virtual std::vector<LegacyField> legacy_fields() const { return {}; }

  std::vector<OptimizerParamGroup> param_groups_;
  StateMap state_;
  std::unique_ptr<OptimizerOptions> defaults_;

 private:
  void load_legacy(serialize::InputArchive& archive);
};

/// The key of a parameter in Optimizer::state() (its TensorImpl's address, like libtorch).
BRASA_API std::string param_key(const Tensor& param);

}  // namespace brasa::optim
