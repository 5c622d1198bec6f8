#pragma once
// c10::variant and its functions, which libtorch 1.13 implements itself. c10::variant is
// std::variant here; the enum options of nn (`torch::kMean`, `torch::kReflect`, ...) are
// brasa::nn::EnumVariants (Note [Enum options are EnumVariants]), and c10::get_if, get,
// holds_alternative and visit take them too:
// `c10::get_if<torch::enumtype::kMean>(&options.reduction())`.

#include <variant>

#include "brasa/nn/enum_variant.h"

namespace c10 {
using ::brasa::nn::get;
using ::brasa::nn::get_if;
using ::brasa::nn::holds_alternative;
using ::brasa::nn::visit;
using std::get;
using std::get_if;
using std::holds_alternative;
using std::monostate;
using std::variant;
using std::visit;
}  // namespace c10
