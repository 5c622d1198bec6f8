// The restricted unpickler. Note [Restricted unpickler]: like torch.load(weights_only=True), it
// executes nothing: opcodes outside the allow-list are errors, GLOBAL resolves only names of a
// fixed table, REDUCE only calls the rebuild functions and OrderedDict, APPEND(S) and SETITEM(S)
// only mutate lists and dicts. Containers can be mutated only until they are nested in another one,
// so values can't be cyclic and their depth is known when they are nested (bounded by
// kMaxPickleDepth).

#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>

#include "archive/pickle.h"
#include "brasa/archive/error.h"

namespace brasa::serialize {
namespace {

enum class GlobalKind : uint8_t {
  OrderedDict,
  RebuildV2,
  RebuildV3,
  RebuildParameter,
  Storage,
  Dtype,
  Size
};

struct Global {
  GlobalKind kind;
  ScalarType dtype = ScalarType::Undefined;  // Storage (Undefined = UntypedStorage) and Dtype
  std::string name;
};

struct StorageRef {
  std::string key;
  ScalarType dtype;  // Undefined for UntypedStorage
  uint64_t nbytes;
  std::string location;
};

struct Item;
using Items = std::vector<Item>;

// A stack or memo entry: a value, or one of the objects only the unpickler sees.
struct Item {
  enum class Kind : uint8_t { Value, Tuple, Global, Storage };
  Kind kind = Kind::Value;
  IValue value;
  std::shared_ptr<const Items> tuple;
  // A tuple's value, built once: an item referenced many times (memo) is converted once and shared.
  std::shared_ptr<std::optional<IValue>> tuple_value;
  std::shared_ptr<const Global> global;
  std::shared_ptr<const StorageRef> storage;
  // Lists and dicts: shared by the memo and stack copies of the container.
  struct Container {
    int depth = 1;
    bool nested = false;
  };
  std::shared_ptr<Container> container;
  int depth = 0;  // scalars 0; tuples fixed at creation

  int value_depth() const { return container ? container->depth : depth; }
};

constexpr size_t kMaxStackItems = size_t{1} << 20;
constexpr size_t kMaxMemoItems = size_t{1} << 24;

constexpr struct {
  const char* name;
  ScalarType dtype;
} kDtypeNames[] = {
    {"float32", kFloat},
    {"float", kFloat},
    {"float64", kDouble},
    {"double", kDouble},
    {"float16", kHalf},
    {"half", kHalf},
    {"bfloat16", kBFloat16},
    {"int64", kLong},
    {"long", kLong},
    {"int32", kInt},
    {"int", kInt},
    {"int16", kShort},
    {"short", kShort},
    {"int8", kChar},
    {"uint8", kByte},
    {"bool", kBool},
    {"complex64", kComplexFloat},
    {"cfloat", kComplexFloat},
    {"complex128", kComplexDouble},
    {"cdouble", kComplexDouble},
};

class Unpickler {
 public:
  Unpickler(const uint8_t* data, size_t size, const StorageLoader& load, const std::string& origin)
      : data_(data), size_(size), load_(load), origin_(origin) {}

  IValue run();

 private:
  template <typename... Args>
  [[noreturn]] void fail(const Args&... args) const {
    BRASA_THROW(SerializationError, origin_, ": ", args..., " at byte ", op_pos_, " of the pickle");
  }
  const uint8_t* take(size_t n, const char* what) {
    if (size_ - pos_ < n)
      fail("truncated pickle: ", what, " needs ", n, " bytes, ", size_ - pos_, " left");
    const uint8_t* p = data_ + pos_;
    pos_ += n;
    return p;
  }
  uint64_t read_le(size_t n, const char* what) {
    const uint8_t* p = take(n, what);
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t{p[i]} << (8 * i);
    return v;
  }
  std::string read_line(const char* what);
  Item pop(const char* op) {
    if (stack_.size() <= stack_floor()) fail("stack underflow at ", op);
    Item it = std::move(stack_.back());
    stack_.pop_back();
    return it;
  }
  Item& top(const char* op) {
    if (stack_.size() <= stack_floor()) fail("stack underflow at ", op);
    return stack_.back();
  }
  size_t stack_floor() const { return marks_.empty() ? 0 : marks_.back(); }
  Items pop_mark(const char* op) {
    if (marks_.empty()) fail(op, " without a MARK");
    size_t m = marks_.back();
    marks_.pop_back();
    Items items(std::make_move_iterator(stack_.begin() + static_cast<std::ptrdiff_t>(m)),
                std::make_move_iterator(stack_.end()));
    stack_.resize(m);
    return items;
  }
  void push_value(IValue v, std::shared_ptr<Item::Container> c = nullptr) {
    Item it;
    it.value = std::move(v);
    it.container = std::move(c);
    stack_.push_back(std::move(it));
  }
  void push_tuple(Items items);
  IValue to_value(const Item& item, const char* where);
  IValue nest(Item& parent, const Item& child, const char* op);
  void global();
  void reduce();
  void persistent_load();
  Tensor rebuild_tensor(const Items& args, bool v3);
  Item memo_get(uint64_t index) {
    auto it = memo_.find(index);
    if (it == memo_.end()) fail("memo index ", index, " was never stored (BINGET)");
    if (it->second.kind == Item::Kind::Value && it->second.value.isString()) {
      spend_string_budget(it->second.value.toStringRef().size());
    }
    return it->second;
  }
  void spend_string_budget(size_t n) {
    if (n > string_budget_) fail("strings take more than 16 times the pickle's size");
    string_budget_ -= n;
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  size_t op_pos_ = 0;
  const StorageLoader& load_;
  const std::string& origin_;
  Items stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint64_t, Item> memo_;
  std::unordered_map<std::string, Tensor> storages_;
  // Bytes of strings pushed, memo copies included: bounds what BINGET of a long string can
  // allocate.
  uint64_t string_budget_ = 16 * uint64_t{size_} + (1u << 20);
};

std::string Unpickler::read_line(const char* what) {
  size_t limit = std::min<size_t>(size_ - pos_, 256);
  const void* nl = std::memchr(data_ + pos_, '\n', limit);
  if (!nl) fail("GLOBAL ", what, " is not a line of at most 255 bytes");
  size_t n = static_cast<const uint8_t*>(nl) - (data_ + pos_);
  std::string s(reinterpret_cast<const char*>(data_ + pos_), n);
  pos_ += n + 1;
  return s;
}

void Unpickler::push_tuple(Items items) {
  Item it;
  it.kind = Item::Kind::Tuple;
  int depth = 0;
  for (Item& e : items) {
    if (e.container) e.container->nested = true;
    depth = std::max(depth, e.value_depth());
  }
  if (depth + 1 > kMaxPickleDepth) fail("values nested deeper than ", kMaxPickleDepth);
  it.depth = depth + 1;
  it.tuple = std::make_shared<const Items>(std::move(items));
  it.tuple_value = std::make_shared<std::optional<IValue>>();
  stack_.push_back(std::move(it));
}

IValue Unpickler::to_value(const Item& item, const char* where) {
  switch (item.kind) {
    case Item::Kind::Value: return item.value;
    case Item::Kind::Tuple: {
      if (!item.tuple_value->has_value()) {
        std::vector<IValue> elements;
        elements.reserve(item.tuple->size());
        for (const Item& e : *item.tuple) elements.push_back(to_value(e, where));
        *item.tuple_value = IValue::tuple(std::move(elements));
      }
      return **item.tuple_value;
    }
    case Item::Kind::Global:
      fail("global '", item.global->name, "' cannot be used as a value in ", where);
    case Item::Kind::Storage:
      fail("storage '", item.storage->key, "' is used outside a tensor rebuild in ", where);
  }
  fail("bad item");
}

// Seals `child` (it can no longer be mutated) and gives its value for insertion into `parent`.
IValue Unpickler::nest(Item& parent, const Item& child, const char* op) {
  if (child.container) child.container->nested = true;
  if (parent.container->nested)
    fail(op, " on a container that is already nested (recursive pickles are not supported)");
  parent.container->depth = std::max(parent.container->depth, child.value_depth() + 1);
  if (parent.container->depth > kMaxPickleDepth)
    fail("values nested deeper than ", kMaxPickleDepth);
  return to_value(child, op);
}

void Unpickler::global() {
  std::string module = read_line("module");
  std::string name = read_line("name");
  auto g = std::make_shared<Global>();
  g->name = module + "." + name;
  if (module == "collections" && name == "OrderedDict") {
    g->kind = GlobalKind::OrderedDict;
  } else if (module == "torch._utils" && name == "_rebuild_tensor_v2") {
    g->kind = GlobalKind::RebuildV2;
  } else if (module == "torch._utils" && name == "_rebuild_tensor_v3") {
    g->kind = GlobalKind::RebuildV3;
  } else if (module == "torch._utils" && name == "_rebuild_parameter") {
    g->kind = GlobalKind::RebuildParameter;
  } else if (module == "torch" && name == "Size") {
    g->kind = GlobalKind::Size;
  } else if (module == "torch" && name == "UntypedStorage") {
    g->kind = GlobalKind::Storage;
  } else if (module == "torch") {
    auto match_storage = [&](ScalarType t) {
      if (name == std::string(storage_type_name(t)) + "Storage") {
        g->kind = GlobalKind::Storage;
        g->dtype = t;
      }
    };
    for (ScalarType t : kAllScalarTypes) match_storage(t);
    for (ScalarType t : kComplexScalarTypes) match_storage(t);
    for (const auto& d : kDtypeNames) {
      if (name == d.name) {
        g->kind = GlobalKind::Dtype;
        g->dtype = d.dtype;
      }
    }
    if (g->dtype == ScalarType::Undefined) fail("unsupported global '", g->name, "'");
  } else {
    fail("unsupported global '", g->name, "' (only tensors, containers and scalars can be loaded)");
  }
  Item it;
  it.kind = Item::Kind::Global;
  it.global = std::move(g);
  stack_.push_back(std::move(it));
}

void Unpickler::persistent_load() {
  Item pid = pop("BINPERSID");
  const Items* t = pid.kind == Item::Kind::Tuple ? pid.tuple.get() : nullptr;
  if (!t || t->size() != 5 || (*t)[0].kind != Item::Kind::Value || !(*t)[0].value.isString() ||
      (*t)[0].value.toStringRef() != "storage") {
    fail("persistent id must be a tuple ('storage', storage type, key, location, numel)");
  }
  const Item& cls = (*t)[1];
  if (cls.kind != Item::Kind::Global || cls.global->kind != GlobalKind::Storage) {
    fail("persistent id: the second item must be a storage type");
  }
  for (int i : {2, 3, 4}) {
    const Item& e = (*t)[i];
    bool ok = e.kind == Item::Kind::Value && (i == 4 ? e.value.isInt() : e.value.isString());
    if (!ok) fail("persistent id: item ", i, " must be ", i == 4 ? "an int (numel)" : "a string");
  }
  int64_t numel = (*t)[4].value.toInt();
  ScalarType dtype = cls.global->dtype;
  uint64_t elsize = dtype == ScalarType::Undefined ? 1 : element_size(dtype);
  if (numel < 0 ||
      static_cast<uint64_t>(numel) > std::numeric_limits<uint64_t>::max() / 8 / elsize) {
    fail("persistent id: storage numel ", numel, " is out of range");
  }
  Item it;
  it.kind = Item::Kind::Storage;
  it.storage = std::make_shared<StorageRef>(StorageRef{(*t)[2].value.toStringRef(), dtype,
                                                       static_cast<uint64_t>(numel) * elsize,
                                                       (*t)[3].value.toStringRef()});
  stack_.push_back(std::move(it));
}

Tensor Unpickler::rebuild_tensor(const Items& args, bool v3) {
  const char* fn = v3 ? "_rebuild_tensor_v3" : "_rebuild_tensor_v2";
  size_t min_args = v3 ? 7 : 6;
  if (args.size() != min_args && args.size() != min_args + 1) {
    fail(fn, " takes ", min_args, " or ", min_args + 1, " arguments, got ", args.size());
  }
  if (args[0].kind != Item::Kind::Storage) fail(fn, ": argument 0 must be a storage");
  const StorageRef& ref = *args[0].storage;
  ScalarType dtype = ref.dtype;
  if (v3) {
    const Item& d = args[6];
    if (d.kind != Item::Kind::Global || d.global->kind != GlobalKind::Dtype)
      fail(fn, ": argument 6 must be a dtype");
    if (dtype != ScalarType::Undefined && dtype != d.global->dtype)
      fail(fn, ": dtype differs from the storage type");
    dtype = d.global->dtype;
  }
  if (dtype == ScalarType::Undefined) fail(fn, ": an untyped storage needs a dtype");
  uint64_t elsize = element_size(dtype);
  if (ref.nbytes % elsize != 0)
    fail(fn, ": storage of ", ref.nbytes, " bytes is not a whole number of ", to_string(dtype));
  int64_t storage_numel = static_cast<int64_t>(ref.nbytes / elsize);

  IValue offset_v = to_value(args[1], fn), size_v = to_value(args[2], fn),
         stride_v = to_value(args[3], fn);
  IValue grad_v = to_value(args[4], fn);
  if (!offset_v.isInt() || !grad_v.isBool())
    fail(fn, ": storage offset must be an int and requires_grad a bool");
  std::vector<int64_t> sizes, strides;
  try {
    sizes = size_v.toIntVector();
    strides = stride_v.toIntVector();
  } catch (const TypeError&) {
    fail(fn, ": size and stride must be tuples of ints");
  }
  int64_t offset = offset_v.toInt();
  if (sizes.size() != strides.size())
    fail(fn, ": size has ", sizes.size(), " dims but stride ", strides.size());
  if (offset < 0 || offset > storage_numel)
    fail(fn, ": storage offset ", offset, " is outside a storage of ", storage_numel, " elements");
  int64_t extent = 1;
  bool empty = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0 || strides[i] < 0) fail(fn, ": negative size or stride in dim ", i);
    if (sizes[i] == 0) empty = true;
  }
  if (!empty) {
    extent = offset + 1;
    for (size_t i = 0; i < sizes.size(); ++i) {
      int64_t span = 0;
      if (__builtin_mul_overflow(sizes[i] - 1, strides[i], &span) ||
          __builtin_add_overflow(extent, span, &extent)) {
        fail(fn, ": size and stride overflow");
      }
    }
    if (extent > storage_numel) {
      fail(fn, ": a tensor reaching element ", extent, " does not fit its storage '", ref.key,
           "' of ", storage_numel, " elements");
    }
  }

  auto cached = storages_.find(ref.key);
  Tensor storage;
  if (cached != storages_.end()) {
    storage = cached->second;
    if (storage.scalar_type() != dtype || storage.nbytes() != ref.nbytes) {
      fail(fn, ": storage '", ref.key, "' is used with two dtypes or sizes");
    }
  } else {
    storage = load_(ref.key, dtype, ref.nbytes, ref.location);
    BRASA_INTERNAL_ASSERT(storage.scalar_type() == dtype && storage.nbytes() == ref.nbytes &&
                          storage.is_contiguous() && storage.storage_offset() == 0);
    storages_.emplace(ref.key, storage);
  }
  Tensor t = storage.as_strided(sizes, strides, offset);
  if (grad_v.toBool() && (is_floating_type(dtype) || is_complex_type(dtype)))
    t.requires_grad_(true);
  return t;
}

void Unpickler::reduce() {
  Item args = pop("REDUCE");
  Item fn = pop("REDUCE");
  if (fn.kind != Item::Kind::Global) fail("REDUCE on a value that is not an allowed callable");
  if (args.kind != Item::Kind::Tuple)
    fail("REDUCE arguments of '", fn.global->name, "' are not a tuple");
  const Items& a = *args.tuple;
  switch (fn.global->kind) {
    case GlobalKind::OrderedDict:
      if (!a.empty()) fail("OrderedDict must be created empty");
      push_value(GenericDict(), std::make_shared<Item::Container>());
      return;
    case GlobalKind::RebuildV2:
    case GlobalKind::RebuildV3:
      push_value(rebuild_tensor(a, fn.global->kind == GlobalKind::RebuildV3));
      return;
    case GlobalKind::RebuildParameter: {
      if (a.size() != 3 || a[0].kind != Item::Kind::Value || !a[0].value.isTensor()) {
        fail("_rebuild_parameter takes (tensor, requires_grad, hooks)");
      }
      Tensor t = a[0].value.toTensor();
      IValue grad = to_value(a[1], "_rebuild_parameter");
      if (!grad.isBool()) fail("_rebuild_parameter: requires_grad must be a bool");
      if (grad.toBool() && is_floating_type(t.scalar_type())) t.requires_grad_(true);
      push_value(t);
      return;
    }
    case GlobalKind::Size: {
      if (a.size() != 1) fail("torch.Size takes one tuple");
      IValue v = to_value(a[0], "torch.Size");
      try {
        (void)v.toIntVector();
      } catch (const TypeError&) {
        fail("torch.Size takes a tuple of ints");
      }
      std::vector<IValue> dims(v.isTuple() ? v.toTupleRef().elements() : v.toListRef());
      push_value(IValue::tuple(std::move(dims)));
      return;
    }
    default: fail("'", fn.global->name, "' cannot be called");
  }
}

IValue Unpickler::run() {
  while (true) {
    op_pos_ = pos_;
    // Python's pickler batches APPENDS/SETITEMS by 1000, so real stacks stay small.
    if (stack_.size() > kMaxStackItems) fail("more than ", kMaxStackItems, " items on the stack");
    uint8_t op = *take(1, "opcode");
    switch (op) {
      case 0x80:  // PROTO
        take(1, "PROTO");
        break;
      case '.': {  // STOP
        Item result = pop("STOP");
        return to_value(result, "the result");
      }
      case 'c': global(); break;
      case 'R': reduce(); break;
      case 'b': {  // BUILD: OrderedDict.__dict__ update (state_dict()._metadata), dropped
        Item state = pop("BUILD");
        Item& obj = top("BUILD");
        if (!obj.container || !obj.value.isGenericDict())
          fail("BUILD is only allowed on an OrderedDict");
        if (state.kind != Item::Kind::Value || !state.value.isGenericDict())
          fail("BUILD state must be a dict");
        break;
      }
      case 0x81:  // NEWOBJ
        fail("NEWOBJ is not supported (only tensors, containers and scalars can be loaded)");
      case 'a': {  // APPEND
        Item v = pop("APPEND");
        Item& list = top("APPEND");
        if (!list.container || !list.value.isList())
          fail("APPEND on a ", list.kind == Item::Kind::Value ? list.value.tagKind() : "non-list");
        IValue x = nest(list, v, "APPEND");
        list.value.toList().push_back(std::move(x));
        break;
      }
      case 'e': {  // APPENDS
        Items items = pop_mark("APPENDS");
        Item& list = top("APPENDS");
        if (!list.container || !list.value.isList()) fail("APPENDS on a non-list");
        GenericList l = list.value.toList();
        for (const Item& v : items) l.push_back(nest(list, v, "APPENDS"));
        break;
      }
      case 's':    // SETITEM
      case 'u': {  // SETITEMS
        const char* name = op == 's' ? "SETITEM" : "SETITEMS";
        Items items;
        if (op == 's') {
          Item v = pop(name);
          Item k = pop(name);
          items.push_back(std::move(k));
          items.push_back(std::move(v));
        } else {
          items = pop_mark(name);
          if (items.size() % 2 != 0) fail("SETITEMS with an odd number of items");
        }
        Item& dict = top(name);
        if (!dict.container || !dict.value.isGenericDict()) {
          fail(name, " on a ", dict.kind == Item::Kind::Value ? dict.value.tagKind() : "non-dict",
               " (only dicts can be assigned items)");
        }
        GenericDict d = dict.value.toGenericDict();
        for (size_t i = 0; i < items.size(); i += 2) {
          IValue key = nest(dict, items[i], name);
          if (!key.isString() && !key.isInt())
            fail("dict keys must be strings or ints, got ", key.tagKind());
          d.insert_or_assign(std::move(key), nest(dict, items[i + 1], name));
        }
        break;
      }
      case '(': marks_.push_back(stack_.size()); break;
      case 't': push_tuple(pop_mark("TUPLE")); break;
      case 0x85:
      case 0x86:
      case 0x87: {  // TUPLE1..3
        size_t n = op - 0x84u;
        if (stack_.size() - stack_floor() < n) fail("stack underflow at TUPLE", n);
        Items items(std::make_move_iterator(stack_.end() - static_cast<std::ptrdiff_t>(n)),
                    std::make_move_iterator(stack_.end()));
        stack_.resize(stack_.size() - n);
        push_tuple(std::move(items));
        break;
      }
      case ')': push_tuple({}); break;
      case 'N': push_value(IValue()); break;
      case 0x88: push_value(true); break;
      case 0x89: push_value(false); break;
      case ']': push_value(GenericList(), std::make_shared<Item::Container>()); break;
      case '}': push_value(GenericDict(), std::make_shared<Item::Container>()); break;
      case 0x8f:  // EMPTY_SET
        fail("sets are not supported");
      case 'J': push_value(static_cast<int64_t>(static_cast<int32_t>(read_le(4, "BININT")))); break;
      case 'K': push_value(static_cast<int64_t>(read_le(1, "BININT1"))); break;
      case 'M': push_value(static_cast<int64_t>(read_le(2, "BININT2"))); break;
      case 0x8a: {  // LONG1
        size_t n = read_le(1, "LONG1");
        if (n > 8) fail("LONG1 of ", n, " bytes does not fit in int64");
        uint64_t v = read_le(n, "LONG1");
        if (n > 0 && n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t{0} << (8 * n);
        push_value(static_cast<int64_t>(v));
        break;
      }
      case 'G': {  // BINFLOAT: big-endian double
        const uint8_t* p = take(8, "BINFLOAT");
        uint64_t bits = 0;
        for (int i = 0; i < 8; ++i) bits = bits << 8 | p[i];
        double d;
        std::memcpy(&d, &bits, 8);
        push_value(d);
        break;
      }
      case 'X':    // BINUNICODE
      case 'U': {  // SHORT_BINSTRING
        size_t n = read_le(op == 'X' ? 4 : 1, "string length");
        const uint8_t* p = take(n, "string");
        push_value(std::string(reinterpret_cast<const char*>(p), n));
        break;
      }
      case 'Q': persistent_load(); break;
      case 'h':
      case 'j': stack_.push_back(memo_get(read_le(op == 'h' ? 1 : 4, "BINGET"))); break;
      case 'q':
      case 'r': {
        uint64_t index = read_le(op == 'q' ? 1 : 4, "BINPUT");
        if (memo_.size() >= kMaxMemoItems && !memo_.count(index))
          fail("more than ", kMaxMemoItems, " memo entries");
        memo_[index] = top("BINPUT");
        break;
      }
      default: {
        static const char hex[] = "0123456789abcdef";
        fail("unsupported pickle opcode 0x", hex[op >> 4], hex[op & 15]);
      }
    }
  }
}

}  // namespace

IValue unpickle(const uint8_t* data, size_t size, const StorageLoader& load_storage,
                const std::string& origin) {
  return Unpickler(data, size, load_storage, origin).run();
}

}  // namespace brasa::serialize
