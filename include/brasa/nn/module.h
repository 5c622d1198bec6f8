#pragma once
// brasa::nn::Module (torch::nn::Module): the base of every layer. A module owns named parameters,
// buffers and submodules, in registration order; the recursive accessors name nested entries with
// dotted paths ("layer1.0.weight"). Modules live in std::shared_ptr (register_module, ModuleHolder)
// so that a parent and user code share one submodule.
//
// Note [Module parameters are leaves]
// A parameter is an ordinary leaf tensor with requires_grad set. Operations that change a whole
// model (to(), clone()) replace a parameter's data with set_data, so the tensor object that a user
// or optimizer holds stays the same parameter.

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "brasa/core/device.h"
#include "brasa/core/dtype.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/ordered_dict.h"

namespace brasa::serialize {
class OutputArchive;
class InputArchive;
}  // namespace brasa::serialize

namespace brasa::nn {

template <typename Contained>
class ModuleHolder;
template <typename Derived>
class Cloneable;

namespace detail {
/// Base of every ModuleHolder, to tell holders from modules in templates.
struct ModuleHolderIndicator {};
template <typename T>
inline constexpr bool is_module_holder_v =
    std::is_base_of_v<ModuleHolderIndicator, std::decay_t<T>>;
/// The readable (demangled) name of a type, for error messages ("int", "brasa::Tensor").
BRASA_API std::string type_name(const std::type_info& type);
}  // namespace detail

class BRASA_API Module : public std::enable_shared_from_this<Module> {
 public:
  using ModuleApplyFunction = std::function<void(Module&)>;
  using ConstModuleApplyFunction = std::function<void(const Module&)>;
  using NamedModuleApplyFunction = std::function<void(const std::string&, Module&)>;
  using ConstNamedModuleApplyFunction = std::function<void(const std::string&, const Module&)>;
  using ModulePointerApplyFunction = std::function<void(const std::shared_ptr<Module>&)>;
  using NamedModulePointerApplyFunction =
      std::function<void(const std::string&, const std::shared_ptr<Module>&)>;

  /// A module whose name() is `name` instead of its demangled type name.
  explicit Module(std::string name);
  Module();
  // Defaulted in module.cpp, so that a program does not compile the copies and destructors of
  // the members (OrderedDicts, std::functions) for every module class it includes.
  Module(const Module&);
  Module& operator=(const Module&);
  Module(Module&&) noexcept;
  Module& operator=(Module&&) noexcept;
  virtual ~Module();

  /// The module's name: its constructor argument, else its type name (brasa:: spelled torch::).
  const std::string& name() const noexcept;

  /// A deep copy (parameters and buffers copied, optionally onto `device`); only modules deriving
  /// from Cloneable<T> implement it, others throw NotImplementedError.
  virtual std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const;

  /// Calls fn on this module, then on every descendant (depth first, registration order).
  void apply(const ModuleApplyFunction& fn);
  void apply(const ConstModuleApplyFunction& fn) const;
  /// Named variants pass the dotted path ("" for this module, or name_prefix).
  void apply(const NamedModuleApplyFunction& fn, const std::string& name_prefix = std::string());
  void apply(const ConstNamedModuleApplyFunction& fn,
             const std::string& name_prefix = std::string()) const;
  void apply(const ModulePointerApplyFunction& fn) const;
  void apply(const NamedModulePointerApplyFunction& fn,
             const std::string& name_prefix = std::string()) const;

  /// Defined parameters of this module and (recurse) its descendants, in registration order.
  std::vector<Tensor> parameters(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_buffers(bool recurse = true) const;
  /// This module (when include_self; it must be owned by a shared_ptr) and all descendants.
  std::vector<std::shared_ptr<Module>> modules(bool include_self = true) const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_modules(
      const std::string& name_prefix = std::string(), bool include_self = true) const;
  /// Direct submodules only.
  std::vector<std::shared_ptr<Module>> children() const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_children() const;

  /// Sets training mode on this module and all descendants.
  virtual void train(bool on = true);
  void eval() { train(false); }
  virtual bool is_training() const noexcept { return is_training_; }

  /// Moves/casts every parameter and buffer in place (same tensor objects, Note [Module parameters
  /// are leaves]); to(dtype) only changes floating-point tensors.
  virtual void to(Device device, ScalarType dtype, bool non_blocking = false);
  virtual void to(ScalarType dtype, bool non_blocking = false);
  virtual void to(Device device, bool non_blocking = false);

  /// Resets every parameter's gradient: zero-filled, or undefined with set_to_none (libtorch
  /// 1.13's default is false, as torch 1.13's Python).
  virtual void zero_grad(bool set_to_none = false);

  /// Writes this module's one-line description (no children); overridden by layers.
  virtual void pretty_print(std::ostream& stream) const;
  virtual bool is_serializable() const { return true; }
  /// Writes every parameter and buffer under its dotted name (the layout of PyTorch's
  /// state_dict(), so Python's torch.load + load_state_dict read a torch::save'd module).
  virtual void save(serialize::OutputArchive& archive) const;
  /// Copies every parameter and buffer from `archive` (see nn::load_state_dict, strict): throws one
  /// error listing all missing and unexpected keys and shape mismatches; changes nothing then.
  virtual void load(serialize::InputArchive& archive);

  /// Registers a parameter (undefined allowed: an absent bias); returns the stored tensor.
  /// ValueError for an empty or dotted name or a name already used.
  Tensor& register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  /// Registers a buffer (state that is not trained, e.g. running statistics).
  Tensor& register_buffer(std::string name, Tensor tensor);
  /// Registers a submodule under `name` and returns it.
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name,
                                              std::shared_ptr<ModuleType> module) {
    static_assert(std::is_base_of_v<Module, ModuleType>, "register_module needs a Module");
    register_child(std::move(name), module);
    return module;
  }
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name,
                                              ModuleHolder<ModuleType> module_holder) {
    return register_module(std::move(name), module_holder.ptr());
  }
  /// Replaces the submodule registered under `name` (IndexError when absent).
  template <typename ModuleType>
  std::shared_ptr<ModuleType> replace_module(const std::string& name,
                                             std::shared_ptr<ModuleType> module) {
    replace_child(name, module);
    return module;
  }
  template <typename ModuleType>
  std::shared_ptr<ModuleType> replace_module(const std::string& name,
                                             ModuleHolder<ModuleType> module_holder) {
    return replace_module(name, module_holder.ptr());
  }
  /// Removes the submodule `name` (IndexError when absent).
  void unregister_module(const std::string& name);

  /// This module as a ModuleType (an Impl or its holder type), or nullptr.
  template <typename ModuleType>
  typename ModuleType::ContainedType* as() noexcept {
    return as<typename ModuleType::ContainedType>();
  }
  template <typename ModuleType>
  const typename ModuleType::ContainedType* as() const noexcept {
    return as<typename ModuleType::ContainedType>();
  }
  template <typename ModuleType,
            typename = std::enable_if_t<!detail::is_module_holder_v<ModuleType>>>
  ModuleType* as() noexcept {
    return dynamic_cast<ModuleType*>(this);
  }
  template <typename ModuleType,
            typename = std::enable_if_t<!detail::is_module_holder_v<ModuleType>>>
  const ModuleType* as() const noexcept {
    return dynamic_cast<const ModuleType*>(this);
  }

 private:
  template <typename Derived>
  friend class Cloneable;
  // Containers keep their registries in step with their own lists (pop, insert, clear).
  friend class ModuleListImpl;
  friend class ModuleDictImpl;
  friend class ParameterDictImpl;

  void register_child(std::string name, std::shared_ptr<Module> module);
  void replace_child(const std::string& name, std::shared_ptr<Module> module);
  void pretty_print_recursive(std::ostream& stream, const std::string& indentation) const;
  void apply_to_submodules(const NamedModulePointerApplyFunction& fn,
                           const std::string& name_prefix) const;
  std::shared_ptr<Module> shared_from_this_checked() const;
  /// Replaces this module's state with `other`'s clone (Cloneable's per-child step).
  virtual void clone_(Module& other, const std::optional<Device>& device);
  /// Cloneable::clone's steps that do not depend on the module's type: forget the copied
  /// registrations before reset(), then check that reset() registered the same entries and copy
  /// every parameter's and buffer's values (onto `device`) and clone every child into `copy`.
  void clear_registrations();
  void copy_state_to(Module& copy, const std::optional<Device>& device) const;

  friend BRASA_API std::ostream& operator<<(std::ostream& stream, const Module& module);

  OrderedDict<std::string, Tensor> parameters_{"Parameter"};
  OrderedDict<std::string, Tensor> buffers_{"Buffer"};
  OrderedDict<std::string, std::shared_ptr<Module>> children_{"Submodule"};
  mutable std::optional<std::string> name_;
  bool is_training_ = true;
};

/// Prints the module like PyTorch: its description, then "(name): child" lines, indented.
BRASA_API std::ostream& operator<<(std::ostream& stream, const Module& module);

}  // namespace brasa::nn
