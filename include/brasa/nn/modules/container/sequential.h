#pragma once
// Sequential (torch::nn::Sequential): modules called one after another, each on the previous
// one's output. Layers are stored as AnyModules and registered as children "0", "1", ... (or by the
// names given), so `seq->forward(x)`, `seq[0]`, `seq->at<LinearImpl>(0)` and iteration work.

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/modules/container/any.h"
#include "brasa/nn/modules/container/named_any.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

class BRASA_API SequentialImpl : public Cloneable<SequentialImpl> {
 public:
  using Iterator = std::vector<AnyModule>::iterator;
  using ConstIterator = std::vector<AnyModule>::const_iterator;

  SequentialImpl() = default;
  template <typename First, typename... Modules,
            typename = std::enable_if_t<!std::is_same_v<std::decay_t<First>, SequentialImpl>>>
  explicit SequentialImpl(First&& first, Modules&&... modules) {
    modules_.reserve(1 + sizeof...(Modules));
    push_back(std::forward<First>(first));
    (push_back(std::forward<Modules>(modules)), ...);
  }
  explicit SequentialImpl(std::initializer_list<NamedAnyModule> named_modules) {
    for (const auto& m : named_modules) push_back(m.name(), m.module());
  }

  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;

  /// Appends a module (shared_ptr, holder, module value or AnyModule) under the next index name.
  template <typename M>
  void push_back(M&& module) {
    push_back(std::to_string(modules_.size()), std::forward<M>(module));
  }
  template <typename M>
  void push_back(std::string name, M&& module) {
    if constexpr (std::is_same_v<std::decay_t<M>, AnyModule>) {
      modules_.push_back(std::forward<M>(module));
    } else {
      modules_.emplace_back(std::forward<M>(module));
    }
    register_module(std::move(name), modules_.back().ptr());
  }
  /// Appends every module of a container (another Sequential, or a vector of modules).
  template <typename Container>
  void extend(const Container& container) {
    for (const auto& module : container) push_back(module);
  }

  /// Runs the modules in order: the first gets `inputs`, each next one the previous output.
  /// ValueError when empty; TypeError when an output is not the next module's input type.
  template <typename ReturnType = Tensor, typename... InputTypes>
  ReturnType forward(InputTypes&&... inputs) {
    BRASA_CHECK(!modules_.empty(), "Sequential: Cannot call forward() on an empty Sequential");
    auto it = modules_.begin();
    AnyValue value = it->any_forward(std::forward<InputTypes>(inputs)...);
    for (++it; it != modules_.end(); ++it) value = it->any_forward(std::move(value));
    if constexpr (std::is_same_v<ReturnType, AnyValue>) {
      return value;
    } else {
      ReturnType* result = value.try_get<ReturnType>();
      BRASA_CHECK_TYPE(result != nullptr, "Sequential: The type of the return value is ",
                       detail::type_name(value.type_info()), ", but you asked for type ",
                       detail::type_name(typeid(ReturnType)));
      return std::move(*result);
    }
  }

  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }

  /// The module at `index` as T (IndexError out of range, TypeError for another type).
  template <typename T>
  T& at(size_t index) {
    check_index(index);
    return modules_[index].get<T>();
  }
  std::shared_ptr<Module> ptr(size_t index) const {
    check_index(index);
    return modules_[index].ptr();
  }
  template <typename T>
  std::shared_ptr<T> ptr(size_t index) const {
    check_index(index);
    return modules_[index].ptr<T>();
  }
  /// The module at `index` (IndexError out of range), as libtorch returns it: a Module pointer
  /// (`seq[0]->as<Linear>()`, `seq[1]->parameters()`).
  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }
  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }

 private:
  void check_index(size_t index) const {
    BRASA_CHECK_INDEX(index < modules_.size(), "Sequential: Index out of range (index ", index,
                      ", size ", modules_.size(), ")");
  }
  std::vector<AnyModule> modules_;
};

class Sequential : public ModuleHolder<SequentialImpl> {
 public:
  using ModuleHolder<SequentialImpl>::ModuleHolder;
  Sequential() : ModuleHolder() {}
  Sequential(std::initializer_list<NamedAnyModule> named_modules)
      : ModuleHolder(std::make_shared<SequentialImpl>(named_modules)) {}
};

}  // namespace brasa::nn
