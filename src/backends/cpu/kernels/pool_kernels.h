#pragma once
// The kernel interface of pooling (src/ops/pool): max, average and adaptive pooling over inputs
// viewed as contiguous planes [P, D, H, W] (1-D and 2-D ops use D = 1 and H = 1), in the compute
// dtype (Float for Half, BFloat16 and Float; Double), and the scatter of a max pooling's gradient
// to its indices. The ops check shapes and convert to and from the compute dtype.

#include <cstdint>

#include "backends/cpu/stub.h"
#include "brasa/core/dtype.h"

namespace brasa::ops {

/// Spatial geometry padded to 3 dims (front-filled with 1 / 0).
struct PoolGeometry {
  int64_t in[3] = {1, 1, 1};
  int64_t out[3] = {1, 1, 1};
  int64_t kernel[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t pad[3] = {0, 0, 0};
  int64_t dilation[3] = {1, 1, 1};
  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
};

/// One pooling loop: `planes` planes of `src` (g.in, or g.out for a backward) into `dst` (g.out,
/// or g.in, zeroed by the caller, for a backward), both contiguous of dtype `dtype` (Float or
/// Double). Max pooling writes flat in-plane offsets (d * H * W + h * W + w) to `indices`.
struct PoolArgs {
  ScalarType dtype;
  const void* src;
  void* dst;
  int64_t* indices;  // max pooling forward
  int64_t planes;
  PoolGeometry g;
  bool count_include_pad;  // avg pooling: padding counted in the divisor
  int64_t divisor;         // avg pooling: divisor_override, 0 when none
};
using PoolKernel = void (*)(const PoolArgs& a);

/// The backward of max pooling: zeroes `dst` and adds dst[p * in_plane + indices[p * out_plane +
/// o]] += src[p * out_plane + o] over `planes` planes (indices outside [0, in_plane) are skipped).
/// With `gate` (of dst's shape and dtype, contiguous), dst is then zeroed where gate <= 0: relu's
/// gradient folded in (Note [Relu gradient in the max-pool backward] in max_pool.cpp).
struct IndexScatterArgs {
  ScalarType dtype;
  const void* src;
  const int64_t* indices;
  void* dst;
  int64_t planes, in_plane, out_plane;
  const void* gate = nullptr;
};
using IndexScatterKernel = void (*)(const IndexScatterArgs& a);

// Windows o * stride - pad + k * dilation; NaN wins over any number, as in PyTorch.
BRASA_DECLARE_STUB(max_pool_stub, PoolKernel);
// Window sums over the unpadded part divided by the window size (count_include_pad: padding
// counted, clipped to input + padding), or by the divisor; the backward spreads the same way.
BRASA_DECLARE_STUB(avg_pool_stub, PoolKernel);
BRASA_DECLARE_STUB(avg_pool_backward_stub, PoolKernel);
// Output cell o of an input dim of size n spans [floor(o * n / out), ceil((o + 1) * n / out)).
BRASA_DECLARE_STUB(adaptive_avg_pool_stub, PoolKernel);
BRASA_DECLARE_STUB(adaptive_avg_pool_backward_stub, PoolKernel);
BRASA_DECLARE_STUB(adaptive_max_pool_stub, PoolKernel);
BRASA_DECLARE_STUB(max_pool_backward_stub, IndexScatterKernel);

}  // namespace brasa::ops
