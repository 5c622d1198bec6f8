// Op map of the linear-algebra family (cases_linalg.py).

#include "brasa/ops/linalg.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

Scalar kw(const Args& a, const char* name) { return a.kw_scalar(name).value_or(Scalar(1)); }

std::vector<Tensor> tensors(const Args& a) {
  std::vector<Tensor> v;
  for (size_t i = 0; i < a.size(); ++i) v.push_back(a.tensor(i));
  return v;
}

const OpTable kLinalg(
    "linalg",
    {
        {"mm", [](const Args& a) -> Value { return a.tensor(0).mm(a.tensor(1)); }},
        {"bmm", [](const Args& a) -> Value { return a.tensor(0).bmm(a.tensor(1)); }},
        {"mv", [](const Args& a) -> Value { return a.tensor(0).mv(a.tensor(1)); }},
        {"dot", [](const Args& a) -> Value { return a.tensor(0).dot(a.tensor(1)); }},
        {"outer", [](const Args& a) -> Value { return a.tensor(0).outer(a.tensor(1)); }},
        {"matmul", [](const Args& a) -> Value { return a.tensor(0).matmul(a.tensor(1)); }},
        {"addmm",
         [](const Args& a) -> Value {
           return a.tensor(0).addmm(a.tensor(1), a.tensor(2), kw(a, "beta"), kw(a, "alpha"));
         }},
        {"addmv",
         [](const Args& a) -> Value {
           return a.tensor(0).addmv(a.tensor(1), a.tensor(2), kw(a, "beta"), kw(a, "alpha"));
         }},
        {"baddbmm",
         [](const Args& a) -> Value {
           return a.tensor(0).baddbmm(a.tensor(1), a.tensor(2), kw(a, "beta"), kw(a, "alpha"));
         }},
        {"linear",
         [](const Args& a) -> Value {
           return linear(a.tensor(0), a.tensor(1), a.size() > 2 ? a.tensor(2) : Tensor());
         }},
        {"einsum",
         [](const Args& a) -> Value { return einsum(*a.kw_str("equation"), tensors(a)); }},
    });

}  // namespace
}  // namespace brasa::conformance
