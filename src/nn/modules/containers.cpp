// Out-of-line members of the containers: clone, printing and registry bookkeeping.

#include "brasa/autograd/grad_mode.h"
#include "brasa/nn/modules/container/functional.h"
#include "brasa/nn/modules/container/moduledict.h"
#include "brasa/nn/modules/container/modulelist.h"
#include "brasa/nn/modules/container/parameterlist.h"
#include "brasa/nn/modules/container/sequential.h"

namespace brasa::nn {
namespace {
Tensor cloned_parameter(const Tensor& t, const std::optional<Device>& device) {
  NoGradGuard no_grad;
  Tensor data = t.detach().clone();
  if (device) data = data.to(*device);
  data.set_requires_grad(t.requires_grad());
  return data;
}
}  // namespace

std::shared_ptr<Module> SequentialImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<SequentialImpl>();
  const auto names = named_children().keys();
  for (size_t i = 0; i < modules_.size(); ++i) copy->push_back(names[i], modules_[i].clone(device));
  return copy;
}
void SequentialImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Sequential"; }

std::shared_ptr<Module> ModuleListImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<ModuleListImpl>();
  for (const auto& m : modules_) copy->push_back(m->clone(device));
  return copy;
}
void ModuleListImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::ModuleList"; }
void ModuleListImpl::push_back(std::shared_ptr<Module> module) {
  modules_.push_back(module);
  register_module(std::to_string(modules_.size() - 1), std::move(module));
}
void ModuleListImpl::insert(size_t index, std::shared_ptr<Module> module) {
  BRASA_CHECK_INDEX(index <= modules_.size(), "ModuleList::insert: index ", index,
                    " is out of range for a ModuleList of size ", modules_.size());
  BRASA_CHECK(module != nullptr, "ModuleList::insert: the module is empty (nullptr)");
  modules_.insert(modules_.begin() + static_cast<std::ptrdiff_t>(index), std::move(module));
  children_.clear();
  for (size_t i = 0; i < modules_.size(); ++i) children_.insert(std::to_string(i), modules_[i]);
}
std::shared_ptr<Module> ModuleListImpl::ptr(size_t index) const {
  BRASA_CHECK_INDEX(index < modules_.size(), "ModuleList: Index out of range (index ", index,
                    ", size ", modules_.size(), ")");
  return modules_[index];
}

ModuleDictImpl::ModuleDictImpl(
    const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules) {
  for (const auto& [key, module] : modules) insert(key, module);
}
ModuleDictImpl::ModuleDictImpl(const OrderedDict<std::string, std::shared_ptr<Module>>& modules) {
  update(modules);
}
std::shared_ptr<Module> ModuleDictImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<ModuleDictImpl>();
  for (const auto& item : modules_) copy->insert(item.key(), item.value()->clone(device));
  return copy;
}
void ModuleDictImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::ModuleDict"; }
void ModuleDictImpl::insert(const std::string& key, std::shared_ptr<Module> module) {
  BRASA_CHECK(module != nullptr, "ModuleDict::insert: module '", key, "' is empty (nullptr)");
  if (modules_.contains(key)) {
    modules_[key] = module;
    replace_module(key, std::move(module));
  } else {
    modules_.insert(key, module);
    register_module(key, std::move(module));
  }
}
std::shared_ptr<Module> ModuleDictImpl::pop(const std::string& key) {
  auto module = modules_.pop(key);
  children_.erase(key);
  return module;
}
void ModuleDictImpl::clear() {
  modules_.clear();
  children_.clear();
}
std::shared_ptr<Module> ModuleDictImpl::operator[](const std::string& key) const {
  return modules_[key];
}
void ModuleDictImpl::update(const OrderedDict<std::string, std::shared_ptr<Module>>& modules) {
  for (const auto& item : modules) insert(item.key(), item.value());
}
void ModuleDictImpl::update(const ModuleDictImpl& other) {
  for (const auto& item : other) insert(item.key(), item.value());
}
std::vector<std::string> ModuleDictImpl::keys() const { return modules_.keys(); }
std::vector<std::shared_ptr<Module>> ModuleDictImpl::values() const { return modules_.values(); }
std::vector<std::pair<std::string, std::shared_ptr<Module>>> ModuleDictImpl::items() const {
  return modules_.pairs();
}

std::shared_ptr<Module> ParameterListImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<ParameterListImpl>();
  for (const auto& item : params_) copy->append(cloned_parameter(item.value(), device));
  return copy;
}
void ParameterListImpl::append(const Tensor& param) {
  const std::string key = std::to_string(params_.size());
  params_.insert(key, register_parameter(key, param, param.defined() && param.requires_grad()));
}
void ParameterListImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::ParameterList(\n";
  for (const auto& item : params_)
    stream << "(" << item.key() << "): Parameter containing: [" << item.value().scalar_type()
           << " of size " << item.value().sizes() << "]\n";
  stream << ")";
}

std::shared_ptr<Module> ParameterDictImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<ParameterDictImpl>();
  for (const auto& item : params_) copy->insert(item.key(), cloned_parameter(item.value(), device));
  return copy;
}
ParameterDictImpl::ParameterDictImpl(const OrderedDict<std::string, Tensor>& params) {
  for (const auto& item : params) insert(item.key(), item.value());
}
std::vector<std::string> ParameterDictImpl::keys() const { return params_.keys(); }
std::vector<Tensor> ParameterDictImpl::values() const { return params_.values(); }
void ParameterDictImpl::insert(const std::string& key, const Tensor& param) {
  if (Tensor* existing = params_.find(key)) {
    existing->set_data(param.detach());
    return;
  }
  params_.insert(key, register_parameter(key, param, param.defined() && param.requires_grad()));
}
Tensor ParameterDictImpl::pop(const std::string& key) {
  Tensor t = params_.pop(key);
  parameters_.erase(key);
  return t;
}
void ParameterDictImpl::clear() {
  params_.clear();
  parameters_.clear();
}
void ParameterDictImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::ParameterDict(\n";
  for (const auto& item : params_)
    stream << "(" << item.key() << "): Parameter containing: [" << item.value().scalar_type()
           << " of size " << item.value().sizes() << "]\n";
  stream << ")";
}

FunctionalImpl::FunctionalImpl(Function function) : function_(std::move(function)) {}
void FunctionalImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Functional()";
}
Tensor FunctionalImpl::forward(Tensor input) { return function_(std::move(input)); }

}  // namespace brasa::nn
