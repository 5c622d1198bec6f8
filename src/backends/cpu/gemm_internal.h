#pragma once
// Raw arguments of one batched matmul, shared by gemm.cpp and the oneDNN wrapper.

#include <cstdint>

#include "brasa/core/dtype.h"

namespace brasa::cpu {

struct MatmulArgs {
  ScalarType dtype;
  int64_t batch, m, n, k;
  bool a_batch, w_batch;  // false: one matrix broadcast over the batch
  int64_t a_strides[3], w_strides[3];
  const void* a;
  const void* w;
  void* c;  // contiguous [batch, m, n]
  double alpha, beta;
};

/// Whether this CPU has AVX-512 BF16 and oneDNN's bf16 matmul (else BFloat16 products run in
/// Float, like Half).
bool onednn_has_bf16_matmul();
/// Runs a Float or BFloat16 matmul through oneDNN; a and w have stride 1 in one matrix dim.
bool onednn_matmul(const MatmulArgs& args);

}  // namespace brasa::cpu
