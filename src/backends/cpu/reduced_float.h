#pragma once
// Half data computed as float, for kernel files only (compiled once per CPU
// capability, hence the anonymous namespace).
//
// Note [Reduced floats as float]
// Half arithmetic happens in float anyway (half.h), and converting a Half is costly without F16C.
// A kernel file that defines BRASA_KERNEL_REDUCED_AS_FLOAT before its first include runs Half
// through its float code: the BRASA_DISPATCH_* macros bind scalar_t = float for it, and
// run_unary/run_binary/map_unary see from the iterator's dtype that the data is 16-bit and convert
// it block by block through L1 buffers (load_half/store_results below, F16C instructions where
// the build has them). The loop of each op is then compiled once for float instead of twice, and
// the conversion is vectorised once instead of inside every op's loop: Half add is 20x faster.
// BFloat16 keeps its own loops: its conversion is a shift that vectorises inline, and the blocks
// measured 1.2x slower for it. Every loop of such a file must go through run_unary/run_binary/
// map_unary (a raw scalar_t* would read Half data as float).

#include <cstdint>
#include <cstring>

#include "brasa/core/half.h"
#include "brasa/core/macros.h"

namespace brasa::cpu {
// load_half and store_results are defined once per capability build in kernels/reduced_float.cpp
// (Note [One home per capability]): kept here as inline copies they were compiled into every
// kernel file that includes this header, 21 and 16 times per capability.
#define BRASA_CAP_NAMESPACE_(cap) cap_##cap
#define BRASA_CAP_NAMESPACE(cap) BRASA_CAP_NAMESPACE_(cap)
#define BRASA_CAP_NS BRASA_CAP_NAMESPACE(BRASA_CPU_CAPABILITY)
namespace BRASA_CAP_NS {
/// dst[i] = float(src[i * stride]) for n Half elements; stride in bytes.
void load_half(const char* src, int64_t stride, float* dst, int64_t n);
/// Writes n results from an L1 buffer to dst (stride in bytes): float results rounded to Half
/// (`to_half`), others copied as they are (`itemsize` bytes each: Bool for comparisons).
void store_results(bool to_half, const void* src, int64_t itemsize, char* dst, int64_t stride,
                   int64_t n);
}  // namespace BRASA_CAP_NS
using BRASA_CAP_NS::load_half;
using BRASA_CAP_NS::store_results;

namespace {

/// Elements per block of the converting loops: three float buffers stay well inside L1.
constexpr int64_t kReducedBlock = 512;

/// dst[i] = float(src[i]) for n contiguous BFloat16 elements, and its inverse (round to nearest
/// even, NaN to 0x7fc0 as BFloat16(float) does). Plain loops over the bits, which the AVX2 and
/// AVX-512 builds vectorise: one conversion per vector instead of one per element through the
/// BFloat16 type (Note [BFloat16 blocks] in vec_math.h).
[[maybe_unused]] inline void load_bf16_contiguous(const uint16_t* src, float* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = ::brasa::detail::bits_to_float(uint32_t(src[i]) << 16);
}
[[maybe_unused]] inline void store_bf16_contiguous(const float* src, uint16_t* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t b = ::brasa::detail::float_to_bits(src[i]);
    const uint32_t rounded = (b + 0x7fffu + ((b >> 16) & 1)) >> 16;
    dst[i] = (b & 0x7fffffffu) > 0x7f800000u ? uint16_t(0x7fc0) : uint16_t(rounded);
  }
}

}  // namespace
}  // namespace brasa::cpu
