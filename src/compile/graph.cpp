#include "compile/graph.h"

#include <cstring>
#include <sstream>

namespace brasa::compiler {
namespace {

std::string hex_double(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  std::ostringstream os;
  os << std::hex << bits;
  return os.str();
}

std::string scalar_key(const Scalar& s) {
  if (s.isFloatingPoint()) return "d" + hex_double(s.to<double>());
  if (s.isBoolean()) return s.to<bool>() ? "true" : "false";
  if (s.isComplex()) {
    auto z = s.to<complex<double>>();
    return "z" + hex_double(z.real()) + "," + hex_double(z.imag());
  }
  return "i" + std::to_string(s.to<int64_t>());
}

// A literal's bytes in hex (literals are small and contiguous: wrapped numbers, folded values).
std::string literal_bytes(const Tensor& t) {
  if (!t.defined() || !t.is_contiguous() || t.numel() > 64) return "?";
  const auto* p = static_cast<const unsigned char*>(t.data_ptr());
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < t.nbytes(); ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

}  // namespace

std::string value_key(const Value& v) {
  std::ostringstream os;
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          os << "None";
        } else if constexpr (std::is_same_v<T, Tensor>) {
          os << (x.defined() ? "T" : "None");
        } else if constexpr (std::is_same_v<T, std::vector<Tensor>>) {
          os << "T[" << x.size() << "]";
        } else if constexpr (std::is_same_v<T, Scalar>) {
          os << scalar_key(x);
        } else if constexpr (std::is_same_v<T, double>) {
          os << "d" << hex_double(x);
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          os << "[";
          for (int64_t i : x) os << i << ",";
          os << "]";
        } else if constexpr (std::is_same_v<T, Generator>) {
          os << "Generator";
        } else if constexpr (std::is_same_v<T, std::string>) {
          os << '"' << x << '"';
        } else {
          os << x;  // int64_t, bool, ScalarType, Device
        }
      },
      v.payload());
  return os.str();
}

Node clone(const Node& n) {
  Node c;
  c.op = n.op;
  c.args.reserve(n.args.size());
  for (const Value& v : n.args) c.args.push_back(v);
  c.refs = n.refs;
  c.results = n.results;
  c.sizes = n.sizes;
  c.num_results = n.num_results;
  c.mutates = n.mutates;
  c.is_view = n.is_view;
  c.is_random = n.is_random;
  return c;
}

Graph clone(const Graph& g) {
  Graph c;
  c.num_inputs = g.num_inputs;
  c.values = g.values;
  c.outputs = g.outputs;
  c.nodes.reserve(g.nodes.size());
  for (const Node& n : g.nodes) c.nodes.push_back(clone(n));
  return c;
}

Uses::Uses(const Graph& g)
    : producer(g.values.size(), -1), readers(g.values.size()), output(g.values.size(), false) {
  for (int32_t i = 0; i < static_cast<int32_t>(g.nodes.size()); ++i) {
    for (const ArgRef& r : g.nodes[i].results) producer[r.value] = i;
    for (const ArgRef& r : g.nodes[i].refs)
      if (readers[r.value].empty() || readers[r.value].back() != i) readers[r.value].push_back(i);
  }
  for (int32_t o : g.outputs) output[o] = true;
}

Stack bind_arguments(const Node& n, const std::vector<Tensor>& env) {
  Stack stack = n.args;
  for (const ArgRef& r : n.refs) {
    if (r.element < 0)
      stack[r.slot] = env[r.value];
    else
      stack[r.slot].get<std::vector<Tensor>>()[r.element] = env[r.value];
  }
  for (const SizeRef& s : n.sizes) {
    const int64_t size = s.of(env[s.input]);
    if (s.scalar)
      stack[s.slot] = Value(Scalar(size));
    else if (s.element < 0)
      stack[s.slot] = Value(size);
    else
      stack[s.slot].get<std::vector<int64_t>>()[s.element] = size;
  }
  return stack;
}

bool Graph::has_mutation() const {
  for (const Node& n : nodes)
    if (n.mutates) return true;
  return false;
}

std::string Graph::structure_key() const {
  std::ostringstream os;
  os << "in" << num_inputs << ";";
  for (size_t i = num_inputs; i < values.size(); ++i)
    if (values[i].kind == ValueKind::Literal)
      os << "L" << i << "=" << to_string(values[i].dtype) << ":"
         << literal_bytes(values[i].constant) << ";";
    else if (values[i].kind == ValueKind::Captured)
      os << "C" << i << "@" << values[i].constant.unsafeGetTensorImpl() << ";";
  for (const Node& n : nodes) {
    os << n.op->name() << "(";
    for (const Value& a : n.args) os << value_key(a) << ",";
    for (const ArgRef& r : n.refs) os << r.slot << "." << r.element << "=v" << r.value << ",";
    os << ")->";
    for (const ArgRef& r : n.results) os << "v" << r.value << ",";
    os << ";";
  }
  os << "out";
  for (int32_t o : outputs) os << "v" << o << ",";
  return os.str();
}

std::string Graph::dump() const {
  std::ostringstream os;
  auto describe = [&](int32_t v) {
    const ValueInfo& info = values[v];
    os << "v" << v << ":" << to_string(info.dtype) << "[";
    for (size_t i = 0; i < info.sizes.size(); ++i) os << (i ? "," : "") << info.sizes[i];
    os << "]";
  };
  for (int32_t v = 0; v < static_cast<int32_t>(values.size()); ++v) {
    if (values[v].kind == ValueKind::Node) continue;
    os << "  ";
    describe(v);
    os << (values[v].kind == ValueKind::Input     ? " input"
           : values[v].kind == ValueKind::Literal ? " literal"
                                                  : " captured")
       << "\n";
  }
  for (const Node& n : nodes) {
    os << "  ";
    for (const ArgRef& r : n.results) {
      describe(r.value);
      os << " ";
    }
    os << "= " << n.op->name() << "(";
    for (size_t i = 0; i < n.args.size(); ++i) {
      bool tensor = false;
      for (const ArgRef& r : n.refs)
        if (r.slot == static_cast<int32_t>(i) && r.element < 0) {
          os << "v" << r.value;
          tensor = true;
        }
      if (!tensor) os << value_key(n.args[i]);
      os << (i + 1 < n.args.size() ? ", " : "");
    }
    os << ")" << (n.mutates ? " [mutates]" : "") << (n.is_view ? " [view]" : "") << "\n";
  }
  os << "  return";
  for (int32_t o : outputs) os << " v" << o;
  return os.str() + "\n";
}

}  // namespace brasa::compiler
