#pragma once
// c10::variant and its functions, which libtorch 1.13 implements itself and brasa takes from the
// standard library: the enum options of nn (`torch::kMean`, `torch::kReflect`, ...) are
// std::variants, so `c10::get_if<torch::enumtype::kMean>(&options.reduction())` works on them.

#include <variant>

namespace c10 {
using std::get;
using std::get_if;
using std::holds_alternative;
using std::monostate;
using std::variant;
using std::visit;
}  // namespace c10
