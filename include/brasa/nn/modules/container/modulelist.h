#pragma once
// ModuleList (torch::nn::ModuleList): submodules held in a list and registered as "0", "1", ...;
// unlike Sequential it has no forward: the owner decides how to call them.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

class BRASA_API ModuleListImpl : public Cloneable<ModuleListImpl> {
 public:
  using Iterator = std::vector<std::shared_ptr<Module>>::iterator;
  using ConstIterator = std::vector<std::shared_ptr<Module>>::const_iterator;

  ModuleListImpl() = default;
  template <typename First, typename... Modules,
            typename = std::enable_if_t<!std::is_same_v<std::decay_t<First>, ModuleListImpl>>>
  explicit ModuleListImpl(First&& first, Modules&&... modules) {
    push_back(std::forward<First>(first));
    (push_back(std::forward<Modules>(modules)), ...);
  }

  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;

  /// Appends a module (shared_ptr, holder or module value).
  void push_back(std::shared_ptr<Module> module);
  template <typename M, typename = std::enable_if_t<std::is_base_of_v<Module, std::decay_t<M>>>>
  void push_back(M&& module) {
    push_back(std::static_pointer_cast<Module>(
        std::make_shared<std::decay_t<M>>(std::forward<M>(module))));
  }
  template <typename M>
  void push_back(const ModuleHolder<M>& holder) {
    push_back(std::static_pointer_cast<Module>(holder.ptr()));
  }
  template <typename M>
  void push_back(std::shared_ptr<M> module) {
    push_back(std::static_pointer_cast<Module>(std::move(module)));
  }
  template <typename Container>
  void extend(const Container& container) {
    for (const auto& module : container) push_back(module);
  }
  /// Inserts before `index` (0 <= index <= size()), renumbering the names after it.
  void insert(size_t index, std::shared_ptr<Module> module);
  template <typename M>
  void insert(size_t index, const ModuleHolder<M>& holder) {
    insert(index, std::static_pointer_cast<Module>(holder.ptr()));
  }

  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }

  /// The module at `index` (IndexError out of range). ptr<T> is nullptr when the module is not a
  /// T, as in libtorch; at<T> raises TypeError then (libtorch dereferences the null pointer).
  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }
  std::shared_ptr<Module> ptr(size_t index) const;
  template <typename T>
  std::shared_ptr<T> ptr(size_t index) const {
    return std::dynamic_pointer_cast<T>(ptr(index));
  }
  template <typename T>
  T& at(size_t index) {
    auto p = ptr<T>(index);
    BRASA_CHECK_TYPE(p != nullptr, "ModuleList: Attempted to cast module ", index, " of type ",
                     detail::type_name(typeid(*modules_[index])), " to type ",
                     detail::type_name(typeid(T)));
    return *p;
  }
  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }

 private:
  std::vector<std::shared_ptr<Module>> modules_;
};

BRASA_MODULE(ModuleList);

}  // namespace brasa::nn
