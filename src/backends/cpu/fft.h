#pragma once
// Unnormalized discrete Fourier transforms of CPU tensors through FFTW (Note [FFT library]).

#include "brasa/core/tensor.h"

namespace brasa::cpu {

enum class FftKind : uint8_t {
  C2C,  // complex -> complex, same sizes
  R2C,  // real -> complex; the last of `dims` keeps n / 2 + 1 bins
  C2R,  // complex (n / 2 + 1 bins on the last of `dims`) -> real (n = out's size there)
};

/// Writes the unnormalized DFT of `in` over `dims` into `out` (sign -1 when forward, +1 otherwise;
/// R2C is always forward, C2R always backward). in and out are CPU tensors of matching float
/// precision and any strides, with equal sizes outside `dims`; they must not overlap, except that
/// C2C may run in place (in and out the same tensor). C2R
/// overwrites `in`. Float runs FFTW's single precision, Double its double precision.
void fft_execute(FftKind kind, const Tensor& in, const Tensor& out, IntArrayRef dims, bool forward);

}  // namespace brasa::cpu
