#pragma once
// c10::string_view is std::string_view (libtorch 1.13 has its own class with the same interface);
// aten kernels take `str?` arguments as c10::optional<c10::string_view>.

#include <string_view>

#include "c10/brasa_namespaces.h"

namespace c10 {
using std::string_view;
}  // namespace c10
