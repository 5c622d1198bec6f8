// Op map of the binary pointwise family (cases_binary.py): functional forms (Tensor or Scalar
// other, Scalar self for pow), in-place methods, _out forms, and the operators.

#include "registry.h"

namespace brasa::conformance {
namespace {

std::optional<std::string_view> rounding_mode(const std::optional<std::string>& m) {
  return m ? std::optional<std::string_view>(*m) : std::nullopt;
}

Value div_fn(const Args& a) {
  auto mode = a.kw_str("rounding_mode");
  if (!a.is_tensor(1)) {
    return mode ? div(a.tensor(0), a.scalar(1), rounding_mode(mode))
                : div(a.tensor(0), a.scalar(1));
  }
  return mode ? div(a.tensor(0), a.tensor(1), rounding_mode(mode)) : div(a.tensor(0), a.tensor(1));
}
Value div_inplace(const Args& a) {
  Tensor self = a.tensor(0);
  auto mode = a.kw_str("rounding_mode");
  if (!a.is_tensor(1))
    return same_tensor(
        self, mode ? self.div_(a.scalar(1), rounding_mode(mode)) : self.div_(a.scalar(1)), "div_");
  return same_tensor(
      self, mode ? self.div_(a.tensor(1), rounding_mode(mode)) : self.div_(a.tensor(1)), "div_");
}
Value div_out_fn(const Args& a) {
  Tensor out = a.kw_tensor("out");
  auto mode = a.kw_str("rounding_mode");
  Tensor& r = mode ? div_out(out, a.tensor(0), a.tensor(1), rounding_mode(mode))
                   : div_out(out, a.tensor(0), a.tensor(1));
  return same_tensor(out, r, "div_out");
}

template <typename F>
Value alpha_op(const Args& a, F f) {
  Scalar alpha = a.kw_scalar("alpha").value_or(Scalar(1));
  return a.is_tensor(1) ? f(a.tensor(0), a.tensor(1), alpha) : f(a.tensor(0), a.scalar(1), alpha);
}

}  // namespace

// name: functional (Tensor/Scalar other); name_: in-place method; name_out: out= form.
#define BRASA_BINARY_MAP(name)                                                                \
  {#name,                                                                                     \
   [](const Args& a) -> Value {                                                               \
     return a.is_tensor(1) ? brasa::name(a.tensor(0), a.tensor(1))                            \
                           : brasa::name(a.tensor(0), a.scalar(1));                           \
   }},                                                                                        \
      {#name "_",                                                                             \
       [](const Args& a) -> Value {                                                           \
         Tensor self = a.tensor(0);                                                           \
         return same_tensor(                                                                  \
             self, a.is_tensor(1) ? self.name##_(a.tensor(1)) : self.name##_(a.scalar(1)),    \
             #name "_");                                                                      \
       }},                                                                                    \
  {                                                                                           \
#name "_out", [](const Args& a) -> Value {                                                  \
         Tensor out = a.kw_tensor("out");                                                          \
         return same_tensor(out, brasa::name##_out(out, a.tensor(0), a.tensor(1)), #name "_out");  \
       } \
  }

#define BRASA_OPERATOR_MAP(sym)                                \
  {                                                            \
    "operator" #sym, [](const Args& a) -> Value {              \
      if (!a.is_tensor(0)) return a.scalar(0) sym a.tensor(1); \
      if (!a.is_tensor(1)) return a.tensor(0) sym a.scalar(1); \
      return a.tensor(0) sym a.tensor(1);                      \
    }                                                          \
  }

namespace {

const OpTable kBinary(
    "binary",
    {
        {"add",
         [](const Args& a) {
           return alpha_op(a, [](auto&& x, auto&& y, auto&& al) { return add(x, y, al); });
         }},
        {"add_",
         [](const Args& a) {
           Tensor self = a.tensor(0);
           return alpha_op(a, [&](auto&&, auto&& y, auto&& al) {
             return same_tensor(self, self.add_(y, al), "add_");
           });
         }},
        {"add_out",
         [](const Args& a) -> Value {
           Tensor out = a.kw_tensor("out");
           Scalar alpha = a.kw_scalar("alpha").value_or(Scalar(1));
           return same_tensor(out, add_out(out, a.tensor(0), a.tensor(1), alpha), "add_out");
         }},
        {"sub",
         [](const Args& a) {
           return alpha_op(a, [](auto&& x, auto&& y, auto&& al) { return sub(x, y, al); });
         }},
        {"sub_",
         [](const Args& a) {
           Tensor self = a.tensor(0);
           return alpha_op(a, [&](auto&&, auto&& y, auto&& al) {
             return same_tensor(self, self.sub_(y, al), "sub_");
           });
         }},
        {"sub_out",
         [](const Args& a) -> Value {
           Tensor out = a.kw_tensor("out");
           Scalar alpha = a.kw_scalar("alpha").value_or(Scalar(1));
           return same_tensor(out, sub_out(out, a.tensor(0), a.tensor(1), alpha), "sub_out");
         }},
        {"div", div_fn},
        {"div_", div_inplace},
        {"div_out", div_out_fn},
        BRASA_BINARY_MAP(mul),
        BRASA_BINARY_MAP(remainder),
        BRASA_BINARY_MAP(fmod),
        BRASA_BINARY_MAP(floor_divide),
        BRASA_BINARY_MAP(pow),
        {"pow(Scalar, Tensor)",
         [](const Args& a) -> Value { return pow(a.scalar(0), a.tensor(1)); }},
        BRASA_BINARY_MAP(atan2),
        BRASA_BINARY_MAP(hypot),
        BRASA_BINARY_MAP(maximum),
        BRASA_BINARY_MAP(minimum),
        BRASA_BINARY_MAP(eq),
        BRASA_BINARY_MAP(ne),
        BRASA_BINARY_MAP(lt),
        BRASA_BINARY_MAP(le),
        BRASA_BINARY_MAP(gt),
        BRASA_BINARY_MAP(ge),
        BRASA_BINARY_MAP(logical_and),
        BRASA_BINARY_MAP(logical_or),
        BRASA_BINARY_MAP(logical_xor),
        BRASA_BINARY_MAP(bitwise_and),
        BRASA_BINARY_MAP(bitwise_or),
        BRASA_BINARY_MAP(bitwise_xor),
        BRASA_OPERATOR_MAP(+),
        BRASA_OPERATOR_MAP(-),
        BRASA_OPERATOR_MAP(*),
        BRASA_OPERATOR_MAP(/),
        BRASA_OPERATOR_MAP(%),
        BRASA_OPERATOR_MAP(&),
        BRASA_OPERATOR_MAP(|),
        BRASA_OPERATOR_MAP(^),
        BRASA_OPERATOR_MAP(==),
        BRASA_OPERATOR_MAP(!=),
        BRASA_OPERATOR_MAP(<),
        BRASA_OPERATOR_MAP(<=),
        BRASA_OPERATOR_MAP(>),
        BRASA_OPERATOR_MAP(>=),
    });

}  // namespace
}  // namespace brasa::conformance
