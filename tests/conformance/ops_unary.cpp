// Op map of the unary family (cases_unary.py).

#include "registry.h"

namespace brasa::conformance {
namespace {

#define BRASA_UNARY_MAP(name)                                                                       \
  {#name, [](const Args& a) -> Value { return a.tensor(0).name(); }}, {                             \
#name "_", [](const Args& a) -> Value {                                                           \
     Tensor self = a.tensor(0);                                                                      \
     return same_tensor(self, self.name##_(), #name "_");                                            \
   } \
  }

std::optional<Scalar> bound_scalar(const Args& a, const char* name) {
  const Value* v = a.kwarg(name);
  if (!v || v->tag == Tag::Tensor) return std::nullopt;
  return to_scalar(*v);
}
bool has_tensor_bound(const Args& a) {
  const Value *lo = a.kwarg("min"), *hi = a.kwarg("max");
  return (lo && lo->tag == Tag::Tensor) || (hi && hi->tag == Tag::Tensor);
}
std::optional<Tensor> bound_tensor(const Args& a, const char* name) {
  Tensor t = a.kw_tensor(name);
  return t.defined() ? std::optional<Tensor>(t) : std::nullopt;
}

const OpTable kUnary(
    "unary",
    {
        BRASA_UNARY_MAP(neg),
        BRASA_UNARY_MAP(reciprocal),
        BRASA_UNARY_MAP(abs),
        BRASA_UNARY_MAP(sign),
        BRASA_UNARY_MAP(exp),
        BRASA_UNARY_MAP(exp2),
        BRASA_UNARY_MAP(expm1),
        BRASA_UNARY_MAP(log),
        BRASA_UNARY_MAP(log2),
        BRASA_UNARY_MAP(log10),
        BRASA_UNARY_MAP(log1p),
        BRASA_UNARY_MAP(sqrt),
        BRASA_UNARY_MAP(rsqrt),
        BRASA_UNARY_MAP(sin),
        BRASA_UNARY_MAP(cos),
        BRASA_UNARY_MAP(tan),
        BRASA_UNARY_MAP(asin),
        BRASA_UNARY_MAP(acos),
        BRASA_UNARY_MAP(atan),
        BRASA_UNARY_MAP(sinh),
        BRASA_UNARY_MAP(cosh),
        BRASA_UNARY_MAP(tanh),
        BRASA_UNARY_MAP(sigmoid),
        BRASA_UNARY_MAP(erf),
        BRASA_UNARY_MAP(erfinv),
        BRASA_UNARY_MAP(floor),
        BRASA_UNARY_MAP(ceil),
        BRASA_UNARY_MAP(round),
        BRASA_UNARY_MAP(trunc),
        BRASA_UNARY_MAP(frac),
        BRASA_UNARY_MAP(relu),
        BRASA_UNARY_MAP(logical_not),
        BRASA_UNARY_MAP(bitwise_not),
        {"isnan", [](const Args& a) -> Value { return a.tensor(0).isnan(); }},
        {"isinf", [](const Args& a) -> Value { return a.tensor(0).isinf(); }},
        {"isfinite", [](const Args& a) -> Value { return a.tensor(0).isfinite(); }},
        {"clamp",
         [](const Args& a) -> Value {
           if (has_tensor_bound(a))
             return a.tensor(0).clamp(bound_tensor(a, "min"), bound_tensor(a, "max"));
           return a.tensor(0).clamp(bound_scalar(a, "min"), bound_scalar(a, "max"));
         }},
        {"clamp_",
         [](const Args& a) -> Value {
           Tensor self = a.tensor(0);
           return same_tensor(self, self.clamp_(bound_scalar(a, "min"), bound_scalar(a, "max")),
                              "clamp_");
         }},
        {"where",
         [](const Args& a) -> Value { return a.tensor(0).where(a.tensor(1), a.tensor(2)); }},
        {"masked_fill",
         [](const Args& a) -> Value {
           return a.is_tensor(2) ? a.tensor(0).masked_fill(a.tensor(1), a.tensor(2))
                                 : a.tensor(0).masked_fill(a.tensor(1), a.scalar(2));
         }},
        {"masked_fill_",
         [](const Args& a) -> Value {
           Tensor self = a.tensor(0);
           return same_tensor(self, self.masked_fill_(a.tensor(1), a.scalar(2)), "masked_fill_");
         }},
        {"lerp",
         [](const Args& a) -> Value {
           return a.is_tensor(2) ? a.tensor(0).lerp(a.tensor(1), a.tensor(2))
                                 : a.tensor(0).lerp(a.tensor(1), a.scalar(2));
         }},
        {"lerp_",
         [](const Args& a) -> Value {
           Tensor self = a.tensor(0);
           return same_tensor(self, self.lerp_(a.tensor(1), a.scalar(2)), "lerp_");
         }},
        {"nan_to_num",
         [](const Args& a) -> Value {
           return a.tensor(0).nan_to_num(a.kw_real("nan"), a.kw_real("posinf"),
                                         a.kw_real("neginf"));
         }},
        {"nan_to_num_",
         [](const Args& a) -> Value {
           Tensor self = a.tensor(0);
           return same_tensor(self, self.nan_to_num_(), "nan_to_num_");
         }},
    });

}  // namespace
}  // namespace brasa::conformance
