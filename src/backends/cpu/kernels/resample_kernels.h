#pragma once
// The kernel interface of resampling (src/ops/resample): pads and nearest upsampling as gathers
// through per-dim index maps, bilinear upsampling through per-dim taps, and im2col / col2im.
// Inputs are contiguous planes [P, D, H, W] of the compute dtype (Float or Double); the ops
// check shapes, build the maps and convert to and from the compute dtype.

#include <cstdint>

#include "backends/cpu/stub.h"
#include "brasa/core/dtype.h"

namespace brasa::ops {

/// Output element (d, h, w) of each plane reads input element (map[0][d], map[1][h], map[2][w]).
/// The gather writes every element of dst (planes of `out`); the scatter adds every element of
/// src (planes of `out`) into dst (planes of `in`, zeroed by the caller).
struct IndexMapArgs {
  ScalarType dtype;
  const void* src;
  void* dst;
  int64_t planes;
  int64_t in[3], out[3];
  const int64_t* map[3];
};
using IndexMapKernel = void (*)(const IndexMapArgs& a);

/// Bilinear taps of a 2-D resampling: output row h reads rows h0[h], h1[h] with weights hw0[h],
/// hw1[h], output column w reads columns w0[w], w1[w] with weights ww0[w], ww1[w]. The forward
/// writes dst [planes, out_h, out_w] from src [planes, in_h, in_w]; the backward adds src (the
/// output gradient) into dst (the input gradient, zeroed by the caller).
struct BilinearArgs {
  ScalarType dtype;
  const void* src;
  void* dst;
  int64_t planes, in_h, in_w, out_h, out_w;
  const int64_t *h0, *h1, *w0, *w1;
  const double *hw0, *hw1, *ww0, *ww1;
};
using BilinearKernel = void (*)(const BilinearArgs& a);

/// Sliding 2-D blocks: kernel k, dilation d, padding p, stride s over an image of size `in`,
/// giving out[0] x out[1] block positions.
struct FoldBlocks {
  int64_t k[2], d[2], p[2], s[2], in[2], out[2];
  int64_t kernel_numel() const { return k[0] * k[1]; }
  int64_t count() const { return out[0] * out[1]; }
};
/// im2col: planes [in[0], in[1]] of src into columns [k[0] * k[1], count()] of dst (zeroed by
/// the caller: taps in the padding stay 0); col2im: the columns of src summed into the planes of
/// dst (zeroed by the caller).
struct FoldArgs {
  ScalarType dtype;
  const void* src;
  void* dst;
  int64_t planes;
  FoldBlocks b;
};
using FoldKernel = void (*)(const FoldArgs& a);

BRASA_DECLARE_STUB(index_map_gather_stub, IndexMapKernel);
BRASA_DECLARE_STUB(index_map_scatter_add_stub, IndexMapKernel);
BRASA_DECLARE_STUB(bilinear_stub, BilinearKernel);
BRASA_DECLARE_STUB(bilinear_backward_stub, BilinearKernel);
BRASA_DECLARE_STUB(im2col_stub, FoldKernel);
BRASA_DECLARE_STUB(col2im_stub, FoldKernel);

}  // namespace brasa::ops
