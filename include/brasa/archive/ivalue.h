#pragma once
// IValue: the dynamically typed value of pickled checkpoints (libtorch's c10::IValue spellings).
// None, bool, int64, double, string, Tensor, list, tuple and an insertion-ordered dict. Lists,
// tuples and dicts are reference types like in libtorch: copying an IValue shares them.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "brasa/core/tensor.h"

namespace brasa {

class IValue;
class GenericDict;

namespace ivalue {
/// An immutable tuple of values (c10::ivalue::Tuple).
struct BRASA_API Tuple {
  explicit Tuple(std::vector<IValue> elements);
  static std::shared_ptr<Tuple> create(std::vector<IValue> elements);
  const std::vector<IValue>& elements() const { return elements_; }
  size_t size() const;

 private:
  std::vector<IValue> elements_;
};
}  // namespace ivalue

/// A shared, mutable list of values (c10::List<IValue>).
class BRASA_API GenericList {
 public:
  GenericList();
  explicit GenericList(std::vector<IValue> values);
  size_t size() const;
  bool empty() const { return size() == 0; }
  const IValue& get(size_t i) const;
  const IValue& operator[](size_t i) const { return get(i); }
  void push_back(IValue v);
  std::vector<IValue>& vec() { return *values_; }
  const std::vector<IValue>& vec() const { return *values_; }
  std::vector<IValue>::const_iterator begin() const;
  std::vector<IValue>::const_iterator end() const;

 private:
  std::shared_ptr<std::vector<IValue>> values_;
};

/// A dynamically typed value. Wrong accessors throw TypeError naming the expected and actual kind.
class BRASA_API IValue {
 public:
  enum class Tag : uint8_t {
    None,
    Bool,
    Int,
    Double,
    String,
    Tensor,
    GenericList,
    Tuple,
    GenericDict
  };

  IValue();
  IValue(const IValue& other);
  IValue(IValue&& other) noexcept;
  IValue& operator=(const IValue& other);
  IValue& operator=(IValue&& other) noexcept;
  ~IValue();
  IValue(bool v);                            // NOLINT(google-explicit-constructor)
  IValue(int v);                             // NOLINT
  IValue(int64_t v);                         // NOLINT
  IValue(double v);                          // NOLINT
  IValue(const char* v);                     // NOLINT
  IValue(std::string v);                     // NOLINT
  IValue(Tensor v);                          // NOLINT
  IValue(GenericList v);                     // NOLINT
  IValue(std::vector<IValue> v);             // NOLINT
  IValue(std::shared_ptr<ivalue::Tuple> v);  // NOLINT
  IValue(GenericDict v);                     // NOLINT
  /// A tuple of `elements`.
  static IValue tuple(std::vector<IValue> elements);

  Tag tag() const;
  /// The kind's name for messages: "None", "Bool", "Int", "Double", "String", "Tensor",
  /// "GenericList", "Tuple", "GenericDict".
  std::string tagKind() const;

  bool isNone() const { return tag() == Tag::None; }
  bool isBool() const { return tag() == Tag::Bool; }
  bool isInt() const { return tag() == Tag::Int; }
  bool isDouble() const { return tag() == Tag::Double; }
  bool isString() const { return tag() == Tag::String; }
  bool isTensor() const { return tag() == Tag::Tensor; }
  bool isList() const { return tag() == Tag::GenericList; }
  bool isTuple() const { return tag() == Tag::Tuple; }
  bool isGenericDict() const { return tag() == Tag::GenericDict; }

  bool toBool() const;
  int64_t toInt() const;
  double toDouble() const;
  const std::string& toStringRef() const;
  const Tensor& toTensor() const;
  GenericList toList() const;
  const std::vector<IValue>& toListRef() const;
  std::shared_ptr<ivalue::Tuple> toTuple() const;
  const ivalue::Tuple& toTupleRef() const;
  GenericDict toGenericDict() const;
  /// The shared object of a list, tuple or dict (its identity), else null.
  const void* internalToPointer() const;
  /// The ints of a list or tuple of ints (sizes, strides).
  std::vector<int64_t> toIntVector() const;
  /// A list of tensors (what a c10d Work's future holds), from IValue(std::vector<Tensor>).
  IValue(const std::vector<Tensor>& tensors);  // NOLINT(google-explicit-constructor)
  /// The tensors of a list of tensors; TypeError naming the kind otherwise.
  std::vector<Tensor> toTensorVector() const;

 private:
  [[noreturn]] void type_error(const char* expected) const;
  // The value lives in a std::variant defined in ivalue.cpp, constructed in buf_: keeping the
  // variant out of this header saves every includer of <torch/torch.h> its instantiation
  // (Note [IValue's storage is out of line]).
  struct Storage;
  Storage& storage();
  const Storage& storage() const;
  static constexpr size_t kStorageBytes = 40;
  alignas(8) unsigned char buf_[kStorageBytes];
};

/// An insertion-ordered dict with str or int keys, shared on copy (c10::Dict<IValue, IValue>).
/// Other key kinds throw TypeError.
class BRASA_API GenericDict {
 public:
  class Entry {
   public:
    Entry(IValue k, IValue v) : key_(std::move(k)), value_(std::move(v)) {}
    const IValue& key() const { return key_; }
    const IValue& value() const { return value_; }
    void setValue(IValue v) { value_ = std::move(v); }

   private:
    IValue key_;
    IValue value_;
  };
  using iterator = std::vector<Entry>::const_iterator;

  GenericDict();
  size_t size() const;
  bool empty() const { return size() == 0; }
  /// Inserts when `key` is absent; returns (entry, inserted).
  std::pair<iterator, bool> insert(IValue key, IValue value);
  std::pair<iterator, bool> insert_or_assign(IValue key, IValue value);
  /// The value of `key`; throws IndexError when absent.
  const IValue& at(const IValue& key) const;
  iterator find(const IValue& key) const;
  bool contains(const IValue& key) const { return find(key) != end(); }
  iterator begin() const;
  iterator end() const;

 private:
  friend class IValue;
  struct Impl;
  explicit GenericDict(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

}  // namespace brasa
