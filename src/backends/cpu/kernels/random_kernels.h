#pragma once
// The random family's kernel interface: fills of contiguous buffers drawn from a Philox stream
// (generators of GeneratorKind::Philox; the default MT19937 generators sample as libtorch does, in
// backends/cpu/mt_sampling.h).
//
// Note [Random reproducibility]
// A Philox fill first reserves a range of Philox blocks from its generator (under the generator's
// mutex), then element i is computed from block (offset + i / per_block) only, so the numbers
// depend on the seed and the generator's offset, never on how the range is split across threads.
// Per block (4 x 32 bits):
//  - uniform_: 4 elements (24 random bits for Float, 11 for Half, 8 for BFloat16); Double: 2 (53
//  bits);
//  - normal_: Box-Muller on pairs of uniforms in (0, 1] x [0, 1): 4 elements, Double: 2;
//  - bernoulli_: 4 elements (u = word / 2^32, element = u < p);
//  - random_ and randperm: 2 elements from 64-bit draws reduced modulo the range.
// Non-contiguous tensors are filled through a contiguous temporary in row-major order.

#include "backends/cpu/stub.h"
#include "brasa/core/generator.h"
#include "brasa/core/tensor.h"

namespace brasa::ops {

/// Block b of a fill is Philox4x32(seed, offset + b).
struct PhiloxRange {
  uint64_t seed;
  uint64_t offset;
};

/// Reserves `blocks` Philox blocks from `gen` (the default generator when absent).
BRASA_API PhiloxRange reserve_philox(const std::optional<Generator>& gen, uint64_t blocks);

/// Elements filled per Philox block by each kind of draw (see the Note above).
inline int64_t uniform_per_block(ScalarType dt) { return dt == kDouble ? 2 : 4; }
inline int64_t normal_per_block(ScalarType dt) { return dt == kDouble ? 2 : 4; }
constexpr int64_t kBernoulliPerBlock = 4;
constexpr int64_t kRandom64PerBlock = 2;

// Each kernel fills `n` contiguous elements of dtype `dt` at `data`.
using UniformKernel = void (*)(void* data, ScalarType dt, int64_t n, PhiloxRange r, double from,
                               double to);
using NormalKernel = void (*)(void* data, ScalarType dt, int64_t n, PhiloxRange r, double mean,
                              double std);
using BernoulliKernel = void (*)(void* data, ScalarType dt, int64_t n, PhiloxRange r, double p);
/// Elements from + (draw mod range), range >= 1.
using RandomKernel = void (*)(void* data, ScalarType dt, int64_t n, PhiloxRange r, int64_t from,
                              uint64_t range);
/// A random permutation of 0..n-1 (Fisher-Yates, serial).
using RandpermKernel = void (*)(void* data, ScalarType dt, int64_t n, PhiloxRange r);

BRASA_DECLARE_STUB(uniform_stub, UniformKernel);
BRASA_DECLARE_STUB(normal_stub, NormalKernel);
BRASA_DECLARE_STUB(bernoulli_stub, BernoulliKernel);
BRASA_DECLARE_STUB(random_from_to_stub, RandomKernel);
BRASA_DECLARE_STUB(randperm_stub, RandpermKernel);

}  // namespace brasa::ops
