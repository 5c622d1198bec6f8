#pragma once
// The kernel interface of the direct convolution loops (src/ops/conv/conv_direct.cpp): the dtypes
// oneDNN is not used for (Double, BFloat16 without AVX-512 BF16, the integer dtypes) and the
// geometries it rejects. Every case is lowered to 3 spatial dims (missing dims have size 1), and
// each output element is gathered, so the parallel loops never write the same element twice.

#include <cstdint>

#include "backends/cpu/stub.h"
#include "brasa/core/dtype.h"

namespace brasa::ops {

/// A regular (non-transposed) convolution x [N, C, *in] * w [OC, C/g, *k] -> y [N, OC, *out].
struct ConvGeometry {
  int64_t n, c, oc, g, cg, ocg;  // cg/ocg: channels per group
  int64_t in[3], out[3], k[3], s[3], p[3], d[3];
  int64_t in_sp() const { return in[0] * in[1] * in[2]; }
  int64_t out_sp() const { return out[0] * out[1] * out[2]; }
  int64_t k_sp() const { return k[0] * k[1] * k[2]; }
};

/// Contiguous buffers of dtype `dtype`. Forward: dst = y, a = x, b = w, bias (null: none).
/// Backward data: dst = gx, a = gy, b = w. Backward weight: dst = gw, a = gy, b = x.
struct ConvDirectArgs {
  ScalarType dtype;
  void* dst;
  const void* a;
  const void* b;
  const void* bias;
  ConvGeometry g;
};
inline ScalarType kernel_dtype(const ConvDirectArgs& a) { return a.dtype; }
using ConvDirectKernel = void (*)(const ConvDirectArgs& a);

BRASA_DECLARE_STUB(conv_direct_forward_stub, ConvDirectKernel);
// gx[n, c, i] = sum over (oc in group, k, o with o*s - p + k*d == i) gy[n, oc, o] * w[oc, c, k].
BRASA_DECLARE_STUB(conv_direct_backward_data_stub, ConvDirectKernel);
// gw[oc, c, k] = sum over (n, o) gy[n, oc, o] * x[n, grp * cg + c, o*s - p + k*d].
BRASA_DECLARE_STUB(conv_direct_backward_weight_stub, ConvDirectKernel);

}  // namespace brasa::ops
