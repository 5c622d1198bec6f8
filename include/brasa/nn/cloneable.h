#pragma once
// Cloneable<Derived> (torch::nn::Cloneable): a Module whose clone() deep-copies it. Derived
// implements reset(), which (re)creates and registers its parameters, buffers and submodules; clone
// copies Derived, calls reset() on the copy, then copies every tensor's values across.

#include <memory>
#include <optional>

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "brasa/nn/module.h"

namespace brasa::nn {

template <typename Derived>
class BRASA_API Cloneable : public Module {
 public:
  using Module::Module;

  /// (Re)initialises the module's state; called by the constructor of Derived and by clone().
  virtual void reset() = 0;

  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;

 private:
  void clone_(Module& other, const std::optional<Device>& device) final;
};

// Defined outside the class so that they are not inline: the library exports its instantiations
// (Note [Module instantiations] in brasa/nn/modules/instantiations.h), which
// -fvisibility-inlines-hidden would otherwise hide.
template <typename Derived>
std::shared_ptr<Module> Cloneable<Derived>::clone(const std::optional<Device>& device) const {
  NoGradGuard no_grad;
  auto copy = std::make_shared<Derived>(static_cast<const Derived&>(*this));
  copy->clear_registrations();
  copy->reset();
  copy_state_to(*copy, device);
  return copy;
}

template <typename Derived>
void Cloneable<Derived>::clone_(Module& other, const std::optional<Device>& device) {
  auto cloned = std::dynamic_pointer_cast<Derived>(other.clone(device));
  BRASA_CHECK(cloned != nullptr, "clone(): attempted to clone submodule ", other.name(),
              " into a module of a different type ", name());
  static_cast<Derived&>(*this) = std::move(static_cast<Derived&>(*cloned));
}

}  // namespace brasa::nn
