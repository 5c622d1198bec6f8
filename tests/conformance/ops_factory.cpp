// Op map of the factory and fill family (cases_factory.py).

#include "registry.h"

namespace brasa::conformance {
namespace {

const OpTable kFactory(
    "factory",
    {
        {"zeros", [](const Args& a) -> Value { return zeros(a.ints(0), a.options()); }},
        {"ones", [](const Args& a) -> Value { return ones(a.ints(0), a.options()); }},
        {"empty", [](const Args& a) -> Value { return empty(a.ints(0), a.options()); }},
        {"full", [](const Args& a) -> Value { return full(a.ints(0), a.scalar(1), a.options()); }},
        {"zeros_like", [](const Args& a) -> Value { return zeros_like(a.tensor(0), a.options()); }},
        {"ones_like", [](const Args& a) -> Value { return ones_like(a.tensor(0), a.options()); }},
        {"empty_like", [](const Args& a) -> Value { return empty_like(a.tensor(0), a.options()); }},
        {"full_like",
         [](const Args& a) -> Value { return full_like(a.tensor(0), a.scalar(1), a.options()); }},
        {"scalar_tensor",
         [](const Args& a) -> Value { return scalar_tensor(a.scalar(0), a.options()); }},
        {"fill_",
         [](const Args& a) -> Value {
           Tensor self = a.tensor(0);
           return same_tensor(
               self, a.is_tensor(1) ? self.fill_(a.tensor(1)) : self.fill_(a.scalar(1)), "fill_");
         }},
        {"zero_",
         [](const Args& a) -> Value {
           Tensor self = a.tensor(0);
           return same_tensor(self, self.zero_(), "zero_");
         }},
    });

}  // namespace
}  // namespace brasa::conformance
