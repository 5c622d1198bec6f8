#pragma once
// Batched matrix multiply on CPU: out[b] = beta * out[b] + alpha * (a[b] @ w[b]).
// Float and BFloat16 go to oneDNN's matmul primitive (cached by geometry); Half is computed in
// float; Double and the integral dtypes use a cache-blocked loop.

#include "brasa/core/scalar.h"
#include "brasa/core/tensor.h"

namespace brasa::cpu {

/// a: [B, M, K], w: [B, K, N] (any strides; batch stride 0 allowed), out: contiguous [B, M, N] of
/// the same dtype. With beta == 0, out's contents are ignored (NaNs included). M, N, K > 0.
void gemm_batched(const Tensor& out, const Tensor& a, const Tensor& w, const Scalar& beta,
                  const Scalar& alpha);

}  // namespace brasa::cpu
