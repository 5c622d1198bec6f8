#pragma once
// torch::make_unique, which libtorch 1.13 keeps from before C++14 and its programs and tests still
// call: std::make_unique under libtorch's name.

#include <memory>

namespace torch {
using std::make_unique;
}  // namespace torch
