#pragma once
// at::native::cpu_fallback: brasa's CPU fallback (brasa/backend/fallback.h) in libtorch's spelling,
// for a backend's own boxed fallback.
#include "brasa/backend/fallback.h"
#include "torch/library.h"

namespace at::native {
inline void cpu_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack,
                         bool /*error_on_views*/ = true) {
  ::brasa::backend::cpu_fallback(op, *stack);
}
}  // namespace at::native
