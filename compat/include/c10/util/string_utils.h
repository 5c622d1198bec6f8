#pragma once
// <c10/util/string_utils.h>: libtorch's c10::to_string, c10::stoi, ... are the standard ones.

#include <string>

namespace c10 {
using std::stod;
using std::stoi;
using std::stoll;
using std::stoull;
using std::to_string;
}  // namespace c10
