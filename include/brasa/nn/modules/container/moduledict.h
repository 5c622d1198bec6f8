#pragma once
// ModuleDict (torch::nn::ModuleDict): submodules registered under string keys, in insertion order.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

class BRASA_API ModuleDictImpl : public Cloneable<ModuleDictImpl> {
 public:
  using Iterator = OrderedDict<std::string, std::shared_ptr<Module>>::Iterator;
  using ConstIterator = OrderedDict<std::string, std::shared_ptr<Module>>::ConstIterator;

  ModuleDictImpl() = default;
  explicit ModuleDictImpl(
      const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules);
  explicit ModuleDictImpl(const OrderedDict<std::string, std::shared_ptr<Module>>& modules);

  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;

  /// Adds (or replaces) the module under `key`.
  void insert(const std::string& key, std::shared_ptr<Module> module);
  template <typename M>
  void insert(const std::string& key, const ModuleHolder<M>& holder) {
    insert(key, std::static_pointer_cast<Module>(holder.ptr()));
  }
  template <typename Container>
  void update(const Container& container) {
    for (const auto& item : container) insert(item.first, item.second);
  }
  void update(const OrderedDict<std::string, std::shared_ptr<Module>>& modules);
  /// The modules of another ModuleDict (`dict->update(*other)`).
  void update(const ModuleDictImpl& other);
  /// Removes and returns the module under `key` (IndexError when absent).
  std::shared_ptr<Module> pop(const std::string& key);
  void clear();

  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }

  /// The module under `key` (IndexError when absent; TypeError for at<T> of another type).
  std::shared_ptr<Module> operator[](const std::string& key) const;
  template <typename T>
  T& at(const std::string& key) {
    auto p = std::dynamic_pointer_cast<T>((*this)[key]);
    BRASA_CHECK_TYPE(p != nullptr, "ModuleDict: module '", key, "' is not the requested type");
    return *p;
  }
  bool contains(const std::string& key) const noexcept { return modules_.contains(key); }
  size_t size() const noexcept { return modules_.size(); }
  bool empty() const noexcept { return modules_.is_empty(); }
  std::vector<std::string> keys() const;
  std::vector<std::shared_ptr<Module>> values() const;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> items() const;

 private:
  OrderedDict<std::string, std::shared_ptr<Module>> modules_{"Module"};
};

BRASA_MODULE(ModuleDict);

}  // namespace brasa::nn
