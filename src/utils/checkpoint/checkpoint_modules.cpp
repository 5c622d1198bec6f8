// checkpoint_sequential and CheckpointWrapper: brasa/utils/checkpoint_modules.h.

#include "brasa/utils/checkpoint_modules.h"

#include <algorithm>
#include <vector>

#include "brasa/core/error.h"

namespace brasa::utils {

Tensor checkpoint_sequential(const nn::Sequential& modules, int64_t segments, const Tensor& input,
                             CheckpointOptions options) {
  const auto n = static_cast<int64_t>(modules->size());
  BRASA_CHECK(segments >= 1 && segments <= n,
              "checkpoint_sequential: expected 1 <= segments <= ", n,
              " (the number of modules), got ", segments);
  const int64_t per_segment = n / segments;
  Tensor x = input;
  int64_t start = 0;
  for (int64_t s = 0; s < segments; ++s) {
    const int64_t end = s + 1 == segments ? n : start + per_segment;
    std::vector<nn::AnyModule> run(modules->begin() + start, modules->begin() + end);
    auto forward = [run](const Tensor& in) mutable {
      Tensor y = in;
      for (auto& m : run) y = m.forward<Tensor>(y);
      return y;
    };
    x = s + 1 == segments ? forward(x) : checkpoint(forward, x, options);
    start = end;
  }
  return x;
}

Tensor CheckpointWrapperImpl::forward(const Tensor& input) {
  nn::AnyModule m = module_;
  return checkpoint([m](const Tensor& x) mutable { return m.forward<Tensor>(x); }, input, options_);
}

}  // namespace brasa::utils
