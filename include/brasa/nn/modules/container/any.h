#pragma once
// AnyModule (torch::nn::AnyModule): holds any module with a (non-overloaded, non-template)
// forward method, erasing its type; Sequential stores its layers as AnyModules. Arguments and
// results travel as AnyValue (a std::any): each argument must have exactly the decayed type of the
// corresponding forward parameter (TypeError otherwise), as in libtorch.

#include <any>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/module.h"
#include "brasa/nn/modules/container/any_value.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

namespace detail {
template <typename T>
struct ForwardTraits;
template <typename R, typename C, typename... Args>
struct ForwardTraits<R (C::*)(Args...)> {
  using Return = R;
  using ArgTuple = std::tuple<std::decay_t<Args>...>;
  static constexpr size_t arity = sizeof...(Args);
};
template <typename R, typename C, typename... Args>
struct ForwardTraits<R (C::*)(Args...) const> : ForwardTraits<R (C::*)(Args...)> {};

template <typename T>
T&& unpack_argument(std::vector<AnyValue>& args, size_t i) {
  T* p = args[i].try_get<T>();
  BRASA_CHECK_TYPE(p != nullptr, "AnyModule::forward: Expected argument #", i, " to be of type ",
                   type_name(typeid(T)), ", but received value of type ",
                   type_name(args[i].type_info()));
  return std::move(*p);
}
}  // namespace detail

class BRASA_API AnyModule {
 public:
  AnyModule() = default;
  template <typename ModuleType>
  explicit AnyModule(std::shared_ptr<ModuleType> module) {
    set(std::move(module));
  }
  template <typename ModuleType,
            typename = std::enable_if_t<std::is_base_of_v<Module, std::decay_t<ModuleType>>>>
  explicit AnyModule(ModuleType&& module)
      : AnyModule(std::make_shared<std::decay_t<ModuleType>>(std::forward<ModuleType>(module))) {}
  template <typename ModuleType>
  explicit AnyModule(const ModuleHolder<ModuleType>& holder) : AnyModule(holder.ptr()) {}
  /// Holds another module (libtorch's `any = std::make_shared<M>()`).
  template <typename ModuleType>
  AnyModule& operator=(std::shared_ptr<ModuleType> module) {
    return *this = AnyModule(std::move(module));
  }

  /// Calls the module's forward with these arguments, returning an AnyValue.
  template <typename... Args>
  AnyValue any_forward(Args&&... args) {
    check_not_empty("forward");
    std::vector<AnyValue> values;
    values.reserve(sizeof...(Args));
    (values.push_back(to_any(std::forward<Args>(args))), ...);
    return forward_(std::move(values));
  }
  /// Calls forward and returns its result as ReturnType.
  template <typename ReturnType = Tensor, typename... Args>
  ReturnType forward(Args&&... args) {
    return any_forward(std::forward<Args>(args)...).template get<ReturnType>();
  }

  /// The module, as a base Module or (TypeError when it is another type) as ModuleType.
  std::shared_ptr<Module> ptr() const {
    check_not_empty("ptr");
    return module_;
  }
  template <typename T, typename = std::enable_if_t<!detail::is_module_holder_v<T>>>
  std::shared_ptr<T> ptr() const {
    auto p = std::dynamic_pointer_cast<T>(ptr());
    BRASA_CHECK_TYPE(p != nullptr, "AnyModule: Attempted to cast module of type ",
                     detail::type_name(typeid(*module_)), " to type ",
                     detail::type_name(typeid(T)));
    return p;
  }
  template <typename T, typename = std::enable_if_t<!detail::is_module_holder_v<T>>>
  T& get() const {
    check_not_empty("get");
    return *ptr<T>();
  }
  template <typename T, typename = std::enable_if_t<detail::is_module_holder_v<T>>, int = 0>
  T get() const {
    return T(ptr<typename T::ContainedType>());
  }
  const std::type_info& type_info() const {
    check_not_empty("type_info");
    return *type_info_;
  }
  bool is_empty() const noexcept { return module_ == nullptr; }
  /// A deep copy of the module (it must derive from Cloneable).
  AnyModule clone(std::optional<Device> device = std::nullopt) const {
    check_not_empty("clone");
    AnyModule copy = *this;
    copy.clone_into_(copy, device);
    return copy;
  }

 private:
  template <typename T>
  static AnyValue to_any(T&& value) {
    if constexpr (std::is_same_v<std::decay_t<T>, AnyValue>) {
      return std::forward<T>(value);
    } else {
      return AnyValue(std::forward<T>(value));
    }
  }

  template <typename ModuleType>
  void set(std::shared_ptr<ModuleType> module) {
    static_assert(std::is_base_of_v<Module, ModuleType>, "AnyModule needs a Module");
    using Traits = detail::ForwardTraits<decltype(&ModuleType::forward)>;
    ModuleType* raw = module.get();
    forward_ = [raw](std::vector<AnyValue>&& args) -> AnyValue {
      constexpr size_t n = Traits::arity;
      if constexpr (HasForwardDefaults<ModuleType>::value) {
        auto defaults = ModuleType::_forward_default_args();
        const size_t required = defaults.empty() ? n : defaults.front().first;
        BRASA_CHECK(args.size() >= required && args.size() <= n, raw->name(),
                    "'s forward() method expects at least ", required, " argument(s) and at most ",
                    n, " argument(s), but received ", args.size(), ".");
        for (auto& [index, value] : defaults) {
          if (index >= args.size()) args.push_back(std::move(value));
        }
      } else {
        BRASA_CHECK(args.size() <= n, raw->name(), "'s forward() method expects ", n,
                    " argument(s), but received ", args.size(), ".");
        BRASA_CHECK(args.size() == n, raw->name(), "'s forward() method expects ", n,
                    " argument(s), but received ", args.size(), ". If ", raw->name(),
                    "'s forward() method has default arguments, please make sure the forward() "
                    "method is declared with a corresponding `FORWARD_HAS_DEFAULT_ARGS` macro.");
      }
      return call(raw, args, std::make_index_sequence<n>{});
    };
    clone_into_ = [](AnyModule& self, const std::optional<Device>& device) {
      auto cloned = std::dynamic_pointer_cast<ModuleType>(self.module_->clone(device));
      self.set(std::move(cloned));
    };
    type_info_ = &typeid(ModuleType);
    module_ = std::move(module);
  }

  // Members of AnyModule, so they see a module's protected defaults (the macro befriends us).
  template <typename M, typename = void>
  struct HasForwardDefaults : std::false_type {};
  template <typename M>
  struct HasForwardDefaults<M, std::void_t<decltype(M::_forward_default_args())>> : std::true_type {
  };

  template <typename ModuleType, size_t... I>
  static AnyValue call(ModuleType* m, std::vector<AnyValue>& args, std::index_sequence<I...>) {
    using Traits = detail::ForwardTraits<decltype(&ModuleType::forward)>;
    if constexpr (std::is_void_v<typename Traits::Return>) {
      BRASA_THROW(TypeError, "AnyModule: ", m->name(), "'s forward returns void");
    } else {
      return AnyValue(m->forward(
          detail::unpack_argument<std::tuple_element_t<I, typename Traits::ArgTuple>>(args, I)...));
    }
  }

  // libtorch's words: "Cannot call forward() on an empty AnyModule".
  void check_not_empty(const char* method) const {
    BRASA_CHECK(module_ != nullptr, "AnyModule: Cannot call ", method, "() on an empty AnyModule");
  }

  std::shared_ptr<Module> module_;
  std::function<AnyValue(std::vector<AnyValue>&&)> forward_;
  std::function<void(AnyModule&, const std::optional<Device>&)> clone_into_;
  const std::type_info* type_info_ = nullptr;
};

}  // namespace brasa::nn
