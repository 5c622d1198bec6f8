#pragma once
// The fft family's dispatched ops (Note [Op declarations]): three unnormalized-or-scaled transform
// primitives with aten's names and schemas (fft_ops.cpp: meta functions and CPU kernels;
// fft_grad.cpp: derivatives). torch.fft's functions (fft, rfftn, ...) are composites of these
// (fft.cpp). `normalization`: 0 none, 1 divide by sqrt(n), 2 divide by n, n being the product of
// the signal sizes over `dim`.

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

BRASA_DECLARE_OP(fft_c2c_op, "_fft_c2c",
                 "_fft_c2c(Tensor self, int[] dim, int normalization, bool forward) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, int64_t, bool));
BRASA_DECLARE_OP(fft_r2c_op, "_fft_r2c",
                 "_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, int64_t, bool));
BRASA_DECLARE_OP(fft_c2r_op, "_fft_c2r",
                 "_fft_c2r(Tensor self, int[] dim, int normalization, int last_dim_size) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, int64_t, int64_t));

/// The factor `normalization` (0, 1, 2) applies for a signal of `sizes` over `dims`.
double fft_scale(int64_t normalization, IntArrayRef sizes, IntArrayRef dims);

}  // namespace brasa::ops
