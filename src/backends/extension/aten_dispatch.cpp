// Kernels registered by aten overload (brasa/backend/aten.h): the table lookup, the signature
// check, and the boxed kernel that picks the registered overload covering a brasa call.
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
  size_t order;  // the form's place in the table: earlier forms are more specific
};

struct Table {
  std::mutex mutex;
  std::map<std::string, AtenForm> forms;  // by name
  size_t next_order = 0;
  std::map<std::string, size_t> order;
  // (op id, key) -> the overloads registered for it
  std::map<std::pair<int, int>, std::vector<Registered>> registered;
};
Table& table() {
  static Table t;
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
      case AtenArg::None: out.emplace_back(); break;
      case AtenArg::False: out.emplace_back(false); break;
      case AtenArg::ValueOf: out.emplace_back(s[a.index].tensor().item()); break;
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
      if (!r.form->serves.covers(stack)) continue;
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

}  // namespace

bool Serves::covers(const Stack& s) const {
  if (out != Any) {
    const Value& o = s[out_index];
    const bool defined = is_defined(o);
    const bool self = defined && is_defined(s[0]) && o.tensor().is_same(s[0].tensor());
    if (out == Functional && defined) return false;
    if (out == InPlace && !self) return false;
    if (out == OutArg && (!defined || self)) return false;
  }
  if (number_index >= 0) {
    const Value& v = s[number_index];
    const bool is_number = is_defined(v) && v.tensor().unsafeGetTensorImpl()->is_wrapped_number();
    if (is_number != number) return false;
  }
  return also == nullptr || also(s);
}

bool add_aten_forms(std::vector<AtenForm> forms) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (AtenForm& f : forms) {
    BRASA_INTERNAL_ASSERT(!t.forms.count(f.name), "aten overload ", f.name, " mapped twice");
    t.order[f.name] = t.next_order++;
    std::string name = f.name;
    t.forms.emplace(std::move(name), std::move(f));
  }
  return true;
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
  list.push_back({&form, call, fn, t.order[form.name]});
  std::sort(list.begin(), list.end(),
            [](const Registered& a, const Registered& b) { return a.order < b.order; });
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

}  // namespace brasa::backend
