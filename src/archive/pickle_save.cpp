// The pickler: protocol 2, the opcode subset PyTorch writes for state_dicts (backends_formats.md
// §4.2). Dicts are written as collections.OrderedDict (insertion order, like state_dict()); tensors
// as _rebuild_tensor_v2 over persistent storage ids, each storage once with its key.

#include <cstring>
#include <unordered_map>

#include "archive/pickle.h"
#include "brasa/backend/backend.h"
#include "brasa/core/error.h"

namespace brasa::serialize {

const char* storage_type_name(ScalarType dtype) { return to_string(dtype); }

namespace {

class Pickler {
 public:
  explicit Pickler(std::vector<Storage>& storages) : storages_(storages) {}

  std::vector<uint8_t> run(const IValue& v) {
    op(0x80);
    op(2);
    write(v, 0);
    op('.');
    return std::move(out_);
  }

 private:
  void op(uint8_t b) { out_.push_back(b); }
  void le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  void write_int(int64_t v) {
    if (v >= 0 && v < 256) {
      op('K');
      le(static_cast<uint64_t>(v), 1);
    } else if (v >= 0 && v < 65536) {
      op('M');
      le(static_cast<uint64_t>(v), 2);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
      op('J');
      le(static_cast<uint64_t>(v), 4);
    } else {
      op(0x8a);
      op(8);
      le(static_cast<uint64_t>(v), 8);
    }
  }
  void write_double(double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    op('G');
    for (int i = 7; i >= 0; --i) op(static_cast<uint8_t>(bits >> (8 * i)));
  }
  void write_string(const std::string& s) {
    BRASA_CHECK(s.size() <= UINT32_MAX, "pickle: string of ", s.size(), " bytes is too long");
    op('X');
    le(s.size(), 4);
    out_.insert(out_.end(), s.begin(), s.end());
  }
  // GLOBALs are memoized: the first use stores them, later uses fetch them.
  void write_global(const std::string& module, const std::string& name) {
    std::string line = module + "\n" + name + "\n";
    auto it = globals_.find(line);
    if (it != globals_.end()) {
      memo_get(it->second);
      return;
    }
    op('c');
    out_.insert(out_.end(), line.begin(), line.end());
    globals_.emplace(line, memo_put());
  }
  uint32_t memo_put() {
    uint32_t index = next_memo_++;
    if (index < 256) {
      op('q');
      le(index, 1);
    } else {
      op('r');
      le(index, 4);
    }
    return index;
  }
  void memo_get(uint32_t index) {
    if (index < 256) {
      op('h');
      le(index, 1);
    } else {
      op('j');
      le(index, 4);
    }
  }
  void write_tuple(const std::vector<IValue>& items, int depth) {
    if (items.empty()) {
      op(')');
      return;
    }
    if (items.size() > 3) op('(');
    for (const IValue& e : items) write(e, depth + 1);
    op(items.size() == 1 ? 0x85 : items.size() == 2 ? 0x86 : items.size() == 3 ? 0x87 : 't');
  }
  void empty_ordered_dict() {
    write_global("collections", "OrderedDict");
    op(')');
    op('R');
  }
  void write_tensor(const Tensor& t);
  void write(const IValue& v, int depth);
  void write_value(const IValue& v, int depth);

  std::vector<uint8_t> out_;
  std::vector<Storage>& storages_;
  std::unordered_map<const StorageImpl*, std::pair<size_t, ScalarType>> storage_keys_;
  std::unordered_map<std::string, uint32_t> globals_;
  // Lists, tuples and dicts already written (shared ones are written once, like Python's pickler),
  // and those being written (a container inside itself can't be saved).
  std::unordered_map<const void*, uint32_t> containers_;
  std::unordered_map<const void*, bool> in_progress_;
  uint32_t next_memo_ = 0;
};

namespace {
Storage host_copy(const Storage& s) {
  Allocator* cpu = get_allocator(kCPU);
  Storage out =
      make_intrusive<StorageImpl>(cpu->allocate(s->nbytes()), s->nbytes(), Device(kCPU), cpu);
  backend::copy_bytes(Device(kCPU), out->data(), s->device(), s->data(), s->nbytes());
  return out;
}
}  // namespace

void Pickler::write_tensor(const Tensor& t) {
  BRASA_CHECK(t.defined(), "pickle: cannot save an undefined tensor");
  BRASA_CHECK(!t.is_meta(), "pickle: meta tensors have no data to save");
  const Storage& storage = t.storage();
  ScalarType dtype = t.scalar_type();
  size_t elsize = element_size(dtype);
  auto [it, inserted] =
      storage_keys_.emplace(storage.get(), std::make_pair(storages_.size(), dtype));
  if (inserted) {
    // A device storage is saved as a CPU copy (files load to the CPU; Note [Backend extension
    // point]: device bytes are read only through the backend's copier).
    storages_.push_back(storage->device().is_cpu() ? storage : host_copy(storage));
  } else {
    BRASA_CHECK(it->second.second == dtype, "pickle: one storage is viewed as both ",
                it->second.second, " and ", dtype, "; save a copy of one of the tensors");
  }
  BRASA_CHECK(storage->nbytes() % elsize == 0, "pickle: storage of ", storage->nbytes(),
              " bytes is not a whole number of ", dtype);

  write_global("torch._utils", "_rebuild_tensor_v2");
  op('(');
  op('(');
  write_string("storage");
  write_global("torch", std::string(storage_type_name(dtype)) + "Storage");
  write_string(std::to_string(it->second.first));
  write_string("cpu");
  write_int(static_cast<int64_t>(storage->nbytes() / elsize));
  op('t');
  op('Q');
  write_int(t.storage_offset());
  std::vector<IValue> sizes, strides;
  for (int64_t s : t.sizes()) sizes.emplace_back(s);
  for (int64_t s : t.strides()) strides.emplace_back(s);
  write_tuple(sizes, 0);
  write_tuple(strides, 0);
  op(t.requires_grad() ? 0x88 : 0x89);
  empty_ordered_dict();
  op('t');
  op('R');
}

void Pickler::write(const IValue& v, int depth) {
  BRASA_CHECK(depth <= kMaxPickleDepth, "pickle: values nested deeper than ", kMaxPickleDepth);
  const void* identity = v.internalToPointer();
  if (identity) {
    BRASA_CHECK(!in_progress_[identity], "pickle: a ", v.tagKind(), " contains itself");
    auto it = containers_.find(identity);
    if (it != containers_.end()) {
      memo_get(it->second);
      return;
    }
    in_progress_[identity] = true;
  }
  write_value(v, depth);
  if (identity) {
    in_progress_[identity] = false;
    if (v.isTuple()) containers_.emplace(identity, memo_put());
  }
}

void Pickler::write_value(const IValue& v, int depth) {
  const void* identity = v.internalToPointer();
  switch (v.tag()) {
    case IValue::Tag::None: op('N'); return;
    case IValue::Tag::Bool: op(v.toBool() ? 0x88 : 0x89); return;
    case IValue::Tag::Int: write_int(v.toInt()); return;
    case IValue::Tag::Double: write_double(v.toDouble()); return;
    case IValue::Tag::String: write_string(v.toStringRef()); return;
    case IValue::Tag::Tensor: write_tensor(v.toTensor()); return;
    case IValue::Tag::Tuple: write_tuple(v.toTupleRef().elements(), depth); return;
    case IValue::Tag::GenericList: {
      const std::vector<IValue>& items = v.toListRef();
      op(']');
      containers_.emplace(identity, memo_put());
      for (size_t i = 0; i < items.size(); i += 1000) {
        op('(');
        for (size_t j = i; j < std::min(items.size(), i + 1000); ++j) write(items[j], depth + 1);
        op('e');
      }
      return;
    }
    case IValue::Tag::GenericDict: {
      GenericDict d = v.toGenericDict();
      empty_ordered_dict();
      containers_.emplace(identity, memo_put());
      size_t n = 0;
      for (const auto& kv : d) {
        if (n % 1000 == 0) op('(');
        write(kv.key(), depth + 1);
        write(kv.value(), depth + 1);
        if (++n % 1000 == 0) op('u');
      }
      if (n % 1000 != 0) op('u');
      return;
    }
  }
}

}  // namespace

std::vector<uint8_t> pickle(const IValue& value, std::vector<Storage>& storages) {
  return Pickler(storages).run(value);
}

}  // namespace brasa::serialize
