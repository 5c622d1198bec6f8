// Op map of the type-promotion family (cases_promotion.py).

#include "registry.h"

namespace brasa::conformance {
namespace {

const OpTable kPromotion(
    "promotion",
    {
        {"promote_types",
         [](const Args& a) { return Value::of_dtype(promote_types(a.dtype(0), a.dtype(1))); }},
        {"can_cast",
         [](const Args& a) { return Value::of_bool(can_cast(a.dtype(0), a.dtype(1))); }},
        {"result_type",
         [](const Args& a) {
           if (!a.is_tensor(0)) return Value::of_dtype(result_type(a.scalar(0), a.tensor(1)));
           if (!a.is_tensor(1)) return Value::of_dtype(result_type(a.tensor(0), a.scalar(1)));
           return Value::of_dtype(result_type(a.tensor(0), a.tensor(1)));
         }},
    });

}  // namespace
}  // namespace brasa::conformance
