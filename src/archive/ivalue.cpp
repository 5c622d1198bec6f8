#include "brasa/archive/ivalue.h"

#include <new>
#include <variant>

#include "brasa/core/error.h"

namespace brasa {

namespace ivalue {
Tuple::Tuple(std::vector<IValue> elements) : elements_(std::move(elements)) {}
std::shared_ptr<Tuple> Tuple::create(std::vector<IValue> elements) {
  return std::make_shared<Tuple>(std::move(elements));
}
size_t Tuple::size() const { return elements_.size(); }
}  // namespace ivalue

GenericList::GenericList() : values_(std::make_shared<std::vector<IValue>>()) {}
GenericList::GenericList(std::vector<IValue> values)
    : values_(std::make_shared<std::vector<IValue>>(std::move(values))) {}
size_t GenericList::size() const { return values_->size(); }
const IValue& GenericList::get(size_t i) const {
  BRASA_CHECK_INDEX(i < values_->size(), "GenericList: index ", i,
                    " is out of range for a list of ", values_->size(), " elements");
  return (*values_)[i];
}
void GenericList::push_back(IValue v) { values_->push_back(std::move(v)); }
std::vector<IValue>::const_iterator GenericList::begin() const { return values_->cbegin(); }
std::vector<IValue>::const_iterator GenericList::end() const { return values_->cend(); }

// Keys are indexed by kind: str and int are the only key kinds checkpoints use.
struct GenericDict::Impl {
  std::vector<Entry> entries;
  std::unordered_map<std::string, size_t> str_index;
  std::unordered_map<int64_t, size_t> int_index;

  static void check_key(const IValue& key) {
    BRASA_CHECK_TYPE(key.isString() || key.isInt(), "GenericDict: keys must be String or Int, got ",
                     key.tagKind());
  }
  const size_t* lookup(const IValue& key) const {
    check_key(key);
    if (key.isString()) {
      auto it = str_index.find(key.toStringRef());
      return it == str_index.end() ? nullptr : &it->second;
    }
    auto it = int_index.find(key.toInt());
    return it == int_index.end() ? nullptr : &it->second;
  }
  void index(const IValue& key, size_t i) {
    if (key.isString()) {
      str_index.emplace(key.toStringRef(), i);
    } else {
      int_index.emplace(key.toInt(), i);
    }
  }
};

GenericDict::GenericDict() : impl_(std::make_shared<Impl>()) {}
size_t GenericDict::size() const { return impl_->entries.size(); }
GenericDict::iterator GenericDict::begin() const { return impl_->entries.cbegin(); }
GenericDict::iterator GenericDict::end() const { return impl_->entries.cend(); }

std::pair<GenericDict::iterator, bool> GenericDict::insert(IValue key, IValue value) {
  if (const size_t* i = impl_->lookup(key)) {
    return {begin() + static_cast<std::ptrdiff_t>(*i), false};
  }
  impl_->index(key, impl_->entries.size());
  impl_->entries.emplace_back(std::move(key), std::move(value));
  return {end() - 1, true};
}

std::pair<GenericDict::iterator, bool> GenericDict::insert_or_assign(IValue key, IValue value) {
  if (const size_t* i = impl_->lookup(key)) {
    impl_->entries[*i].setValue(std::move(value));
    return {begin() + static_cast<std::ptrdiff_t>(*i), false};
  }
  return insert(std::move(key), std::move(value));
}

GenericDict::iterator GenericDict::find(const IValue& key) const {
  const size_t* i = impl_->lookup(key);
  return i ? begin() + static_cast<std::ptrdiff_t>(*i) : end();
}

const IValue& GenericDict::at(const IValue& key) const {
  auto it = find(key);
  BRASA_CHECK_INDEX(it != end(), "GenericDict: key ",
                    key.isString() ? "'" + key.toStringRef() + "'" : std::to_string(key.toInt()),
                    " is not in the dict");
  return it->value();
}

// Note [IValue's storage is out of line]
// IValue is part of the public headers (optimizer state, archives, c10d futures), so a
// std::variant member there was instantiated, with its copy/move/visit machinery, by every
// program that includes <torch/torch.h> (~0.25 s of a hello world's compile in clang's
// -ftime-trace). The variant is defined here instead and placement-constructed in IValue's
// byte buffer; every constructor, special member and accessor is out of line.
struct IValue::Storage {
  std::variant<std::monostate, bool, int64_t, double, std::string, Tensor, GenericList,
               std::shared_ptr<ivalue::Tuple>, std::shared_ptr<void>>
      v;
};
IValue::Storage& IValue::storage() {
  static_assert(sizeof(Storage) <= kStorageBytes && alignof(Storage) <= 8,
                "IValue::kStorageBytes must hold the variant");
  return *std::launder(reinterpret_cast<Storage*>(buf_));
}
const IValue::Storage& IValue::storage() const {
  return *std::launder(reinterpret_cast<const Storage*>(buf_));
}

IValue::IValue() { new (buf_) Storage{}; }
IValue::IValue(const IValue& other) { new (buf_) Storage(other.storage()); }
IValue::IValue(IValue&& other) noexcept { new (buf_) Storage(std::move(other.storage())); }
IValue& IValue::operator=(const IValue& other) {
  if (this != &other) storage() = other.storage();
  return *this;
}
IValue& IValue::operator=(IValue&& other) noexcept {
  if (this != &other) storage() = std::move(other.storage());
  return *this;
}
IValue::~IValue() { storage().~Storage(); }
IValue::IValue(bool v) { new (buf_) Storage{decltype(Storage::v)(std::in_place_type<bool>, v)}; }
IValue::IValue(int v) : IValue(static_cast<int64_t>(v)) {}
IValue::IValue(int64_t v) {
  new (buf_) Storage{decltype(Storage::v)(std::in_place_type<int64_t>, v)};
}
IValue::IValue(double v) {
  new (buf_) Storage{decltype(Storage::v)(std::in_place_type<double>, v)};
}
IValue::IValue(const char* v) : IValue(std::string(v)) {}
IValue::IValue(std::string v) {
  new (buf_) Storage{decltype(Storage::v)(std::in_place_type<std::string>, std::move(v))};
}
IValue::IValue(Tensor v) {
  new (buf_) Storage{decltype(Storage::v)(std::in_place_type<Tensor>, std::move(v))};
}
IValue::IValue(GenericList v) {
  new (buf_) Storage{decltype(Storage::v)(std::in_place_type<GenericList>, std::move(v))};
}
IValue::IValue(std::vector<IValue> v) : IValue(GenericList(std::move(v))) {}
IValue::IValue(std::shared_ptr<ivalue::Tuple> v) {
  BRASA_CHECK(v != nullptr, "IValue: null tuple");
  new (buf_) Storage{
      decltype(Storage::v)(std::in_place_type<std::shared_ptr<ivalue::Tuple>>, std::move(v))};
}
IValue::IValue(GenericDict v) {
  new (buf_) Storage{decltype(Storage::v)(std::in_place_type<std::shared_ptr<void>>,
                                          std::static_pointer_cast<void>(std::move(v.impl_)))};
}
IValue::Tag IValue::tag() const { return static_cast<Tag>(storage().v.index()); }
IValue IValue::tuple(std::vector<IValue> elements) {
  return IValue(ivalue::Tuple::create(std::move(elements)));
}

std::string IValue::tagKind() const {
  static const char* const names[] = {"None",   "Bool",        "Int",   "Double",     "String",
                                      "Tensor", "GenericList", "Tuple", "GenericDict"};
  return names[storage().v.index()];
}

void IValue::type_error(const char* expected) const {
  BRASA_THROW(TypeError, "IValue: expected ", expected, ", got ", tagKind());
}

bool IValue::toBool() const {
  if (!isBool()) type_error("Bool");
  return std::get<bool>(storage().v);
}
int64_t IValue::toInt() const {
  if (!isInt()) type_error("Int");
  return std::get<int64_t>(storage().v);
}
double IValue::toDouble() const {
  if (!isDouble()) type_error("Double");
  return std::get<double>(storage().v);
}
const std::string& IValue::toStringRef() const {
  if (!isString()) type_error("String");
  return std::get<std::string>(storage().v);
}
const Tensor& IValue::toTensor() const {
  if (!isTensor()) type_error("Tensor");
  return std::get<Tensor>(storage().v);
}
GenericList IValue::toList() const {
  if (!isList()) type_error("GenericList");
  return std::get<GenericList>(storage().v);
}
const std::vector<IValue>& IValue::toListRef() const {
  if (!isList()) type_error("GenericList");
  return std::get<GenericList>(storage().v).vec();
}
std::shared_ptr<ivalue::Tuple> IValue::toTuple() const {
  if (!isTuple()) type_error("Tuple");
  return std::get<std::shared_ptr<ivalue::Tuple>>(storage().v);
}
const ivalue::Tuple& IValue::toTupleRef() const {
  if (!isTuple()) type_error("Tuple");
  return *std::get<std::shared_ptr<ivalue::Tuple>>(storage().v);
}
GenericDict IValue::toGenericDict() const {
  if (!isGenericDict()) type_error("GenericDict");
  return GenericDict(
      std::static_pointer_cast<GenericDict::Impl>(std::get<std::shared_ptr<void>>(storage().v)));
}
const void* IValue::internalToPointer() const {
  switch (tag()) {
    case Tag::GenericList: return &std::get<GenericList>(storage().v).vec();
    case Tag::Tuple: return std::get<std::shared_ptr<ivalue::Tuple>>(storage().v).get();
    case Tag::GenericDict: return std::get<std::shared_ptr<void>>(storage().v).get();
    default: return nullptr;
  }
}

std::vector<int64_t> IValue::toIntVector() const {
  const std::vector<IValue>* items = nullptr;
  if (isList()) {
    items = &toListRef();
  } else if (isTuple()) {
    items = &toTupleRef().elements();
  } else {
    type_error("a list or tuple of Int");
  }
  std::vector<int64_t> out;
  out.reserve(items->size());
  for (const IValue& v : *items) out.push_back(v.toInt());
  return out;
}

IValue::IValue(const std::vector<Tensor>& tensors)
    : IValue(std::vector<IValue>(tensors.begin(), tensors.end())) {}

std::vector<Tensor> IValue::toTensorVector() const {
  if (!isList()) type_error("a list of Tensor");
  std::vector<Tensor> out;
  out.reserve(toListRef().size());
  for (const IValue& v : toListRef()) out.push_back(v.toTensor());
  return out;
}

}  // namespace brasa
