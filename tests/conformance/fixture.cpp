#include "fixture.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "brasa/core/empty.h"

namespace brasa::conformance {
namespace {

class Reader {
 public:
  Reader(std::vector<char> bytes, std::string path)
      : bytes_(std::move(bytes)), path_(std::move(path)) {}

  template <typename T>
  T pod() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, bytes_.data() + pos_, sizeof(T));  // the host is little-endian, like the file
    pos_ += sizeof(T);
    return v;
  }
  std::string str() {
    auto n = pod<uint32_t>();
    need(n);
    std::string s(bytes_.data() + pos_, n);
    pos_ += n;
    return s;
  }
  const char* raw(size_t n) {
    need(n);
    const char* p = bytes_.data() + pos_;
    pos_ += n;
    return p;
  }
  bool done() const { return pos_ == bytes_.size(); }
  [[noreturn]] void fail(const std::string& what) const {
    throw HarnessError(path_ + ": " + what + " at byte " + std::to_string(pos_));
  }

 private:
  void need(size_t n) const {
    if (bytes_.size() - pos_ < n) fail("truncated file");
  }
  std::vector<char> bytes_;
  std::string path_;
  size_t pos_ = 0;
};

ScalarType read_dtype(Reader& r) {
  auto code = r.pod<uint8_t>();
  for (ScalarType t : kAllScalarTypes)
    if (static_cast<uint8_t>(t) == code) return t;
  for (ScalarType t : kComplexScalarTypes)
    if (static_cast<uint8_t>(t) == code) return t;
  r.fail("unknown dtype code " + std::to_string(code));
}

Tensor read_tensor(Reader& r) {
  ScalarType dtype = read_dtype(r);
  auto ndim = r.pod<uint32_t>();
  std::vector<int64_t> sizes(ndim), strides(ndim);
  for (auto& s : sizes) s = r.pod<int64_t>();
  for (auto& s : strides) s = r.pod<int64_t>();
  auto offset = r.pod<int64_t>();
  auto storage_numel = r.pod<uint64_t>();
  Tensor storage = empty({static_cast<int64_t>(storage_numel)}, TensorOptions(dtype));
  size_t nbytes = storage_numel * element_size(dtype);
  if (nbytes > 0) std::memcpy(storage.data_ptr(), r.raw(nbytes), nbytes);
  return detail::make_view(storage, sizes, strides, offset);
}

Value read_value(Reader& r) {
  Value v;
  v.tag = static_cast<Tag>(r.pod<uint8_t>());
  switch (v.tag) {
    case Tag::None:
    case Tag::Ellipsis: break;
    case Tag::Bool: v.b = r.pod<uint8_t>() != 0; break;
    case Tag::Int: v.i = r.pod<int64_t>(); break;
    case Tag::Float: v.f = r.pod<double>(); break;
    case Tag::Str: v.s = r.str(); break;
    case Tag::Dtype: v.dtype = read_dtype(r); break;
    case Tag::Tensor: v.tensor = read_tensor(r); break;
    case Tag::List: {
      auto n = r.pod<uint32_t>();
      for (uint32_t k = 0; k < n; ++k) v.list.push_back(read_value(r));
      break;
    }
    case Tag::Slice:
      for (int k = 0; k < 3; ++k) v.list.push_back(read_value(r));
      break;
    default: r.fail("unknown value tag " + std::to_string(int(v.tag)));
  }
  return v;
}

}  // namespace

Value Value::of_bool(bool v) {
  Value r;
  r.tag = Tag::Bool;
  r.b = v;
  return r;
}
Value Value::of_dtype(ScalarType t) {
  Value r;
  r.tag = Tag::Dtype;
  r.dtype = t;
  return r;
}
Value Value::of_list(std::vector<Value> items) {
  Value r;
  r.tag = Tag::List;
  r.list = std::move(items);
  return r;
}
Value Value::of_tensors(const std::vector<Tensor>& ts) {
  std::vector<Value> items(ts.begin(), ts.end());
  return of_list(std::move(items));
}

std::string Value::describe() const {
  std::ostringstream os;
  switch (tag) {
    case Tag::None: return "None";
    case Tag::Ellipsis: return "...";
    case Tag::Bool: return b ? "True" : "False";
    case Tag::Int: return std::to_string(i);
    case Tag::Float: os << f; return os.str();
    case Tag::Str: return "'" + s + "'";
    case Tag::Dtype: return to_string(dtype);
    case Tag::Tensor: {
      if (!tensor.defined()) return "Tensor[undefined]";
      os << "Tensor[" << to_string(tensor.dtype()) << " [";
      for (int64_t d = 0; d < tensor.dim(); ++d) os << (d ? ", " : "") << tensor.sizes()[d];
      os << "] strides [";
      for (int64_t d = 0; d < tensor.dim(); ++d) os << (d ? ", " : "") << tensor.strides()[d];
      os << "]]";
      return os.str();
    }
    case Tag::List:
    case Tag::Slice: {
      os << (tag == Tag::Slice ? "Slice(" : "[");
      for (size_t k = 0; k < list.size(); ++k) os << (k ? ", " : "") << list[k].describe();
      os << (tag == Tag::Slice ? ")" : "]");
      return os.str();
    }
  }
  return "?";
}

std::vector<Case> read_fixture(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw HarnessError(path + ": cannot open (did the conformance_generate fixture run?)");
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Reader r(std::move(bytes), path);
  if (std::string(r.raw(4), 4) != "BRCF") r.fail("bad magic");
  if (r.pod<uint32_t>() != 2) r.fail("unsupported version (regenerate the fixtures)");
  auto count = r.pod<uint32_t>();
  std::vector<Case> cases(count);
  for (auto& c : cases) {
    c.op = r.str();
    c.label = r.str();
    c.flags = r.pod<uint32_t>();
    c.rtol = r.pod<double>();
    c.atol = r.pod<double>();
    auto nargs = r.pod<uint32_t>();
    for (uint32_t k = 0; k < nargs; ++k) c.args.push_back(read_value(r));
    auto nkw = r.pod<uint32_t>();
    for (uint32_t k = 0; k < nkw; ++k) {
      std::string name = r.str();
      c.kwargs.emplace_back(std::move(name), read_value(r));
    }
    c.expect_error = r.pod<uint8_t>() != 0;
    if (c.expect_error)
      c.error = r.str();
    else
      c.expected = read_value(r);
    if (r.pod<uint8_t>() != 0) {
      GradCase& g = c.grad.emplace();
      g.rtol = r.pod<double>();
      g.atol = r.pod<double>();
      auto nout = r.pod<uint32_t>();
      for (uint32_t k = 0; k < nout; ++k) g.grad_outputs.push_back(read_value(r).tensor);
      auto nin = r.pod<uint32_t>();
      for (uint32_t k = 0; k < nin; ++k) {
        GradInput in;
        in.is_kwarg = r.pod<uint8_t>() != 0;
        if (in.is_kwarg) {
          in.name = r.str();
        } else {
          in.index = r.pod<uint32_t>();
        }
        in.expected = read_value(r);
        g.inputs.push_back(std::move(in));
      }
    }
  }
  if (!r.done()) r.fail("trailing bytes");
  return cases;
}

}  // namespace brasa::conformance
