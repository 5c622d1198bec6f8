#pragma once
// Sampling from an MT19937 generator exactly as libtorch 1.13 does on the CPU. Every function
// draws serially from the generator (the caller holds its mutex) and writes `n` values in the
// order given: the caller fills a tensor in libtorch's iteration order (Note [Random fill order]
// in src/ops/random/random_fill.h).
//
// Note [libtorch CPU sampling]
// Facts established by drawing from live PyTorch 1.13 (AVX2 build) and matching bits:
//  - Words: next32() is one Twister output; a 64-bit draw is two, the first one the high half.
//  - Uniform [from, to): x = (word & (2^d - 1)) * 2^-d with d the dtype's mantissa digits (Float
//    24 from a 32-bit draw, Double 53 from a 64-bit draw, Half 11 and BFloat16 8 from 32-bit
//    draws), then fma(x, to - from, from) in float (double for Double); from, to and to - from are
//    rounded to the dtype first. The fused multiply-add is what libtorch's compiled loop does;
//    as there, a result can round up to `to`.
//  - Normal, serial form (fewer than 16 elements, or a non-contiguous tensor; every dtype): the
//    double Box-Muller of two 53-bit uniforms u1, u2: r = sqrt(-2 log(1 - u2)), theta = 2 pi u1,
//    value r cos(theta), and r sin(theta) is kept in the generator for the next serial normal
//    draw (manual_seed forgets it); result fma(z, std, mean), then rounded to the dtype.
//  - Normal, block form (contiguous, at least 16 elements): all n uniforms of the dtype are drawn
//    first; each block of 16 pairs element j with j + 8 (u1 = 1 - data[j], u2 = data[j + 8]);
//    when 16 does not divide n, 16 fresh uniforms overwrite the last 16 elements and that block is
//    transformed again. Float uses libtorch's AVX2 polynomial log and sincos with its fused
//    multiply-adds (Note [libtorch's AVX2 normal] in kernels/normal_block_kernels.cpp), the same
//    bits from every brasa build; Double and Half/BFloat16 use libm in their own precision, each
//    Half/BFloat16 intermediate rounded as libtorch rounds it.
//  - Bernoulli(p) with a scalar p: a 53-bit uniform < p. With a tensor p: a Double p compares a
//    53-bit uniform, any other p dtype a 24-bit float uniform.
//  - random_(from, to): (word mod range) + from, the word 64 bits wide only for Long, Double,
//    Float and BFloat16 with range >= 2^32, else 32.
//  - randperm(n): for n < (2^32 - 1) / 20, i = 0..n-2 swaps i and i + next32() mod (n - i);
//    larger n run the inside-out shuffle with next64() mod (i + 1) (this branch follows
//    libtorch's source: such n need gigabytes, so the tests do not compare it live).
//  - exponential_(l): -1/l * log(1 - u); geometric_(p): ceil(log(u) / log1p(-p)); u 53-bit.

#include <cstdint>

#include "brasa/core/generator.h"
#include "brasa/core/half.h"

namespace brasa::cpu::mt {

/// Uniform [from, to) with `bits` random mantissa bits (24 for Float, 11 Half, 8 BFloat16), in
/// float; from and range are already rounded to the target dtype.
void uniform_float(MT19937& e, float* out, int64_t n, int bits, float from, float range);
void uniform_double(MT19937& e, double* out, int64_t n, double from, double to);

/// The serial normal (Box-Muller in double, the pair's second value cached in `g`).
void normal_serial(GeneratorImpl& g, double* out, int64_t n, double mean, double std);
/// The block forms; n >= 16, `data` contiguous.
void normal_fill_float(MT19937& e, float* data, int64_t n, float mean, float std);
void normal_fill_double(MT19937& e, double* data, int64_t n, double mean, double std);
void normal_fill_half(MT19937& e, Half* data, int64_t n, Half mean, Half std);
void normal_fill_bfloat16(MT19937& e, BFloat16* data, int64_t n, BFloat16 mean, BFloat16 std);

/// 1 with probability p (a 53-bit uniform < p).
void bernoulli_scalar(MT19937& e, uint8_t* out, int64_t n, double p);
/// Element i: 1 with probability p[i]; double p compares 53-bit uniforms, float p 24-bit ones.
void bernoulli_tensor(MT19937& e, uint8_t* out, int64_t n, const double* p);
void bernoulli_tensor(MT19937& e, uint8_t* out, int64_t n, const float* p);

/// from + (word mod range), with 64-bit words when `wide` (see the Note).
void random_from_to(MT19937& e, int64_t* out, int64_t n, uint64_t range, int64_t from, bool wide);
/// A permutation of 0..n-1.
void randperm(MT19937& e, int64_t* out, int64_t n);

/// 53-bit uniforms in [0, 1), and the exponential / geometric transforms of them.
void uniform53(MT19937& e, double* out, int64_t n);
void exponential(MT19937& e, double* out, int64_t n, double lambda);
void geometric(MT19937& e, double* out, int64_t n, double p);

}  // namespace brasa::cpu::mt
