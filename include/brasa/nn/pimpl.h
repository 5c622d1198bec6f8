#pragma once
// ModuleHolder<Impl> (torch::nn::ModuleHolder): a shared_ptr<Impl> with value syntax, so layers
// read like values (`Linear fc(784, 64); fc(x); fc->weight`) while parent modules and user code
// share one Impl. BRASA_MODULE(Name) declares the holder `Name` of `NameImpl` (libtorch's
// TORCH_MODULE, which compat/include/torch/nn/pimpl.h spells).

#include <cstddef>
#include <memory>
#include <ostream>
#include <type_traits>
#include <utility>

#include "brasa/core/error.h"
#include "brasa/nn/module.h"

namespace brasa::nn {

template <typename Contained>
class ModuleHolder : detail::ModuleHolderIndicator {
 public:
  using ContainedType = Contained;

  /// Default-constructs the Impl (only for Impls with a default constructor).
  ModuleHolder() : ModuleHolder(std::make_shared<Contained>()) {
    static_assert(std::is_default_constructible_v<Contained>,
                  "This module has no default constructor; use `Name name{nullptr}` for an "
                  "empty holder");
  }
  /// An empty holder, assigned later (`Linear fc{nullptr}; fc = register_module(...)`).
  ModuleHolder(std::nullptr_t) {}  // NOLINT(google-explicit-constructor)
  /// Constructs the Impl from the arguments.
  template <typename Head, typename... Tail,
            typename = std::enable_if_t<!(std::is_same_v<std::decay_t<Head>, ModuleHolder> &&
                                          sizeof...(Tail) == 0) &&
                                        !std::is_same_v<std::decay_t<Head>, std::nullptr_t>>>
  explicit ModuleHolder(Head&& head, Tail&&... tail)
      : ModuleHolder(
            std::make_shared<Contained>(std::forward<Head>(head), std::forward<Tail>(tail)...)) {}
  /// Wraps an existing Impl.
  ModuleHolder(std::shared_ptr<Contained> module)  // NOLINT(google-explicit-constructor)
      : raw_(module.get()), impl_(std::move(module)) {}

  explicit operator bool() const noexcept { return !is_empty(); }
  bool is_empty() const noexcept { return raw_ == nullptr; }

  Contained* operator->() { return get(); }
  const Contained* operator->() const { return get(); }
  Contained& operator*() { return *get(); }
  const Contained& operator*() const { return *get(); }
  /// The Impl's shared_ptr (sharing ownership with this holder).
  std::shared_ptr<Contained> ptr() const {
    check_not_empty();
    return std::shared_ptr<Contained>(impl_, raw_);
  }
  Contained* get() {
    check_not_empty();
    return raw_;
  }
  const Contained* get() const {
    check_not_empty();
    return raw_;
  }

  /// Calls the Impl's forward.
  template <typename... Args>
  decltype(auto) operator()(Args&&... args) {
    return get()->forward(std::forward<Args>(args)...);
  }
  template <typename Arg>
  decltype(auto) operator[](Arg&& arg) {
    return (*get())[std::forward<Arg>(arg)];
  }

 private:
  // Note [ModuleHolder stores a shared_ptr<Module>]
  // The holder keeps the Impl as shared_ptr<Module> plus a typed pointer, not as
  // shared_ptr<Contained>: every TORCH_MODULE in a program would otherwise instantiate its own
  // std::shared_ptr class, a sixth of what <torch/torch.h> costs to compile. ptr() builds the
  // typed shared_ptr (an aliasing copy) where it is asked for.
  Contained* raw_ = nullptr;
  std::shared_ptr<Module> impl_;

  void check_not_empty() const {
    BRASA_CHECK(raw_ != nullptr,
                "Accessing empty ModuleHolder: default-construct it or "
                "assign a module before use (`Name name{nullptr}` is empty)");
  }
};

template <typename Contained>
std::ostream& operator<<(std::ostream& stream, const ModuleHolder<Contained>& module) {
  return stream << *module;
}

}  // namespace brasa::nn

/// Declares `class Name : ModuleHolder<ImplType>` with the holder's constructors.
#define BRASA_MODULE_IMPL(Name, ImplType)                    \
  class Name : public ::brasa::nn::ModuleHolder<ImplType> {  \
   public:                                                   \
    using ::brasa::nn::ModuleHolder<ImplType>::ModuleHolder; \
    using Impl = ImplType;                                   \
  }
/// Declares the holder `Name` of `NameImpl`.
#define BRASA_MODULE(Name) BRASA_MODULE_IMPL(Name, Name##Impl)
