// Note [aten forms]
// The aten overloads a TORCH_LIBRARY_IMPL backend can register are derived from the op
// declarations (Note [Op declarations]); nothing in backends/ lists them. For each op:
//
// 1. An op whose schema already is an aten schema (name, overload, argument types and order:
//    flip, index_select, view, max.dim, bernoulli_.float) maps to that one overload. Where the
//    brasa name lacks aten's overload, the schema carries it (`transpose.int(...)`).
// 2. An op with brasa's out convention (a last argument `Tensor? out`: undefined is the functional
//    call, `self` the in-place one, another tensor out=) maps to three overloads: `name[.ovl]`,
//    `name_[.ovl]` and `name.out` (`name.ovl_out`), the last with `out` as its final argument.
//    In-place and out= forms return brasa's `self` / `out`.
// 3. An aten Tensor argument never receives a wrapped Python number (brasa passes `x + 2` as a
//    0-d tensor): such calls go to the overloads that take a Scalar, or to the CPU fallback.
//
// Where aten is irregular, the op's BRASA_ATEN statement (next to its declaration) says how;
// statements are separated by ';':
//   none: REASON       no aten counterpart (the whole statement; brasa_ops and the tests show it)
//   drop ARG=VALUE     ARG is not aten's; the overloads serve calls where it is VALUE
//   scalar ARG         rule 2 with aten's .Tensor/.Scalar pairs: add.Tensor, add.Scalar (ARG a
//                      number), add_.Tensor, add_.Scalar, add.out, add.Scalar_out
//   out_name NAME      the (Tensor) out= overload is `name.NAME` (eq.Tensor_out)
//   no KIND...         rule 2 without the functional / in_place / out overloads named
//   factory            `ScalarType dtype, Device device` are aten's `ScalarType? dtype,
//                      Layout? layout, Device? device, bool? pin_memory` (the Nones passed as such)
//   NAME(ARGS) if CONDITIONS   an overload spelled out; any such statement replaces rules 1 and 2.
//                      ARGS are brasa argument names, `TYPE name` to retype one (T and T? either
//                      way; `Scalar x` takes a wrapped number's value, `int dim` the one element
//                      of an `int[] dim`) or `TYPE=LITERAL` constants
//                      (None, True, False, integers, 'text'); `out` is aten's `Tensor(a!) out`.
//                      CONDITIONS are ARG=VALUE with VALUE None, tensor, number, 1, [], False,
//                      single (a one-element list), or for `out`: None, self, given.
// Overloads are tried in the order given, so a narrower one (mm, sum over all dims) comes first.
// The table is built from every registered op at its first use (aten_dispatch.cpp); ctest
// check_aten_table compares each overload's name and signature with PyTorch's schemas and fails on
// an op with neither overloads nor a `none:` reason.
#include <algorithm>
#include <stdexcept>

#include "backends/extension/aten_forms.h"
#include "brasa/core/error.h"

namespace brasa::backend::detail {
namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(' ');
  if (a == std::string::npos) return {};
  return s.substr(a, s.find_last_not_of(' ') - a + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    depth += (c == '(' || c == '[') - (c == ')' || c == ']');
    if (c == sep && depth == 0) {
      if (!trim(cur).empty()) out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

// "Tensor(a!)" -> "Tensor", "Tensor(d!)?" -> "Tensor?", "Tensor(a)[]" -> "Tensor[]".
std::string plain_type(const std::string& t) {
  size_t open = t.find('(');
  if (open == std::string::npos) return t;
  return t.substr(0, open) + t.substr(t.find(')', open) + 1);
}

struct Builder {
  const OperatorHandle& op;
  const SchemaInfo& info;

  [[noreturn]] void fail(const std::string& what) const {
    BRASA_THROW(InternalError, "BRASA_ATEN(", op.name(), "): ", what, " (statement \"",
                op.aten_statement(), "\", schema ", op.schema(), "; Note [aten forms])");
  }
  int need_arg(const std::string& name) const {
    int i = info.index_of(name);
    if (i < 0) fail("no argument named '" + name + "'");
    return i;
  }
  int self_index() const { return std::max(info.index_of("self"), 0); }

  Condition condition(const std::string& token) const {
    size_t eq = token.find('=');
    if (eq == std::string::npos) fail("condition '" + token + "' is not ARG=VALUE");
    const std::string name = token.substr(0, eq), value = token.substr(eq + 1);
    Condition c{Condition::IsNone, need_arg(name), self_index()};
    const bool out = name == "out";
    if (value == "None")
      c.kind = Condition::IsNone;
    else if (value == "tensor")
      c.kind = Condition::IsTensor;
    else if (value == "number")
      c.kind = Condition::IsNumber;
    else if (value == "1")
      c.kind = Condition::IsOne;
    else if (value == "[]")
      c.kind = Condition::IsEmpty;
    else if (value == "False")
      c.kind = Condition::IsFalse;
    else if (value == "single")
      c.kind = Condition::IsSingle;
    else if (out && value == "self")
      c.kind = Condition::IsSelf;
    else if (out && value == "given")
      c.kind = Condition::IsGiven;
    else
      fail("unknown condition value in '" + token + "'");
    return c;
  }

  AtenArg argument(int index, const std::string& type) const {
    const std::string have = plain_type(info.arguments[index].type);
    if (type == have || type == have + "?" || have == type + "?")
      return {AtenArg::Arg, index, {}, type};
    if (have == "Tensor" && type == "Scalar") return {AtenArg::ValueOf, index, {}, type};
    if (have == "int[]" && type == "int") return {AtenArg::Element, index, {}, type};
    fail("argument '" + info.arguments[index].name + "' is " + have + ", not " + type);
  }
  AtenArg constant(const std::string& type, const std::string& literal) const {
    AtenArg a{AtenArg::Constant, -1, {}, type};
    if (literal == "None") return a;
    if (literal == "True" || literal == "False")
      a.constant = Value(literal == "True");
    else if (literal.size() >= 2 && literal.front() == '\'' && literal.back() == '\'')
      a.constant = Value(literal.substr(1, literal.size() - 2));
    else {
      try {
        const int64_t v = std::stoll(literal);
        a.constant = type == "Scalar" ? Value(Scalar(v)) : Value(v);
      } catch (const std::exception&) {
        fail("constant '" + literal + "' is not None, True, False, an integer or 'text'");
      }
    }
    return a;
  }

  // "mm(mat1, mat2) if self=None alpha=1"
  AtenForm spec(const std::string& text) const {
    size_t open = text.find('('), close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open)
      fail("overload '" + text + "' is not NAME(ARGS) [if CONDITIONS]");
    AtenForm f;
    f.name = trim(text.substr(0, open));
    for (const std::string& item : split(text.substr(open + 1, close - open - 1), ',')) {
      size_t eq = item.find('='), space = item.rfind(' ');
      if (eq != std::string::npos)
        f.args.push_back(constant(trim(item.substr(0, eq)), trim(item.substr(eq + 1))));
      else if (space != std::string::npos)
        f.args.push_back(argument(need_arg(item.substr(space + 1)), item.substr(0, space)));
      else if (item == "out")  // brasa's `Tensor? out`, given to an out= overload
        f.args.push_back(argument(need_arg(item), "Tensor"));
      else
        f.args.push_back(argument(need_arg(item), plain_type(info.arguments[need_arg(item)].type)));
    }
    std::string rest = trim(text.substr(close + 1));
    if (!rest.empty()) {
      if (rest.rfind("if ", 0) != 0)
        fail("expected 'if' after '" + text.substr(0, close + 1) + "'");
      for (const std::string& token : split(rest.substr(3), ' '))
        f.when.push_back(condition(token));
    }
    return f;
  }
};

struct Statement {
  bool none = false;
  std::vector<std::string> specs;
  std::vector<std::pair<std::string, std::string>> drops;  // (arg, value)
  std::string scalar, out_name;
  std::vector<std::string> no;
  bool factory = false;
};

Statement parse_statement(const Builder& b) {
  Statement st;
  const std::string all = trim(b.op.aten_statement());
  if (all.rfind("none:", 0) == 0) {  // the rest is the reason, ';' included
    if (trim(all.substr(5)).empty()) b.fail("'none:' needs a reason");
    st.none = true;
    return st;
  }
  for (const std::string& part : split(all, ';')) {
    auto word = [&](const char* w) { return part.rfind(w, 0) == 0; };
    if (word("none:")) {
      b.fail("'none:' excludes every other statement");
    } else if (part.find('(') != std::string::npos) {
      st.specs.push_back(part);
    } else if (word("drop ")) {
      std::string d = trim(part.substr(5));
      size_t eq = d.find('=');
      if (eq == std::string::npos) b.fail("'" + part + "' is not drop ARG=VALUE");
      st.drops.emplace_back(d.substr(0, eq), d.substr(eq + 1));
    } else if (word("scalar ")) {
      st.scalar = trim(part.substr(7));
    } else if (word("out_name ")) {
      st.out_name = trim(part.substr(9));
    } else if (word("no ")) {
      st.no = split(trim(part.substr(3)), ' ');
    } else if (part == "factory") {
      st.factory = true;
    } else {
      b.fail("unknown statement '" + part + "'");
    }
  }
  return st;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Rules 1 and 2 with the statement's modifiers.
std::vector<AtenForm> derived(const Builder& b, const Statement& st) {
  const SchemaInfo& info = b.info;
  const int n = static_cast<int>(info.arguments.size());
  const bool out_convention =
      n > 0 && info.arguments[n - 1].name == "out" && info.arguments[n - 1].type == "Tensor?";
  AtenForm base;
  for (const auto& [arg, value] : st.drops) base.when.push_back(b.condition(arg + "=" + value));
  for (int i = 0; i < n - out_convention; ++i) {
    const SchemaArgument& a = info.arguments[i];
    bool dropped = false;
    for (const auto& d : st.drops) dropped = dropped || d.first == a.name;
    if (dropped) continue;
    std::string type = plain_type(a.type);
    if (st.factory && a.name == "device") base.args.push_back(b.constant("Layout?", "None"));
    if (st.factory && (a.name == "dtype" || a.name == "device")) type += "?";
    base.args.push_back(b.argument(i, type));
    if (st.factory && a.name == "device") base.args.push_back(b.constant("bool?", "None"));
  }
  if (!out_convention) {
    if (!st.scalar.empty() || !st.out_name.empty() || !st.no.empty())
      b.fail("scalar, out_name and no apply to ops with a `Tensor? out` argument");
    base.name = info.name;
    return {base};
  }
  const std::string name = info.name.substr(0, info.name.find('.'));
  const std::string ovl =
      info.name.find('.') == std::string::npos ? "" : info.name.substr(info.name.find('.') + 1);
  if (!st.scalar.empty() && !ovl.empty()) b.fail("'scalar' needs an op name without overload");
  const int out = n - 1;
  auto make = [&](const std::string& aten, const char* out_value, bool scalar) {
    AtenForm f = base;
    f.name = aten;
    f.when.push_back(b.condition(std::string("out=") + out_value));
    if (scalar) {
      const int i = b.need_arg(st.scalar);
      for (AtenArg& a : f.args)
        if (a.kind == AtenArg::Arg && a.index == i) a = b.argument(i, "Scalar");
    }
    if (std::string(out_value) == "given") f.args.push_back(b.argument(out, "Tensor"));
    return f;
  };
  std::vector<AtenForm> forms;
  const bool pair = !st.scalar.empty();
  const std::string dot_ovl = pair ? ".Tensor" : ovl.empty() ? "" : "." + ovl;
  const std::string out_name = !st.out_name.empty()  ? st.out_name
                               : ovl.empty() || pair ? "out"
                                                     : ovl + "_out";
  if (!has(st.no, "functional")) {
    forms.push_back(make(name + dot_ovl, "None", false));
    if (pair) forms.push_back(make(name + ".Scalar", "None", true));
  }
  if (!has(st.no, "in_place")) {
    forms.push_back(make(name + "_" + dot_ovl, "self", false));
    if (pair) forms.push_back(make(name + "_.Scalar", "self", true));
  }
  if (!has(st.no, "out")) {
    forms.push_back(make(name + "." + out_name, "given", false));
    if (pair) forms.push_back(make(name + ".Scalar_out", "given", true));
  }
  return forms;
}

std::string return_type(const SchemaInfo& info) {
  std::string r;
  for (const std::string& t : info.returns) r += (r.empty() ? "" : ", ") + plain_type(t);
  return info.returns.size() == 1 ? r : "(" + r + ")";
}

}  // namespace

std::vector<AtenForm> derive_aten_forms(const OperatorHandle& op) {
  if (op.name().find("::") != std::string::npos) return {};  // not an aten name
  const Builder b{op, op.schema_info()};
  const Statement st = parse_statement(b);
  if (st.none) return {};
  std::vector<AtenForm> forms;
  if (st.specs.empty()) {
    forms = derived(b, st);
  } else {
    if (!st.drops.empty() || !st.no.empty() || st.factory || !st.scalar.empty())
      b.fail("an overload spelled out excludes drop, scalar, no and factory");
    for (const std::string& s : st.specs) forms.push_back(b.spec(s));
  }
  const SchemaInfo& info = b.info;
  int written = -1;
  for (size_t i = 0; i < info.arguments.size() && written < 0; ++i)
    if (info.arguments[i].written && info.arguments[i].name != "out") written = static_cast<int>(i);
  for (size_t k = 0; k < forms.size(); ++k) {
    AtenForm& f = forms[k];
    f.op = op.name();
    f.order = k;
    for (const Condition& c : f.when) {
      if (c.kind == Condition::IsSelf) f.result_arg = c.self_index;
      if (c.kind == Condition::IsGiven) f.result_arg = c.index;
    }
    if (f.result_arg < 0 && info.returns_written) f.result_arg = written;
    f.signature = (f.result_arg >= 0 ? std::string("Tensor") : return_type(info)) + "(";
    for (size_t i = 0; i < f.args.size(); ++i) {
      const AtenArg& a = f.args[i];
      f.signature += (i ? ", " : "") + a.type;
      if (a.kind == AtenArg::ValueOf) f.when.push_back({Condition::IsNumber, a.index});
      if (a.kind == AtenArg::Element) f.when.push_back({Condition::IsSingle, a.index});
      if (a.kind == AtenArg::Arg && (a.type == "Tensor" || a.type == "Tensor?"))
        f.when.push_back({Condition::NotNumber, a.index});
    }
    f.signature += ")";
  }
  return forms;
}

}  // namespace brasa::backend::detail
