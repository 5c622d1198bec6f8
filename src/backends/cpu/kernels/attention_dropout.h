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

/// The words of Philox blocks first .. first + blocks - 1 of `seed`, block b's four at
/// out[4 (b - first)]. Eight blocks at a time in 64-bit lanes on AVX-512 (the arithmetic of
/// Philox4x32: 32 x 32 -> 64-bit products of words kept below 2^32, keys bumped per round).
inline void philox_words(uint32_t* out, uint64_t seed, uint64_t first, int64_t blocks) {
  int64_t b = 0;
#if defined(__AVX512F__)
  // GCC vector types (GCC 12 warns about the undefined lanes inside the AVX-512 intrinsics).
  typedef uint64_t U64x8 __attribute__((vector_size(64)));
  const U64x8 lanes = {0, 1, 2, 3, 4, 5, 6, 7};
  for (; b + 8 <= blocks; b += 8) {
    const U64x8 ctr = first + uint64_t(b) + lanes;
    U64x8 c0 = ctr & 0xffffffffu, c1 = ctr >> 32, c2 = ctr * 0, c3 = ctr * 0;
    uint64_t k0 = uint32_t(seed), k1 = uint32_t(seed >> 32);
    for (int r = 0; r < 10; ++r) {
      const U64x8 p0 = c0 * 0xD2511F53u, p1 = c2 * 0xCD9E8D57u;
      c0 = (p1 >> 32) ^ c1 ^ k0;
      c1 = p1 & 0xffffffffu;
      c2 = (p0 >> 32) ^ c3 ^ k1;
      c3 = p0 & 0xffffffffu;
      k0 = uint32_t(k0 + 0x9E3779B9u);
      k1 = uint32_t(k1 + 0xBB67AE85u);
    }
    for (int l = 0; l < 8; ++l) {
      uint32_t* o = out + 4 * (b + l);
      o[0] = uint32_t(c0[l]), o[1] = uint32_t(c1[l]), o[2] = uint32_t(c2[l]),
      o[3] = uint32_t(c3[l]);
    }
  }
#endif
  for (; b < blocks; ++b) {
    const Philox4x32 block(seed, first + uint64_t(b));
    for (int x = 0; x < 4; ++x) out[4 * b + x] = block.out[x];
  }
}

/// Multiplies p[r][j] by keep / (1 - p) for the dropout draws of element (n, i0 + r, j0 + j),
/// jk <= kKeyTile. The draw u = word / 2^32 keeps when u < keep, i.e. word < keep * 2^32 (both
/// sides scaled by a power of two, so exactly the same test).
template <typename T>
void apply_dropout(T* p, int64_t ld, const ops::AttentionGeometry& g, int64_t n, int64_t i0,
                   int64_t iq, int64_t j0, int64_t jk) {
  const double keep = 1.0 - g.dropout_p, threshold = keep * 4294967296.0;
  const T inv = keep > 0 ? T(1.0 / keep) : T(0);
  uint32_t words[4 * (ops::kKeyTile / 4 + 2)];
  for (int64_t r = 0; r < iq; ++r) {
    const uint64_t base = uint64_t(((n * g.L + i0 + r) * g.S) + j0);
    const uint64_t first = base / 4, last = (base + uint64_t(jk) - 1) / 4;
    philox_words(words, g.rng.seed, g.rng.offset + first, int64_t(last - first + 1));
    const uint32_t* w = words + base % 4;
    T* pr = p + r * ld;
    for (int64_t j = 0; j < jk; ++j) pr[j] = double(w[j]) < threshold ? pr[j] * inv : T(0);
  }
}

}  // namespace
}  // namespace brasa::cpu
