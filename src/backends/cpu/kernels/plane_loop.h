#pragma once
// The parallel loop of the pooling, resampling and folding kernels: one task per plane ([N * C]
// images of [D, H, W]), chunked so that each chunk has about 16k elements of work.

#include <algorithm>
#include <cstdint>

#include "brasa/core/parallel.h"

namespace brasa::cpu {

template <typename F>
void for_planes(int64_t planes, int64_t work_per_plane, const F& f) {
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, work_per_plane));
  parallel_for(0, planes, grain, [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) f(p);
  });
}
}  // namespace brasa::cpu
