#pragma once
// Guards: what a compiled graph assumes of its inputs (Note [Guards] in guards.cpp).

#include <string>
#include <vector>

#include "brasa/core/tensor.h"

namespace brasa::compiler {

struct InputGuard {
  ScalarType dtype = ScalarType::Float;
  Device device = Device(kCPU);
  std::vector<int64_t> sizes;
  std::vector<bool> dynamic;      ///< per dim: any size in [min, max] accepted
  std::vector<int64_t> min, max;  ///< per dynamic dim (2 and INT64_MAX unless marked)
  bool contiguous = true;
  bool requires_grad = false;
  int alias_of = -1;  ///< the first earlier input that is the same tensor
};

struct Guards {
  std::vector<InputGuard> inputs;
  bool grad_mode = true;

  static Guards of(const std::vector<Tensor>& inputs, bool all_dynamic);
  /// "" when `inputs` pass; otherwise the first failing guard in words ("input 0 dim 0: expected
  /// 146, got 149"). `size_only` is set when every failure is a size of a static dim.
  std::string check(const std::vector<Tensor>& inputs, bool* size_only = nullptr) const;
  /// Makes every static dim whose size differs in `inputs` dynamic; false when a size involved is
  /// 0 or 1 (those stay specialised: they change broadcasting).
  bool generalise(const std::vector<Tensor>& inputs);
};

}  // namespace brasa::compiler
