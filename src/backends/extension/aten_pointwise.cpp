// aten overloads of brasa's pointwise ops. brasa's binary ops are op(self, other, alpha, out) and
// its unary ops op(self, out), with out undefined (functional), self (in-place) or another tensor
// (out=), and a Python-number `other` passed as a wrapped 0-d tensor (aten's .Scalar overloads).
#include "backends/extension/aten_forms.h"

namespace brasa::backend::detail {
namespace {

constexpr const char* kT2 = "Tensor(Tensor, Tensor)";
constexpr const char* kTS = "Tensor(Tensor, Scalar)";
constexpr const char* kT2Out = "Tensor(Tensor, Tensor, Tensor)";
constexpr const char* kTSOut = "Tensor(Tensor, Scalar, Tensor)";

// add and sub take alpha: add.Tensor(self, other, alpha), ...
void alpha_forms(std::vector<AtenForm>& f, const std::string& op) {
  f.push_back({op + ".Tensor",
               op,
               "Tensor(Tensor, Tensor, Scalar)",
               {arg(0), arg(1), arg(2)},
               functional(3, 1, false)});
  f.push_back({op + ".Scalar",
               op,
               "Tensor(Tensor, Scalar, Scalar)",
               {arg(0), value_of(1), arg(2)},
               functional(3, 1, true)});
  f.push_back({op + "_.Tensor",
               op,
               "Tensor(Tensor, Tensor, Scalar)",
               {arg(0), arg(1), arg(2)},
               in_place(3, 1, false),
               0});
  f.push_back({op + "_.Scalar",
               op,
               "Tensor(Tensor, Scalar, Scalar)",
               {arg(0), value_of(1), arg(2)},
               in_place(3, 1, true),
               0});
  f.push_back({op + ".out",
               op,
               "Tensor(Tensor, Tensor, Scalar, Tensor)",
               {arg(0), arg(1), arg(2), arg(3)},
               out_arg(3, 1, false),
               3});
}

// mul.Tensor(self, other), mul.Scalar, mul_.Tensor, mul_.Scalar, then the two out= names.
void plain_forms(std::vector<AtenForm>& f, const std::string& op, const std::string& tensor_out,
                 const std::string& scalar_out) {
  f.push_back({op + ".Tensor", op, kT2, {arg(0), arg(1)}, functional(3, 1, false)});
  f.push_back({op + ".Scalar", op, kTS, {arg(0), value_of(1)}, functional(3, 1, true)});
  f.push_back({op + "_.Tensor", op, kT2, {arg(0), arg(1)}, in_place(3, 1, false), 0});
  f.push_back({op + "_.Scalar", op, kTS, {arg(0), value_of(1)}, in_place(3, 1, true), 0});
  f.push_back(
      {op + "." + tensor_out, op, kT2Out, {arg(0), arg(1), arg(3)}, out_arg(3, 1, false), 3});
  f.push_back(
      {op + "." + scalar_out, op, kTSOut, {arg(0), value_of(1), arg(3)}, out_arg(3, 1, true), 3});
}

// relu(self), relu_(self), relu.out(self, out).
void unary_forms(std::vector<AtenForm>& f, const std::string& op, bool in_place_and_out = true) {
  f.push_back({op, op, "Tensor(Tensor)", {arg(0)}, functional(1)});
  if (!in_place_and_out) return;
  f.push_back({op + "_", op, "Tensor(Tensor)", {arg(0)}, in_place(1), 0});
  f.push_back({op + ".out", op, "Tensor(Tensor, Tensor)", {arg(0), arg(1)}, out_arg(1), 1});
}

std::vector<AtenForm> pointwise_forms() {
  std::vector<AtenForm> f;
  for (const char* op : {"add", "sub"}) alpha_forms(f, op);
  for (const char* op :
       {"mul", "div", "remainder", "fmod", "bitwise_and", "bitwise_or", "bitwise_xor"})
    plain_forms(f, op, "out", "Scalar_out");
  for (const char* op : {"eq", "ne", "lt", "le", "gt", "ge"})
    plain_forms(f, op, "Tensor_out", "Scalar_out");
  for (const char* op :
       {"maximum", "minimum", "atan2", "hypot", "logical_and", "logical_or", "logical_xor"}) {
    f.push_back({op, op, kT2, {arg(0), arg(1)}, functional(3, 1, false)});
    f.push_back(
        {std::string(op) + ".out", op, kT2Out, {arg(0), arg(1), arg(3)}, out_arg(3, 1, false), 3});
  }
  for (const char* op :
       {"reciprocal", "exp",   "exp2",  "expm1", "log",         "log2",       "log10",
        "log1p",      "sqrt",  "rsqrt", "sin",   "cos",         "tan",        "asin",
        "acos",       "atan",  "sinh",  "cosh",  "tanh",        "sigmoid",    "erf",
        "erfinv",     "neg",   "abs",   "sign",  "square",      "floor",      "ceil",
        "round",      "trunc", "frac",  "relu",  "bitwise_not", "logical_not"})
    unary_forms(f, op);
  for (const char* op : {"isnan", "isinf", "isfinite"}) unary_forms(f, op, false);
  return f;
}

const bool registered = add_aten_forms(pointwise_forms());

}  // namespace
}  // namespace brasa::backend::detail
