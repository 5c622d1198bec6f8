// Kernels registered by aten overload (brasa/backend/aten.h): the table (derived from the op
// declarations, Note [aten forms] in aten_rules.cpp), the signature check, and the boxed kernel
// that picks the registered overload covering a brasa call.
#include <algorithm>
#include <map>
#include <mutex>
#include <utility>

#include "backends/extension/aten_forms.h"
#include "brasa/backend/aten.h"
#include "brasa/backend/library.h"
#include "brasa/core/error.h"

namespace brasa::backend {
namespace detail {
namespace {

struct Registered {
  const AtenForm* form;
  AtenCall call;
  void* fn;
};

struct Table {
  std::mutex mutex;
  bool built = false;
  std::map<std::string, AtenForm> forms;  // by aten name
  std::vector<const AtenForm*> in_order;  // by op name, then the op's order
  // (op id, key) -> the overloads registered for it
  std::map<std::pair<int, int>, std::vector<Registered>> registered;
};

// Built on first use, from every declared op (Note [aten forms]); ops are all defined by then,
// since their kernels register at load time.
Table& table() {
  static Table t;
  std::lock_guard<std::mutex> lock(t.mutex);
  if (!t.built) {
    std::vector<OperatorHandle*> ops = all_ops();
    std::sort(ops.begin(), ops.end(), [](const OperatorHandle* a, const OperatorHandle* b) {
      return a->name() < b->name();
    });
    for (const OperatorHandle* op : ops) {
      for (AtenForm& f : derive_aten_forms(*op)) {
        const AtenForm* other = t.forms.count(f.name) ? &t.forms.at(f.name) : nullptr;
        BRASA_INTERNAL_ASSERT(other == nullptr, "aten overload ", f.name, " is derived from both ",
                              other ? other->op : "", " and ", op->name(), " (Note [aten forms])");
        std::string name = f.name;
        t.in_order.push_back(&t.forms.emplace(std::move(name), std::move(f)).first->second);
      }
    }
    t.built = true;
  }
  return t;
}

bool is_defined(const Value& v) { return v.is_tensor() && v.tensor().defined(); }

std::string strip_namespace(const std::string& name) {
  return name.rfind("aten::", 0) == 0 ? name.substr(6) : name;
}

const AtenForm& need_form(const std::string& name) {
  Table& t = table();
  auto it = t.forms.find(strip_namespace(name));
  if (it == t.forms.end()) {
    std::string known;
    size_t n = 0;
    for (const auto& [k, _] : t.forms)
      if (n++ < 12) known += (known.empty() ? "" : ", ") + k;
    BRASA_THROW(ValueError, "TORCH_LIBRARY_IMPL: brasa has no op for aten overload '", name,
                "' (it maps ", t.forms.size(), " aten overloads: ", known,
                ", ...; brasa::backend::aten_names() lists them all)");
  }
  return it->second;
}

Stack to_aten(const AtenForm& f, const Stack& s) {
  Stack out;
  out.reserve(f.args.size());
  for (const AtenArg& a : f.args) {
    switch (a.kind) {
      case AtenArg::Arg: out.push_back(s[a.index]); break;
      case AtenArg::Constant: out.push_back(a.constant); break;
      case AtenArg::ValueOf: out.emplace_back(s[a.index].tensor().item()); break;
      case AtenArg::Element: out.emplace_back(s[a.index].get<std::vector<int64_t>>()[0]); break;
    }
  }
  return out;
}

void aten_kernel(const OperatorHandle& op, DispatchKeySet keys, Stack& stack) {
  const DispatchKey key = DispatchKey::PrivateUse1;  // the only key aten kernels register at
  const std::vector<Registered>* forms = nullptr;
  {
    Table& t = table();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.registered.find({op.id(), static_cast<int>(key)});
    if (it != t.registered.end()) forms = &it->second;
  }
  if (forms) {
    for (const Registered& r : *forms) {
      if (!r.form->covers(stack)) continue;
      check_devices(op, stack);
      Stack aten = to_aten(*r.form, stack);
      r.call(r.fn, aten);
      if (r.form->result_arg >= 0) {
        Value result = std::as_const(stack)[r.form->result_arg];
        stack.clear();
        stack.push_back(std::move(result));
      } else {
        stack = std::move(aten);
      }
      return;
    }
  }
  BoxedKernel fallback = brasa::detail::backend_fallback(key);
  BRASA_CHECK_NOT_IMPLEMENTED(fallback != nullptr, op.name(), ": no registered aten overload ",
                              "covers this call at ", to_string(key), " and there is no fallback");
  fallback(op, keys, stack);
}

bool is_number(const Value& v) {
  return is_defined(v) && v.tensor().unsafeGetTensorImpl()->is_wrapped_number();
}

}  // namespace

bool Condition::holds(const Stack& s) const {
  const Value& v = s[index];
  switch (kind) {
    case IsNone: return v.is_none() || (v.is_tensor() && !v.tensor().defined());
    case IsTensor: return is_defined(v) && !is_number(v);
    case IsNumber: return is_number(v);
    case NotNumber: return !is_number(v);
    case IsOne: return v.is<Scalar>() && v.get<Scalar>().equal(1);
    case IsEmpty: return v.is<std::vector<int64_t>>() && v.get<std::vector<int64_t>>().empty();
    case IsFalse: return v.is<bool>() && !v.get<bool>();
    case IsSingle: return v.is<std::vector<int64_t>>() && v.get<std::vector<int64_t>>().size() == 1;
    case IsSelf:
    case IsGiven: {
      const bool self =
          is_defined(v) && is_defined(s[self_index]) && v.tensor().is_same(s[self_index].tensor());
      return kind == IsSelf ? self : is_defined(v) && !self;
    }
  }
  return false;
}

std::string Condition::str(const SchemaInfo& info) const {
  static const char* const values[] = {"None", "tensor", "number", "",      "1",
                                       "[]",   "False",  "self",   "given", "single"};
  if (kind == NotNumber) return "";
  return info.arguments[index].name + "=" + values[kind];
}

bool AtenForm::covers(const Stack& s) const {
  for (const Condition& c : when)
    if (!c.holds(s)) return false;
  return true;
}

std::string AtenForm::conditions(const SchemaInfo& info) const {
  std::string out;
  for (const Condition& c : when) {
    std::string t = c.str(info);
    if (!t.empty()) out += (out.empty() ? "" : " ") + t;
  }
  return out;
}

}  // namespace detail

void register_aten_kernel(DispatchKey key, const std::string& aten_name,
                          const std::string& signature, AtenCall call, void* fn,
                          const std::string& origin) {
  using namespace detail;
  BRASA_CHECK(key == DispatchKey::PrivateUse1, "TORCH_LIBRARY_IMPL: only the PrivateUse1 key ",
              "takes backend kernels, got ", to_string(key), " for ", aten_name);
  BRASA_CHECK(call != nullptr && fn != nullptr, "TORCH_LIBRARY_IMPL: null kernel for ", aten_name);
  const AtenForm& form = need_form(aten_name);
  BRASA_CHECK(signature == form.signature, "TORCH_LIBRARY_IMPL: the kernel for aten::", form.name,
              " has signature ", signature, ", but the overload's is ", form.signature);
  OperatorHandle* op = find_op(form.op);
  BRASA_INTERNAL_ASSERT(op != nullptr, "aten overload ", form.name, " names unknown op ", form.op);
  claim_for_aten(*op, key, origin);
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto& list = t.registered[{op->id(), static_cast<int>(key)}];
  for (const Registered& r : list)
    BRASA_CHECK(r.form != &form, "TORCH_LIBRARY_IMPL: a ", to_string(key),
                " kernel for aten::", form.name, " is already registered",
                origin.empty() ? "" : " (again from " + origin + ")");
  list.push_back({&form, call, fn});
  std::sort(list.begin(), list.end(),
            [](const Registered& a, const Registered& b) { return a.form->order < b.form->order; });
  if (list.size() == 1) op->impl_boxed(key, &aten_kernel, origin.c_str());
}

std::vector<std::string> aten_names() {
  detail::Table& t = detail::table();
  std::lock_guard<std::mutex> lock(t.mutex);
  std::vector<std::string> names;
  for (const auto& [k, _] : t.forms) names.push_back(k);
  return names;
}

std::string aten_signature(const std::string& aten_name) {
  return detail::need_form(aten_name).signature;
}

std::vector<AtenOverload> aten_overloads() {
  detail::Table& t = detail::table();
  std::vector<AtenOverload> out;
  for (const detail::AtenForm* f : t.in_order) {
    const OperatorHandle* op = find_op(f->op);
    out.push_back({f->name, f->op, f->signature, f->conditions(op->schema_info())});
  }
  return out;
}

}  // namespace brasa::backend
