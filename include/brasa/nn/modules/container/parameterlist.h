#pragma once
// ParameterList / ParameterDict (torch::nn::ParameterList, ParameterDict): parameters registered
// as "0", "1", ... or under string keys; the owner decides how to use them.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "brasa/nn/cloneable.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

class BRASA_API ParameterListImpl : public Cloneable<ParameterListImpl> {
 public:
  using Iterator = OrderedDict<std::string, Tensor>::Iterator;
  using ConstIterator = OrderedDict<std::string, Tensor>::ConstIterator;

  ParameterListImpl() = default;
  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  explicit ParameterListImpl(const std::vector<Tensor>& params) { extend(params); }
  template <typename... Tensors,
            typename = std::enable_if_t<(std::is_convertible_v<Tensors, Tensor> && ...)>>
  explicit ParameterListImpl(const Tensor& first, Tensors&&... rest) {
    append(first);
    (append(std::forward<Tensors>(rest)), ...);
  }

  void reset() override {}
  void pretty_print(std::ostream& stream) const override;

  /// Registers `param` (requires_grad set) as the next parameter.
  void append(const Tensor& param);
  void append(const OrderedDict<std::string, Tensor>::Item& item) { append(item.value()); }
  template <typename Container>
  void extend(const Container& container) {
    for (const auto& p : container) append(p);
  }
  /// extend(container), returning this list (`*list_a += *list_b`).
  template <typename Container>
  ParameterListImpl& operator+=(const Container& container) {
    extend(container);
    return *this;
  }

  Iterator begin() { return params_.begin(); }
  ConstIterator begin() const { return params_.begin(); }
  Iterator end() { return params_.end(); }
  ConstIterator end() const { return params_.end(); }
  /// The parameter at `index` (IndexError out of range).
  Tensor& at(size_t index) {
    check_index(index);
    return params_[index].value();
  }
  const Tensor& at(size_t index) const {
    check_index(index);
    return params_[index].value();
  }
  Tensor& operator[](size_t index) { return at(index); }
  const Tensor& operator[](size_t index) const { return at(index); }
  size_t size() const noexcept { return params_.size(); }
  bool is_empty() const noexcept { return params_.is_empty(); }

 private:
  void check_index(size_t index) const {
    BRASA_CHECK_INDEX(index < params_.size(), "ParameterList: Index out of range (index ", index,
                      ", size ", params_.size(), ")");
  }
  // Copies of the registered tensors (same TensorImpl), indexable by position.
  OrderedDict<std::string, Tensor> params_{"Parameter"};
};
BRASA_MODULE(ParameterList);

class BRASA_API ParameterDictImpl : public Cloneable<ParameterDictImpl> {
 public:
  using Iterator = OrderedDict<std::string, Tensor>::Iterator;
  using ConstIterator = OrderedDict<std::string, Tensor>::ConstIterator;

  ParameterDictImpl() = default;
  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  explicit ParameterDictImpl(const OrderedDict<std::string, Tensor>& params);

  void reset() override {}
  void pretty_print(std::ostream& stream) const override;

  /// Registers `param` (requires_grad set) under `key`, or replaces the data of an existing one.
  void insert(const std::string& key, const Tensor& param);
  /// Removes `key` and returns its tensor (IndexError when absent).
  Tensor pop(const std::string& key);
  void clear();
  /// Sets the parameters of `container`'s keys, which must all be registered already (IndexError
  /// naming the first that is not, before anything changes), as in libtorch.
  template <typename Container>
  void update(const Container& container) {
    for (const auto& item : container) {
      BRASA_CHECK_INDEX(contains(item.key()), "ParameterDict::update: Parameter '", item.key(),
                        "' is not defined");
    }
    for (const auto& item : container) insert(item.key(), item.value());
  }

  Iterator begin() { return params_.begin(); }
  ConstIterator begin() const { return params_.begin(); }
  Iterator end() { return params_.end(); }
  ConstIterator end() const { return params_.end(); }
  /// The parameter under `key` (IndexError when absent).
  Tensor& get(const std::string& key) { return params_[key]; }
  Tensor& operator[](const std::string& key) { return params_[key]; }
  const Tensor& operator[](const std::string& key) const { return params_[key]; }
  bool contains(const std::string& key) const noexcept { return params_.contains(key); }
  size_t size() const noexcept { return params_.size(); }
  bool empty() const noexcept { return params_.is_empty(); }
  std::vector<std::string> keys() const;
  std::vector<Tensor> values() const;

 private:
  OrderedDict<std::string, Tensor> params_{"Parameter"};
};
BRASA_MODULE(ParameterDict);

}  // namespace brasa::nn
