// Op map of the conversion family (cases_copy.py).

#include "registry.h"

namespace brasa::conformance {
namespace {

const OpTable kCopy("copy",
                    {
                        {"to", [](const Args& a) -> Value { return a.tensor(0).to(a.dtype(1)); }},
                        {"copy_",
                         [](const Args& a) -> Value {
                           Tensor self = a.tensor(0);
                           return same_tensor(self, self.copy_(a.tensor(1)), "copy_");
                         }},
                    });

}  // namespace
}  // namespace brasa::conformance
