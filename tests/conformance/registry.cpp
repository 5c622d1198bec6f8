#include "registry.h"

#include <map>

namespace brasa::conformance {
namespace {

struct Registry {
  std::map<std::string, OpFn> ops;
  std::vector<std::string> duplicates;
};
Registry& registry() {
  static Registry r;
  return r;
}

[[noreturn]] void wrong_kind(const std::string& what, const Value& v) {
  throw HarnessError("argument " + what + " has unexpected kind: " + v.describe());
}

}  // namespace

OpTable::OpTable(const char* /*family*/, std::initializer_list<std::pair<const char*, OpFn>> ops) {
  for (const auto& [name, fn] : ops)
    if (!registry().ops.emplace(name, fn).second) registry().duplicates.emplace_back(name);
}

const OpFn* find_op(const std::string& name) {
  auto it = registry().ops.find(name);
  return it == registry().ops.end() ? nullptr : &it->second;
}
std::vector<std::string> duplicate_ops() { return registry().duplicates; }

Scalar to_scalar(const Value& v) {
  switch (v.tag) {
    case Tag::Bool: return Scalar(v.b);
    case Tag::Int: return Scalar(v.i);
    case Tag::Float: return Scalar(v.f);
    default: wrong_kind("scalar", v);
  }
}

const Value& Args::at(size_t i) const {
  if (i >= c_.args.size())
    throw HarnessError("argument " + std::to_string(i) + " missing (case has " +
                       std::to_string(c_.args.size()) + ")");
  return c_.args[i];
}
Tensor Args::tensor(size_t i) const {
  if (!is_tensor(i)) wrong_kind(std::to_string(i), at(i));
  return at(i).tensor;
}
Scalar Args::scalar(size_t i) const { return to_scalar(at(i)); }
int64_t Args::integer(size_t i) const {
  if (at(i).tag != Tag::Int) wrong_kind(std::to_string(i), at(i));
  return at(i).i;
}
double Args::real(size_t i) const {
  const Value& v = at(i);
  if (v.tag == Tag::Int) return static_cast<double>(v.i);
  if (v.tag != Tag::Float) wrong_kind(std::to_string(i), v);
  return v.f;
}
ScalarType Args::dtype(size_t i) const {
  if (at(i).tag != Tag::Dtype) wrong_kind(std::to_string(i), at(i));
  return at(i).dtype;
}
std::vector<int64_t> Args::ints(size_t i) const {
  const Value& v = at(i);
  if (v.tag == Tag::Int) return {v.i};
  if (v.tag != Tag::List) wrong_kind(std::to_string(i), v);
  std::vector<int64_t> out;
  for (const Value& x : v.list) {
    if (x.tag != Tag::Int) wrong_kind(std::to_string(i), v);
    out.push_back(x.i);
  }
  return out;
}

const Value* Args::kwarg(std::string_view name) const {
  for (const auto& [k, v] : c_.kwargs)
    if (k == name && v.tag != Tag::None) return &v;
  return nullptr;
}
Tensor Args::kw_tensor(std::string_view name) const {
  const Value* v = kwarg(name);
  if (!v) return Tensor();
  if (v->tag != Tag::Tensor) wrong_kind(std::string(name), *v);
  return v->tensor;
}
std::optional<Scalar> Args::kw_scalar(std::string_view name) const {
  const Value* v = kwarg(name);
  return v ? std::optional<Scalar>(to_scalar(*v)) : std::nullopt;
}
std::optional<int64_t> Args::kw_int(std::string_view name) const {
  const Value* v = kwarg(name);
  if (!v) return std::nullopt;
  if (v->tag != Tag::Int) wrong_kind(std::string(name), *v);
  return v->i;
}
std::optional<double> Args::kw_real(std::string_view name) const {
  const Value* v = kwarg(name);
  if (!v) return std::nullopt;
  if (v->tag == Tag::Int) return static_cast<double>(v->i);
  if (v->tag != Tag::Float) wrong_kind(std::string(name), *v);
  return v->f;
}
std::optional<bool> Args::kw_bool(std::string_view name) const {
  const Value* v = kwarg(name);
  if (!v) return std::nullopt;
  if (v->tag != Tag::Bool) wrong_kind(std::string(name), *v);
  return v->b;
}
std::optional<std::string> Args::kw_str(std::string_view name) const {
  const Value* v = kwarg(name);
  if (!v) return std::nullopt;
  if (v->tag != Tag::Str) wrong_kind(std::string(name), *v);
  return v->s;
}
std::optional<ScalarType> Args::kw_dtype(std::string_view name) const {
  const Value* v = kwarg(name);
  if (!v) return std::nullopt;
  if (v->tag != Tag::Dtype) wrong_kind(std::string(name), *v);
  return v->dtype;
}
std::optional<std::vector<int64_t>> Args::kw_ints(std::string_view name) const {
  const Value* v = kwarg(name);
  if (!v) return std::nullopt;
  std::vector<int64_t> out;
  if (v->tag == Tag::Int) return std::vector<int64_t>{v->i};
  if (v->tag != Tag::List) wrong_kind(std::string(name), *v);
  for (const Value& x : v->list) out.push_back(x.i);
  return out;
}
TensorOptions Args::options() const {
  TensorOptions o;
  if (auto d = kw_dtype("dtype")) o = o.dtype(*d);
  return o;
}

std::vector<Tensor> differentiable_outputs(const Value& v) {
  std::vector<Tensor> out;
  if (v.tag == Tag::Tensor) {
    if (v.tensor.defined() && v.tensor.requires_grad()) out.push_back(v.tensor);
  } else if (v.tag == Tag::List) {
    for (const Value& x : v.list)
      if (x.tag == Tag::Tensor && x.tensor.defined() && x.tensor.requires_grad())
        out.push_back(x.tensor);
  }
  return out;
}

}  // namespace brasa::conformance
