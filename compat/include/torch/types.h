#pragma once
// torch::Tensor, torch::kFloat32, ...: torch:: nominates brasa (Note [libtorch namespaces]); the
// short dtype spellings below exist only in torch::.

#include "ATen/ATen.h"
#include "c10/util/Optional.h"

namespace torch {
constexpr auto kU8 = ::brasa::kUInt8;
constexpr auto kI8 = ::brasa::kInt8;
constexpr auto kI16 = ::brasa::kInt16;
constexpr auto kI32 = ::brasa::kInt32;
constexpr auto kI64 = ::brasa::kInt64;
constexpr auto kF16 = ::brasa::kFloat16;
constexpr auto kF32 = ::brasa::kFloat32;
constexpr auto kF64 = ::brasa::kFloat64;
}  // namespace torch
