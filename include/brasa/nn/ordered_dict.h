#pragma once
// OrderedDict<Key, Value>: libtorch's torch::OrderedDict, a vector of (key, value) items in
// insertion order plus a key -> position index. named_parameters(), named_children(), ... return
// one; iteration yields Items (`item.key()`, `item.value()`).

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "brasa/core/error.h"

namespace brasa {

template <typename Key, typename Value>
class OrderedDict {
 public:
  class Item {
   public:
    Item(Key key, Value value) : pair_(std::move(key), std::move(value)) {}
    const Key& key() const noexcept { return pair_.first; }
    Value& value() noexcept { return pair_.second; }
    const Value& value() const noexcept { return pair_.second; }
    Value& operator*() noexcept { return pair_.second; }
    const Value& operator*() const noexcept { return pair_.second; }
    Value* operator->() noexcept { return &pair_.second; }
    const Value* operator->() const noexcept { return &pair_.second; }
    const std::pair<Key, Value>& pair() const noexcept { return pair_; }

   private:
    std::pair<Key, Value> pair_;
  };
  using Iterator = typename std::vector<Item>::iterator;
  using ConstIterator = typename std::vector<Item>::const_iterator;

  /// `key_description` names the keys in error messages ("Parameter", "Submodule", ...).
  explicit OrderedDict(std::string key_description = "Key")
      : key_description_(std::move(key_description)) {}
  OrderedDict(std::initializer_list<Item> items) : OrderedDict() {
    for (const auto& item : items) insert(item.key(), item.value());
  }

  const std::string& key_description() const noexcept { return key_description_; }

  Iterator begin() { return items_.begin(); }
  ConstIterator begin() const { return items_.begin(); }
  Iterator end() { return items_.end(); }
  ConstIterator end() const { return items_.end(); }
  Item& front() {
    BRASA_CHECK_INDEX(!items_.empty(), "Called front() on an empty OrderedDict");
    return items_.front();
  }
  Item& back() {
    BRASA_CHECK_INDEX(!items_.empty(), "Called back() on an empty OrderedDict");
    return items_.back();
  }

  /// The item at `index`; IndexError when out of range.
  Item& operator[](size_t index) {
    BRASA_CHECK_INDEX(index < items_.size(), "Index ", index,
                      " is out of bounds for an OrderedDict of size ", items_.size());
    return items_[index];
  }
  const Item& operator[](size_t index) const {
    BRASA_CHECK_INDEX(index < items_.size(), "Index ", index,
                      " is out of bounds for an OrderedDict of size ", items_.size());
    return items_[index];
  }
  /// The value under `key`; IndexError naming the key when absent.
  Value& operator[](const Key& key) {
    Value* v = find(key);
    BRASA_CHECK_INDEX(v != nullptr, key_description_, " '", key, "' is not defined");
    return *v;
  }
  const Value& operator[](const Key& key) const {
    const Value* v = find(key);
    BRASA_CHECK_INDEX(v != nullptr, key_description_, " '", key, "' is not defined");
    return *v;
  }
  /// Pointer to the value under `key`, or nullptr.
  Value* find(const Key& key) noexcept {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }
  const Value* find(const Key& key) const noexcept {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }
  bool contains(const Key& key) const noexcept { return index_.count(key) != 0; }

  /// Appends (key, value); ValueError when the key already exists.
  template <typename K, typename V>
  Value& insert(K&& key, V&& value) {
    BRASA_CHECK(index_.count(key) == 0, key_description_, " '", key, "' already defined");
    items_.emplace_back(Key(std::forward<K>(key)), Value(std::forward<V>(value)));
    index_.emplace(items_.back().key(), items_.size() - 1);
    return items_.back().value();
  }
  /// The same for a value written in braces (`dict.insert("a", {1, 2})`).
  Value& insert(Key key, Value&& value) {
    return insert<Key, Value>(std::move(key), std::move(value));
  }
  /// Replaces the value under an existing key, or appends a new item.
  template <typename V>
  Value& insert_or_assign(const Key& key, V&& value) {
    if (Value* v = find(key)) return *v = std::forward<V>(value);
    return insert(key, std::forward<V>(value));
  }
  /// Inserts every item of `other`; ValueError for a key already present, as in libtorch.
  void update(const OrderedDict& other) {
    for (const auto& item : other) insert(item.key(), item.value());
  }
  /// Removes and returns the value under `key`; IndexError when absent.
  Value pop(const Key& key) {
    auto it = index_.find(key);
    BRASA_CHECK_INDEX(it != index_.end(), key_description_, " '", key, "' is not defined");
    const size_t pos = it->second;
    Value v = std::move(items_[pos].value());
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(pos));
    index_.erase(it);
    for (auto& entry : index_)
      if (entry.second > pos) --entry.second;
    return v;
  }
  void erase(const Key& key) { pop(key); }
  void clear() {
    items_.clear();
    index_.clear();
  }
  void reserve(size_t n) {
    items_.reserve(n);
    index_.reserve(n);
  }

  size_t size() const noexcept { return items_.size(); }
  bool is_empty() const noexcept { return items_.empty(); }
  bool empty() const noexcept { return items_.empty(); }
  const std::vector<Item>& items() const noexcept { return items_; }
  std::vector<Key> keys() const {
    std::vector<Key> out;
    out.reserve(items_.size());
    for (const auto& item : items_) out.push_back(item.key());
    return out;
  }
  std::vector<Value> values() const {
    std::vector<Value> out;
    out.reserve(items_.size());
    for (const auto& item : items_) out.push_back(item.value());
    return out;
  }
  std::vector<std::pair<Key, Value>> pairs() const {
    std::vector<std::pair<Key, Value>> out;
    out.reserve(items_.size());
    for (const auto& item : items_) out.push_back(item.pair());
    return out;
  }

 private:
  std::vector<Item> items_;
  std::unordered_map<Key, size_t> index_;
  std::string key_description_{"Key"};
};

}  // namespace brasa
