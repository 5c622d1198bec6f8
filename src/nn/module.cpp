// brasa::nn::Module: registration, recursive traversal, mode, device/dtype moves and printing.

#include "brasa/nn/module.h"

#include <typeinfo>

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "core/demangle.h"
#include "nn/utils/forward_override_registry.h"

namespace brasa::nn {
namespace {

std::string join(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

// `kind` is the capitalised noun libtorch's messages start with ("Parameter name must not be
// empty"); programs and libtorch's own tests match those words.
void check_name(const std::string& name, const char* what, const char* kind) {
  BRASA_CHECK(!name.empty(), "register_", what, ": ", kind, " name must not be empty");
  BRASA_CHECK(name.find('.') == std::string::npos, "register_", what, ": ", kind,
              " name must not contain a dot (got '", name, "')");
}

}  // namespace

namespace detail {
std::string type_name(const std::type_info& type) { return brasa::detail::demangle(type.name()); }
}  // namespace detail

Module::Module(std::string name) : name_(std::move(name)) {}
Module::Module() = default;
Module::Module(const Module&) = default;
Module& Module::operator=(const Module&) = default;
Module::Module(Module&&) noexcept = default;
Module& Module::operator=(Module&&) noexcept = default;
// Note [Overrides go with their module]
Module::~Module() { utils::detail::forget_forward_override(this); }

const std::string& Module::name() const noexcept {
  if (!name_) {
    std::string n = brasa::detail::demangle(typeid(*this).name());
    if (n.rfind("brasa::", 0) == 0) n = "torch::" + n.substr(7);
    name_ = std::move(n);
  }
  return *name_;
}

std::shared_ptr<Module> Module::clone(const std::optional<Device>& /*device*/) const {
  BRASA_THROW(NotImplementedError, "clone() has not been implemented for ", name(),
              ". Subclass torch::nn::Cloneable<", name(),
              "> instead of torch::nn::Module to inherit the ability to clone.");
}

void Module::clone_(Module& /*other*/, const std::optional<Device>& /*device*/) {
  BRASA_THROW(NotImplementedError, "clone(): submodule ", name(),
              " does not derive from torch::nn::Cloneable");
}

void Module::clear_registrations() {
  parameters_.clear();
  buffers_.clear();
  children_.clear();
}

void Module::copy_state_to(Module& copy, const std::optional<Device>& device) const {
  BRASA_CHECK(copy.parameters_.size() == parameters_.size() &&
                  copy.buffers_.size() == buffers_.size() &&
                  copy.children_.size() == children_.size(),
              "clone(): reset() of ", name(),
              " must register the same parameters, buffers and submodules as the original");
  for (const auto& p : parameters_) {
    Tensor& target = copy.parameters_[p.key()];
    if (!p.value().defined()) continue;
    Tensor data = p.value().detach().clone();
    target.set_data(device ? data.to(*device) : data);
    target.set_requires_grad(p.value().requires_grad());
  }
  for (const auto& b : buffers_) {
    Tensor& target = copy.buffers_[b.key()];
    if (!b.value().defined()) continue;
    Tensor data = b.value().detach().clone();
    target.set_data(device ? data.to(*device) : data);
  }
  for (const auto& c : children_) copy.children_[c.key()]->clone_(*c.value(), device);
}

std::shared_ptr<Module> Module::shared_from_this_checked() const {
  std::shared_ptr<const Module> ptr;
  try {
    ptr = shared_from_this();
  } catch (const std::bad_weak_ptr&) {
    BRASA_THROW(ValueError, "modules(): It looks like you attempted to retrieve your top-level ",
                "module as a shared_ptr, but ", name(), " is not owned by one, so it cannot ",
                "include itself; create it with std::make_shared or a ModuleHolder, or pass ",
                "include_self = false");
  }
  return std::const_pointer_cast<Module>(ptr);
}

void Module::apply_to_submodules(const NamedModulePointerApplyFunction& fn,
                                 const std::string& name_prefix) const {
  for (const auto& child : children_) {
    const std::string qualified = join(name_prefix, child.key());
    fn(qualified, child.value());
    child.value()->apply_to_submodules(fn, qualified);
  }
}

void Module::apply(const ModuleApplyFunction& fn) {
  fn(*this);
  apply_to_submodules([&](const std::string&, const std::shared_ptr<Module>& m) { fn(*m); }, "");
}
void Module::apply(const ConstModuleApplyFunction& fn) const {
  fn(*this);
  apply_to_submodules([&](const std::string&, const std::shared_ptr<Module>& m) { fn(*m); }, "");
}
void Module::apply(const NamedModuleApplyFunction& fn, const std::string& name_prefix) {
  fn(name_prefix, *this);
  apply_to_submodules([&](const std::string& n, const std::shared_ptr<Module>& m) { fn(n, *m); },
                      name_prefix);
}
void Module::apply(const ConstNamedModuleApplyFunction& fn, const std::string& name_prefix) const {
  fn(name_prefix, *this);
  apply_to_submodules([&](const std::string& n, const std::shared_ptr<Module>& m) { fn(n, *m); },
                      name_prefix);
}
void Module::apply(const ModulePointerApplyFunction& fn) const {
  fn(shared_from_this_checked());
  apply_to_submodules([&](const std::string&, const std::shared_ptr<Module>& m) { fn(m); }, "");
}
void Module::apply(const NamedModulePointerApplyFunction& fn,
                   const std::string& name_prefix) const {
  fn(name_prefix, shared_from_this_checked());
  apply_to_submodules(fn, name_prefix);
}

OrderedDict<std::string, Tensor> Module::named_parameters(bool recurse) const {
  OrderedDict<std::string, Tensor> out("Parameter");
  auto add_own = [&](const std::string& prefix, const Module& m) {
    for (const auto& p : m.parameters_)
      if (p.value().defined()) out.insert(join(prefix, p.key()), p.value());
  };
  add_own("", *this);
  if (recurse)
    apply_to_submodules(
        [&](const std::string& prefix, const std::shared_ptr<Module>& m) { add_own(prefix, *m); },
        "");
  return out;
}

std::vector<Tensor> Module::parameters(bool recurse) const {
  return named_parameters(recurse).values();
}

OrderedDict<std::string, Tensor> Module::named_buffers(bool recurse) const {
  OrderedDict<std::string, Tensor> out("Buffer");
  auto add_own = [&](const std::string& prefix, const Module& m) {
    for (const auto& b : m.buffers_)
      if (b.value().defined()) out.insert(join(prefix, b.key()), b.value());
  };
  add_own("", *this);
  if (recurse)
    apply_to_submodules(
        [&](const std::string& prefix, const std::shared_ptr<Module>& m) { add_own(prefix, *m); },
        "");
  return out;
}

std::vector<Tensor> Module::buffers(bool recurse) const { return named_buffers(recurse).values(); }

OrderedDict<std::string, std::shared_ptr<Module>> Module::named_modules(
    const std::string& name_prefix, bool include_self) const {
  OrderedDict<std::string, std::shared_ptr<Module>> out("Module");
  if (include_self) out.insert(name_prefix, shared_from_this_checked());
  apply_to_submodules(
      [&](const std::string& n, const std::shared_ptr<Module>& m) {
        if (!out.contains(n)) out.insert(n, m);
      },
      name_prefix);
  return out;
}

std::vector<std::shared_ptr<Module>> Module::modules(bool include_self) const {
  return named_modules("", include_self).values();
}

std::vector<std::shared_ptr<Module>> Module::children() const { return children_.values(); }

OrderedDict<std::string, std::shared_ptr<Module>> Module::named_children() const {
  return children_;
}

void Module::train(bool on) {
  for (auto& child : children_) child.value()->train(on);
  is_training_ = on;
}

namespace {
void move_tensors(OrderedDict<std::string, Tensor>& dict, const std::optional<Device>& device,
                  std::optional<ScalarType> dtype, bool non_blocking) {
  NoGradGuard no_grad;
  for (auto& item : dict) {
    Tensor& t = item.value();
    if (!t.defined()) continue;
    const ScalarType target =
        (dtype && t.is_floating_point() && is_floating_type(*dtype)) ? *dtype : t.scalar_type();
    const Device target_device = device.value_or(t.device());
    if (target == t.scalar_type() && target_device == t.device()) continue;
    t.set_data(t.data().to(target_device, target, non_blocking));
    if (t.grad().defined()) t.mutable_grad() = t.grad().to(target_device, target, non_blocking);
  }
}
}  // namespace

void Module::to(Device device, ScalarType dtype, bool non_blocking) {
  for (auto& child : children_) child.value()->to(device, dtype, non_blocking);
  move_tensors(parameters_, device, dtype, non_blocking);
  move_tensors(buffers_, device, dtype, non_blocking);
}
void Module::to(ScalarType dtype, bool non_blocking) {
  for (auto& child : children_) child.value()->to(dtype, non_blocking);
  move_tensors(parameters_, std::nullopt, dtype, non_blocking);
  move_tensors(buffers_, std::nullopt, dtype, non_blocking);
}
void Module::to(Device device, bool non_blocking) {
  for (auto& child : children_) child.value()->to(device, non_blocking);
  move_tensors(parameters_, device, std::nullopt, non_blocking);
  move_tensors(buffers_, device, std::nullopt, non_blocking);
}

void Module::zero_grad(bool set_to_none) {
  for (auto& child : children_) child.value()->zero_grad(set_to_none);
  for (auto& p : parameters_) {
    if (!p.value().defined()) continue;
    Tensor& grad = p.value().mutable_grad();
    if (!grad.defined()) continue;
    if (set_to_none) {
      grad = Tensor();
    } else {
      NoGradGuard no_grad;
      grad = grad.detach();
      grad.zero_();
    }
  }
}

Tensor& Module::register_parameter(std::string name, Tensor tensor, bool requires_grad) {
  check_name(name, "parameter", "Parameter");
  if (tensor.defined()) {
    tensor.set_requires_grad(requires_grad);
  } else if (requires_grad) {
    warn("register_parameter: '" + name + "' is an undefined tensor (not a parameter yet). " +
         "Ignoring the `requires_grad=true` function parameter; pass requires_grad = false to " +
         "register an absent parameter without this warning");
  }
  return parameters_.insert(std::move(name), std::move(tensor));
}

Tensor& Module::register_buffer(std::string name, Tensor tensor) {
  check_name(name, "buffer", "Buffer");
  return buffers_.insert(std::move(name), std::move(tensor));
}

void Module::register_child(std::string name, std::shared_ptr<Module> module) {
  check_name(name, "module", "Submodule");
  BRASA_CHECK(module != nullptr, "register_module: submodule '", name, "' is empty (nullptr)");
  children_.insert(std::move(name), std::move(module));
}

void Module::replace_child(const std::string& name, std::shared_ptr<Module> module) {
  children_[name] = std::move(module);
}

void Module::unregister_module(const std::string& name) {
  BRASA_CHECK_INDEX(children_.contains(name), "unregister_module: No Module with name `", name,
                    "` is registered");
  children_.erase(name);
}

void Module::pretty_print(std::ostream& stream) const { stream << name(); }

void Module::pretty_print_recursive(std::ostream& stream, const std::string& indentation) const {
  pretty_print(stream);
  if (children_.is_empty()) return;
  stream << "(\n";
  const std::string inner = indentation + "  ";
  for (const auto& child : children_) {
    stream << inner << "(" << child.key() << "): ";
    child.value()->pretty_print_recursive(stream, inner);
    stream << "\n";
  }
  stream << indentation << ")";
}

std::ostream& operator<<(std::ostream& stream, const Module& module) {
  module.pretty_print_recursive(stream, "");
  return stream;
}

}  // namespace brasa::nn
