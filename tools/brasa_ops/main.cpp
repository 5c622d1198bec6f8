// brasa_ops: what the dispatcher knows about each op, read from the live registry.
//   brasa_ops          a table of every op: kernels per dispatch key, derivative, declaring header
//   brasa_ops NAME     one op in full: schema, C++ signature, each kernel with the file that
//                      registered it, where its derivative lives, its aten overloads
//   brasa_ops --aten   the aten table: per op, each overload a TORCH_LIBRARY_IMPL backend can
//                      register (tab-separated: op, overload, signature, conditions), or the
//                      reason the op has none (op, "-", "none: reason"); Note [aten forms]
// An unknown NAME exits with status 1 and suggests close names.
#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iomanip>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

#include "brasa/backend/aten.h"
#include "brasa/dispatch/dispatcher.h"

namespace {

using brasa::DispatchKey;
using brasa::OperatorHandle;

std::vector<DispatchKey> kernel_keys(const OperatorHandle& op) {
  std::vector<DispatchKey> keys;
  for (int i = 0; i < brasa::kNumDispatchKeys; ++i)
    if (op.has_kernel(DispatchKey(i))) keys.push_back(DispatchKey(i));
  return keys;
}

std::string demangle(const char* name) {
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string s = status == 0 && out ? out : name;
  std::free(out);
  return s;
}

// The derivative is the op's Autograd kernel.
std::string derivative_of(const OperatorHandle& op) {
  if (!op.has_kernel(DispatchKey::Autograd)) return "-";
  const std::string& file = op.kernel_file(DispatchKey::Autograd);
  return file.empty() ? "(unknown file)" : file;
}

void print_table(const std::vector<OperatorHandle*>& ops) {
  size_t name_w = 4, keys_w = 7, grad_w = 10;
  std::vector<std::string> keys(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    for (DispatchKey k : kernel_keys(*ops[i]))
      keys[i] += std::string(keys[i].empty() ? "" : ",") + brasa::to_string(k);
    name_w = std::max(name_w, ops[i]->name().size());
    keys_w = std::max(keys_w, keys[i].size());
    grad_w = std::max(grad_w, derivative_of(*ops[i]).size());
  }
  auto row = [&](const std::string& a, const std::string& b, const std::string& c,
                 const std::string& d) {
    std::cout << std::left << std::setw(name_w + 2) << a << std::setw(keys_w + 2) << b
              << std::setw(grad_w + 2) << c << d << "\n";
  };
  row("op", "kernels", "derivative", "declared in");
  for (size_t i = 0; i < ops.size(); ++i)
    row(ops[i]->name(), keys[i], derivative_of(*ops[i]), ops[i]->declared_in());
  std::cout << ops.size() << " ops\n";
}

std::vector<brasa::backend::AtenOverload> aten_of(const OperatorHandle& op) {
  std::vector<brasa::backend::AtenOverload> out;
  for (brasa::backend::AtenOverload& o : brasa::backend::aten_overloads())
    if (o.op == op.name()) out.push_back(std::move(o));
  return out;
}

// The `none: reason` part of an op's BRASA_ATEN statement, or "".
std::string aten_reason(const OperatorHandle& op) {
  const std::string statement = op.aten_statement();
  return statement.rfind("none:", 0) == 0 ? statement : "";
}

void print_aten_table(const std::vector<OperatorHandle*>& ops) {
  const std::vector<brasa::backend::AtenOverload> all = brasa::backend::aten_overloads();
  for (const OperatorHandle* op : ops) {
    if (op->name().find("::") != std::string::npos) continue;  // not an aten name
    bool any = false;
    for (const brasa::backend::AtenOverload& o : all) {
      if (o.op != op->name()) continue;
      std::cout << o.op << "\t" << o.name << "\t" << o.signature << "\t" << o.when << "\n";
      any = true;
    }
    if (!any) std::cout << op->name() << "\t-\t" << aten_reason(*op) << "\t\n";
  }
}

void print_op(const OperatorHandle& op) {
  const auto& file_or = [](const std::string& f) { return f.empty() ? "(unknown file)" : f; };
  std::cout << op.name() << "\n"
            << "  schema:      " << op.schema() << "\n"
            << "  declared in: " << file_or(op.declared_in()) << "\n"
            << "  signature:   " << demangle(op.signature()) << "\n"
            << "  arguments:   " << op.num_arguments() << "\n";
  for (const brasa::SchemaArgument& a : op.schema_info().arguments)
    std::cout << "    " << std::left << std::setw(12) << a.type << " " << a.name
              << (a.written ? "  (written)" : "") << "\n";
  std::cout << "  kernels:\n";
  for (DispatchKey k : kernel_keys(op))
    std::cout << "    " << std::left << std::setw(12) << brasa::to_string(k)
              << file_or(op.kernel_file(k)) << "\n";
  if (kernel_keys(op).empty()) std::cout << "    (none)\n";
  std::cout << "  derivative:  "
            << (op.has_kernel(DispatchKey::Autograd)
                    ? file_or(op.kernel_file(DispatchKey::Autograd))
                    : "none (the Autograd fallback applies)")
            << "\n";
  const std::vector<brasa::backend::AtenOverload> aten = aten_of(op);
  std::cout << "  aten:" << (aten.empty() ? "        " + aten_reason(op) : std::string()) << "\n";
  for (const brasa::backend::AtenOverload& o : aten)
    std::cout << "    " << std::left << std::setw(28) << o.name << " " << std::setw(40)
              << o.signature << (o.when.empty() ? "" : " if " + o.when) << "\n";
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

// Names that start with the query (or that it starts with), then names within a small edit
// distance, then names containing it; at most 8.
std::vector<std::string> close_names(const std::string& query,
                                     const std::vector<OperatorHandle*>& ops) {
  std::vector<std::tuple<size_t, size_t, std::string>> scored;  // (score, length, name)
  const size_t limit = std::max<size_t>(2, query.size() / 3);
  for (const OperatorHandle* op : ops) {
    const std::string& name = op->name();
    const size_t d = edit_distance(query, name);
    size_t score = 2 * d + 2;
    if (name.rfind(query, 0) == 0 || query.rfind(name, 0) == 0)
      score = 1;
    else if (name.find(query) != std::string::npos)
      score = std::min(score, 2 * limit + 3);
    else if (d > limit)
      continue;
    scored.emplace_back(score, name.size(), name);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> names;
  for (size_t i = 0; i < scored.size() && i < 8; ++i) names.push_back(std::get<2>(scored[i]));
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2 ||
      (argc == 2 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help"))) {
    std::cout
        << "usage: brasa_ops [OP | --aten]\n"
           "  without OP: a table of every dispatched op (kernels per dispatch key, where its\n"
           "  derivative is registered, the header that declares it)\n"
           "  with OP: that op's schema, C++ signature, the file of each kernel and its aten\n"
           "  overloads\n"
           "  --aten: every op's aten overloads (op, overload, signature, conditions; "
           "tab-separated)\n";
    return argc > 2 ? 2 : 0;
  }
  std::vector<OperatorHandle*> ops = brasa::all_ops();
  std::sort(ops.begin(), ops.end(),
            [](const OperatorHandle* a, const OperatorHandle* b) { return a->name() < b->name(); });
  if (argc == 1) {
    print_table(ops);
    return 0;
  }
  if (std::string(argv[1]) == "--aten") {
    try {
      print_aten_table(ops);
    } catch (const std::exception& e) {  // a malformed BRASA_ATEN statement
      std::cerr << "brasa_ops: " << e.what() << "\n";
      return 1;
    }
    return 0;
  }
  const std::string name = argv[1];
  if (const OperatorHandle* op = brasa::find_op(name)) {
    try {
      print_op(*op);
    } catch (const std::exception& e) {
      std::cerr << "brasa_ops: " << e.what() << "\n";
      return 1;
    }
    return 0;
  }
  std::cerr << "brasa_ops: there is no op named '" << name << "'";
  std::vector<std::string> close = close_names(name, ops);
  if (!close.empty()) {
    std::cerr << "; did you mean: ";
    for (size_t i = 0; i < close.size(); ++i) std::cerr << (i ? ", " : "") << close[i];
  }
  std::cerr << "\n(brasa_ops without arguments lists all " << ops.size() << " ops)\n";
  return 1;
}
