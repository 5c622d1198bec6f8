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
  ModuleHolder() : impl_(std::make_shared<Contained>()) {
    static_assert(std::is_default_constructible_v<Contained>,
                  "This module has no default constructor; use `Name name{nullptr}` for an "
                  "empty holder");
  }
  /// An empty holder, assigned later (`Linear fc{nullptr}; fc = register_module(...)`).
  ModuleHolder(std::nullptr_t) : impl_(nullptr) {}  // NOLINT(google-explicit-constructor)
  /// Constructs the Impl from the arguments.
  template <typename Head, typename... Tail,
            typename = std::enable_if_t<!(std::is_same_v<std::decay_t<Head>, ModuleHolder> &&
                                          sizeof...(Tail) == 0) &&
                                        !std::is_same_v<std::decay_t<Head>, std::nullptr_t>>>
  explicit ModuleHolder(Head&& head, Tail&&... tail)
      : impl_(std::make_shared<Contained>(std::forward<Head>(head), std::forward<Tail>(tail)...)) {}
  /// Wraps an existing Impl.
  ModuleHolder(std::shared_ptr<Contained> module)  // NOLINT(google-explicit-constructor)
      : impl_(std::move(module)) {}

  explicit operator bool() const noexcept { return !is_empty(); }
  bool is_empty() const noexcept { return impl_ == nullptr; }

  Contained* operator->() { return get(); }
  const Contained* operator->() const { return get(); }
  Contained& operator*() { return *get(); }
  const Contained& operator*() const { return *get(); }
  const std::shared_ptr<Contained>& ptr() const {
    check_not_empty();
    return impl_;
  }
  Contained* get() {
    check_not_empty();
    return impl_.get();
  }
  const Contained* get() const {
    check_not_empty();
    return impl_.get();
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

 protected:
  std::shared_ptr<Contained> impl_;

 private:
  void check_not_empty() const {
    BRASA_CHECK(impl_ != nullptr,
                "Accessing an empty ModuleHolder: default-construct it or "
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
