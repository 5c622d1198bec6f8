// The out-of-line throw of get<T>(EnumVariant) (Note [Enum options are EnumVariants]).

#include "brasa/nn/enum_variant.h"

#include <variant>

namespace brasa::nn::detail {

void throw_bad_enum_variant_access() { throw std::bad_variant_access(); }

}  // namespace brasa::nn::detail
