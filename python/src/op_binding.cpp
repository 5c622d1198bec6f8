#include "op_binding.h"

#include <nanobind/stl/string.h>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "brasa/backend/aten.h"
#include "brasa/core/empty.h"
#include "convert.h"

namespace nb = nanobind;

namespace brasa::python {

enum class Kind : uint8_t {
  Tensor,
  TensorList,
  Scalar,
  Int,
  Float,
  Bool,
  IntList,
  Str,
  ScalarType,
  Device,
  Generator,
  Unknown
};

struct Param {
  std::string name;
  Kind kind = Kind::Unknown;
  bool optional = false;
  std::optional<Value> default_value;  ///< nullopt: required
};

struct Overload {
  const OperatorHandle* op = nullptr;
  std::vector<Param> params;
  int self_out = -1;  ///< in-place form: the `out` parameter, given `self`
  bool has_self = false;
};

struct OpGroup {
  std::string name;
  std::vector<Overload> overloads;
  bool inplace = false;
  bool method = false;
};

namespace {

std::deque<OpGroup>& groups() {
  static std::deque<OpGroup> g;
  return g;
}
std::map<std::string, OpGroup*>& group_index() {
  static std::map<std::string, OpGroup*> m;
  return m;
}

// "Tensor(a!)" -> Tensor; "int[]?" -> IntList, optional.
std::pair<Kind, bool> parse_type(std::string type) {
  std::string clean;
  int depth = 0;
  for (char c : type) {
    if (c == '(') ++depth;
    if (depth == 0) clean += c;
    if (c == ')') --depth;
  }
  bool optional = !clean.empty() && clean.back() == '?';
  if (optional) clean.pop_back();
  bool list = false;
  if (size_t b = clean.find('['); b != std::string::npos) {
    list = true;
    clean.resize(b);
  }
  if (clean == "Tensor") return {list ? Kind::TensorList : Kind::Tensor, optional};
  if (list) return {clean == "int" || clean == "SymInt" ? Kind::IntList : Kind::Unknown, optional};
  if (clean == "Scalar") return {Kind::Scalar, optional};
  if (clean == "int" || clean == "SymInt") return {Kind::Int, optional};
  if (clean == "float") return {Kind::Float, optional};
  if (clean == "bool") return {Kind::Bool, optional};
  if (clean == "str") return {Kind::Str, optional};
  if (clean == "ScalarType") return {Kind::ScalarType, optional};
  if (clean == "Device") return {Kind::Device, optional};
  if (clean == "Generator") return {Kind::Generator, optional};
  return {Kind::Unknown, optional};
}

// Converts one Python argument to the Value the op's boxed form expects; nullopt when the argument
// does not fit (the next overload is tried).
std::optional<Value> convert(const Param& p, nb::handle h, bool numbers_as_tensors) {
  if (h.is_none() && p.optional) return Value();
  switch (p.kind) {
    case Kind::Tensor:
      if (nb::isinstance<Tensor>(h)) return Value(nb::cast<const Tensor&>(h));
      if (numbers_as_tensors)
        if (auto s = number_to_scalar(h)) return Value(detail::wrap_scalar(*s));
      return std::nullopt;
    case Kind::TensorList: {
      if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) return std::nullopt;
      std::vector<Tensor> out;
      for (nb::handle item : nb::borrow<nb::sequence>(h)) {
        if (!nb::isinstance<Tensor>(item)) return std::nullopt;
        out.push_back(nb::cast<const Tensor&>(item));
      }
      return Value(std::move(out));
    }
    case Kind::Scalar:
      if (auto s = number_to_scalar(h)) return Value(*s);
      if (nb::isinstance<Tensor>(h)) {
        const Tensor& t = nb::cast<const Tensor&>(h);
        if (t.numel() == 1 && !t.requires_grad()) return Value(t.item());
      }
      return std::nullopt;
    case Kind::Int:
      if (auto i = to_int(h)) return Value(*i);
      return std::nullopt;
    case Kind::Float:
      if (PyFloat_Check(h.ptr())) return Value(PyFloat_AS_DOUBLE(h.ptr()));
      if (auto i = to_int(h)) return Value(static_cast<double>(*i));
      return std::nullopt;
    case Kind::Bool:
      if (PyBool_Check(h.ptr())) return Value(h.ptr() == Py_True);
      return std::nullopt;
    case Kind::IntList:
      if (auto l = to_int_list(h)) return Value(std::move(*l));
      return std::nullopt;
    case Kind::Str:
      if (PyUnicode_Check(h.ptr())) return Value(std::string(nb::cast<std::string>(h)));
      return std::nullopt;
    case Kind::ScalarType:
      if (nb::isinstance<DType>(h)) return Value(nb::cast<const DType&>(h).type);
      return std::nullopt;
    case Kind::Device:
      if (PyUnicode_Check(h.ptr())) return Value(Device(nb::cast<std::string>(h)));
      if (nb::hasattr(h, "type")) return Value(Device(nb::cast<std::string>(nb::str(h))));
      return std::nullopt;
    case Kind::Generator:
      if (nb::isinstance<Generator>(h)) return Value(nb::cast<Generator>(h));
      return std::nullopt;
    case Kind::Unknown: return std::nullopt;
  }
  return std::nullopt;
}

bool is_keyword_for(const Param& p, const char* key, bool first) {
  return p.name == key || (first && p.name == "self" && std::string_view(key) == "input");
}

// Binds Python arguments to an overload's parameters; false when they do not fit.
bool bind(const Overload& ov, nb::handle self, nb::handle args, nb::handle kwargs, bool numbers,
          bool numbers_for_self, Stack& stack) {
  const size_t n = ov.params.size();
  nb::handle slots[32];
  nb::object owned_varargs;
  if (n > 32) return false;
  size_t p = 0;
  if (self.is_valid()) {
    if (!ov.has_self) return false;
    slots[p++] = self;
  }
  PyObject* a = args.ptr();
  const Py_ssize_t nargs = a ? PyTuple_GET_SIZE(a) : 0;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    if (static_cast<int>(p) == ov.self_out) ++p;
    if (p >= n) return false;
    nb::handle arg = PyTuple_GET_ITEM(a, i);
    // varargs form of an int[] (x.view(2, 3), x.permute(1, 0)): the remaining arguments are ints
    if (ov.params[p].kind == Kind::IntList && i + 1 < nargs && to_int(arg)) {
      bool all_ints = true;
      for (Py_ssize_t j = i; j < nargs && all_ints; ++j)
        all_ints = to_int(PyTuple_GET_ITEM(a, j)).has_value();
      if (all_ints) {
        owned_varargs = nb::steal(PyTuple_GetSlice(a, i, nargs));
        slots[p++] = owned_varargs;
        break;
      }
    }
    slots[p++] = arg;
  }
  for (size_t i = p; i < n; ++i) slots[i] = nb::handle();
  if (kwargs.is_valid() && PyDict_Size(kwargs.ptr()) > 0) {
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kwargs.ptr(), &pos, &key, &value)) {
      const char* k = PyUnicode_AsUTF8(key);
      size_t j = 0;
      while (j < n &&
             (static_cast<int>(j) == ov.self_out || !is_keyword_for(ov.params[j], k, j == 0)))
        ++j;
      if (j == n || slots[j].is_valid()) return false;
      slots[j] = value;
    }
  }
  stack.clear();
  stack.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const Param& prm = ov.params[i];
    if (static_cast<int>(i) == ov.self_out) {
      stack.push_back(stack[0]);
      continue;
    }
    if (!slots[i].is_valid()) {
      if (!prm.default_value) return false;
      stack.push_back(*prm.default_value);
      continue;
    }
    std::optional<Value> v = convert(prm, slots[i], numbers && (i > 0 || numbers_for_self));
    if (!v) return false;
    stack.push_back(std::move(*v));
  }
  return true;
}

std::string py_type_name(nb::handle h) {
  if (nb::isinstance<Tensor>(h)) return "Tensor";
  return nb::cast<std::string>(
      nb::str(nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(h.ptr()))).attr("__name__")));
}

[[noreturn]] void no_match(const OpGroup& g, nb::handle self, nb::handle args, nb::handle kwargs) {
  std::string got;
  auto add = [&](const std::string& s) { got += (got.empty() ? "" : ", ") + s; };
  if (self.is_valid()) add("Tensor");
  if (args.is_valid())
    for (nb::handle a : nb::borrow<nb::tuple>(args)) add(py_type_name(a));
  if (kwargs.is_valid())
    for (auto [k, v] : nb::borrow<nb::dict>(kwargs))
      add(nb::cast<std::string>(nb::str(k)) + "=" + py_type_name(v));
  std::string msg = g.name + "() received an invalid combination of arguments - got (" + got +
                    "), but expected one of:";
  for (const Overload& ov : g.overloads) {
    msg += "\n * (";
    for (size_t i = 0; i < ov.params.size(); ++i) {
      if (static_cast<int>(i) == ov.self_out) continue;
      const SchemaArgument& arg = ov.op->schema_info().arguments[i];
      msg += (i ? ", " : "") + arg.type + " " + arg.name;
    }
    msg += ")";
  }
  throw nb::type_error(msg.c_str());
}

}  // namespace

nb::object call_group(const OpGroup& g, nb::handle self, nb::handle args, nb::handle kwargs,
                      bool numbers_for_self) {
  Stack stack;
  for (int pass = 0; pass < 2; ++pass) {
    for (const Overload& ov : g.overloads) {
      if (!bind(ov, self, args, kwargs, pass == 1, numbers_for_self, stack)) continue;
      {
        nb::gil_scoped_release release;
        ov.op->call_boxed(stack);
      }
      if (g.inplace) return nb::borrow(self.is_valid() ? self : PyTuple_GET_ITEM(args.ptr(), 0));
      if (stack.size() == 1) return value_to_python(stack[0]);
      if (stack.empty()) return nb::none();
      nb::list out;
      for (const Value& v : stack) out.append(value_to_python(v));
      return nb::tuple(out);
    }
  }
  no_match(g, self, args, kwargs);
}

const OpGroup* find_group(const std::string& name) {
  auto it = group_index().find(name);
  return it == group_index().end() ? nullptr : it->second;
}

namespace {

OpGroup& group_named(const std::string& name) {
  OpGroup*& g = group_index()[name];
  if (!g) {
    groups().emplace_back();
    g = &groups().back();
    g->name = name;
  }
  return *g;
}

std::optional<Value> default_for(const std::string& op, const SchemaArgument& arg, const Param& p,
                                 nb::dict defaults, nb::dict op_defaults) {
  auto from_python = [&](nb::handle h) -> std::optional<Value> {
    std::optional<Value> v = convert(p, h, false);
    if (!v)
      throw std::runtime_error("brasa: default of " + op + "." + arg.name + " does not fit " +
                               arg.type);
    return v;
  };
  nb::str key(arg.name.c_str());
  if (op_defaults.contains(op.c_str())) {
    nb::dict per_op = nb::borrow<nb::dict>(op_defaults[op.c_str()]);
    if (per_op.contains(key)) return from_python(per_op[key]);
  }
  if (p.optional || arg.name == "out") return Value();
  if (defaults.contains(key)) return from_python(defaults[key]);
  return std::nullopt;
}

}  // namespace

void bind_ops(nb::module_& m, nb::handle tensor_class, nb::dict defaults, nb::dict op_defaults) {
  static std::deque<std::string> names;  // nanobind keeps the name pointers
  std::vector<std::pair<OpGroup*, Overload>> pending_inplace;
  // Ops with an in-place form in aten's terms (Note [aten forms]): `add` has `add_.Tensor`, `sum`
  // has none, so the out convention gives `add_` but no `sum_`.
  std::set<std::string> has_inplace;
  for (const backend::AtenOverload& o : backend::aten_overloads()) {
    const std::string base = o.name.substr(0, o.name.find('.'));
    if (base.size() > 1 && base.back() == '_') has_inplace.insert(o.op);
  }
  for (OperatorHandle* op : all_ops()) {
    const SchemaInfo& info = op->schema_info();
    std::string py_name = op->name().substr(0, op->name().find('.'));
    Overload ov;
    ov.op = op;
    bool bindable = true;
    for (const SchemaArgument& arg : info.arguments) {
      Param p;
      p.name = arg.name;
      std::tie(p.kind, p.optional) = parse_type(arg.type);
      if (p.kind == Kind::Unknown && !p.optional) bindable = false;
      p.default_value = default_for(op->name(), arg, p, defaults, op_defaults);
      if (!p.default_value)  // py_name-level defaults ("sum" for "sum.dim_IntList")
        p.default_value = default_for(py_name, arg, p, defaults, op_defaults);
      ov.params.push_back(std::move(p));
    }
    if (!bindable) continue;
    ov.has_self =
        !ov.params.empty() && ov.params[0].name == "self" && ov.params[0].kind == Kind::Tensor;
    const bool out_convention = ov.has_self && ov.params.back().name == "out" &&
                                ov.params.back().kind == Kind::Tensor && ov.params.back().optional;
    group_named(py_name).overloads.push_back(ov);
    if (out_convention && has_inplace.count(op->name())) {
      Overload in_place = ov;
      in_place.self_out = static_cast<int>(in_place.params.size()) - 1;
      pending_inplace.push_back({nullptr, std::move(in_place)});
      names.push_back(py_name + "_");
    }
  }
  // In-place forms from the out convention, unless an op already has that name.
  size_t k = names.size() - pending_inplace.size();
  for (auto& [unused, ov] : pending_inplace) {
    const std::string& name = names[k++];
    if (group_index().count(name) && !group_index()[name]->inplace) continue;
    OpGroup& g = group_named(name);
    g.inplace = true;
    g.overloads.push_back(std::move(ov));
  }
  for (OpGroup& g : groups()) {
    // Ops declared in place (`fill_.Scalar(Tensor(a!) self, ...) -> Tensor(a!)`) return self too.
    bool written = !g.overloads.empty();
    for (const Overload& ov : g.overloads)
      written &= ov.has_self && ov.op->schema_info().returns_written;
    g.inplace |= written;
    g.method = false;
    for (const Overload& ov : g.overloads) g.method |= ov.has_self;
    names.push_back(g.name);
    const char* name = names.back().c_str();
    OpGroup* gp = &g;
    m.def(name, [gp](nb::args args, nb::kwargs kwargs) {
      return call_group(*gp, nb::handle(), args, kwargs);
    });
    if (g.method)
      nb::setattr(
          tensor_class, name,
          nb::cpp_function([gp](nb::handle self, nb::args args,
                                nb::kwargs kwargs) { return call_group(*gp, self, args, kwargs); },
                           nb::is_method(), nb::name(name)));
  }
}

nb::list bound_signatures() {
  nb::list out;
  for (const OpGroup& g : groups())
    for (const Overload& ov : g.overloads) {
      nb::list params;  // (name, schema type, has default) of the Python-visible parameters
      for (size_t i = 0; i < ov.params.size(); ++i) {
        if (static_cast<int>(i) == ov.self_out) continue;
        params.append(nb::make_tuple(ov.params[i].name, ov.op->schema_info().arguments[i].type,
                                     ov.params[i].default_value.has_value()));
      }
      out.append(nb::make_tuple(g.name, ov.op->schema(), ov.has_self, g.inplace, params));
    }
  return out;
}

}  // namespace brasa::python
