#pragma once
// c10::optional is std::optional (as it became in later libtorch releases).

#include <optional>

#include "c10/brasa_namespaces.h"

namespace c10 {
using std::make_optional;
using std::nullopt;
using std::nullopt_t;
using std::optional;
}  // namespace c10
namespace at {
using std::nullopt;
using std::optional;
}  // namespace at
namespace torch {
using std::nullopt;
using std::optional;
}  // namespace torch
