#pragma once
// Attention dropout shared by the Float/Double and the BFloat16 attention kernels (Note [Blockwise
// attention] in attention_kernels.h): element (n, i, j) keeps with probability 1 - p by Philox
// block offset + ((n * L + i) * S + j) / 4, lane ((n * L + i) * S + j) % 4. Kernel files only
// (compiled once per capability, hence the anonymous namespace).

#include <cstdint>

#include "backends/cpu/kernels/attention_kernels.h"
#include "backends/cpu/kernels/random_kernels.h"

namespace brasa::cpu {
namespace {  // NOLINT(google-build-namespaces): one copy per capability build

/// Multiplies p[r][j] by keep / (1 - p) for the dropout draws of element (n, i0 + r, j0 + j).
template <typename T>
void apply_dropout(T* p, int64_t ld, const ops::AttentionGeometry& g, int64_t n, int64_t i0,
                   int64_t iq, int64_t j0, int64_t jk) {
  const double keep = 1.0 - g.dropout_p;
  const T inv = keep > 0 ? T(1.0 / keep) : T(0);
  for (int64_t r = 0; r < iq; ++r) {
    const uint64_t base = uint64_t(((n * g.L + i0 + r) * g.S) + j0);
    for (int64_t j = 0; j < jk;) {
      const uint64_t e = base + uint64_t(j);
      Philox4x32 block(g.rng.seed, g.rng.offset + e / 4);
      for (uint64_t lane = e % 4; lane < 4 && j < jk; ++lane, ++j) {
        const double u = double(block.out[lane]) * (1.0 / 4294967296.0);
        p[r * ld + j] = u < keep ? p[r * ld + j] * inv : T(0);
      }
    }
  }
}

}  // namespace
}  // namespace brasa::cpu
