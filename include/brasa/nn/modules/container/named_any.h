#pragma once
// NamedAnyModule: a (name, AnyModule) pair, for `Sequential({{"fc", Linear(2, 3)}, ...})`.

#include <memory>
#include <string>
#include <utility>

#include "brasa/nn/modules/container/any.h"

namespace brasa::nn {

class NamedAnyModule {
 public:
  template <typename ModuleType>
  NamedAnyModule(std::string name, std::shared_ptr<ModuleType> module)
      : name_(std::move(name)), module_(std::move(module)) {}
  template <typename ModuleType,
            typename = std::enable_if_t<std::is_base_of_v<Module, std::decay_t<ModuleType>>>>
  NamedAnyModule(std::string name, ModuleType&& module)
      : name_(std::move(name)), module_(std::forward<ModuleType>(module)) {}
  template <typename ModuleType>
  NamedAnyModule(std::string name, const ModuleHolder<ModuleType>& holder)
      : name_(std::move(name)), module_(holder) {}
  NamedAnyModule(std::string name, AnyModule module)
      : name_(std::move(name)), module_(std::move(module)) {}

  const std::string& name() const noexcept { return name_; }
  AnyModule& module() noexcept { return module_; }
  const AnyModule& module() const noexcept { return module_; }

 private:
  std::string name_;
  AnyModule module_;
};

}  // namespace brasa::nn
