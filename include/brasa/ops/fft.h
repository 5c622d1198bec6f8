#pragma once
// torch.fft: discrete Fourier transforms (src/ops/fft/, on FFTW: Note [FFT library]). Functions
// take libtorch 1.13's arguments: `n` / `s` (signal sizes; the input is zero-padded or trimmed to
// them, -1 keeps a dim's size), `dim`, and `norm` ("backward", the default: the inverse divides
// by n; "forward": the forward divides; "ortho": both divide by sqrt(n)). Integral inputs promote
// to the default float dtype; Half and BFloat16 raise TypeError; bad dims or sizes ValueError /
// IndexError. brasa::fft::fft is also spelled brasa::fft_fft (aten's name), and so on.

#include <optional>
#include <string_view>

#include "brasa/core/tensor.h"

namespace brasa {

using FftNorm = std::optional<std::string_view>;
using OptionalDims = OptionalIntArrayRef;

/// 1-D transforms over `dim`: complex result (fft, ifft, rfft: n / 2 + 1 bins), real result
/// (irfft: n points, n = 2 * (bins - 1) by default).
BRASA_API Tensor fft_fft(const Tensor& self, std::optional<int64_t> n = std::nullopt,
                         int64_t dim = -1, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_ifft(const Tensor& self, std::optional<int64_t> n = std::nullopt,
                          int64_t dim = -1, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_rfft(const Tensor& self, std::optional<int64_t> n = std::nullopt,
                          int64_t dim = -1, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_irfft(const Tensor& self, std::optional<int64_t> n = std::nullopt,
                           int64_t dim = -1, FftNorm norm = std::nullopt);
/// N-D transforms over `dim` (default: the last len(s) dims, or all dims).
BRASA_API Tensor fft_fftn(const Tensor& self, OptionalDims s = std::nullopt,
                          OptionalDims dim = std::nullopt, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_ifftn(const Tensor& self, OptionalDims s = std::nullopt,
                           OptionalDims dim = std::nullopt, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_rfftn(const Tensor& self, OptionalDims s = std::nullopt,
                           OptionalDims dim = std::nullopt, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_irfftn(const Tensor& self, OptionalDims s = std::nullopt,
                            OptionalDims dim = std::nullopt, FftNorm norm = std::nullopt);
/// 2-D transforms (dims {-2, -1} by default).
BRASA_API Tensor fft_fft2(const Tensor& self, OptionalDims s = std::nullopt,
                          IntArrayRef dim = {-2, -1}, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_ifft2(const Tensor& self, OptionalDims s = std::nullopt,
                           IntArrayRef dim = {-2, -1}, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_rfft2(const Tensor& self, OptionalDims s = std::nullopt,
                           IntArrayRef dim = {-2, -1}, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_irfft2(const Tensor& self, OptionalDims s = std::nullopt,
                            IntArrayRef dim = {-2, -1}, FftNorm norm = std::nullopt);
/// Transforms of Hermitian-symmetric signals (src/ops/fft/fft_hermitian.cpp): hfft* take the
/// one-sided half of a Hermitian signal and give its real spectrum (irfft* of the conjugate with
/// the normalisation's direction swapped); ihfft* the inverse (conjugate of rfft*).
BRASA_API Tensor fft_hfft(const Tensor& self, std::optional<int64_t> n = std::nullopt,
                          int64_t dim = -1, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_ihfft(const Tensor& self, std::optional<int64_t> n = std::nullopt,
                           int64_t dim = -1, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_hfftn(const Tensor& self, OptionalDims s = std::nullopt,
                           OptionalDims dim = std::nullopt, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_ihfftn(const Tensor& self, OptionalDims s = std::nullopt,
                            OptionalDims dim = std::nullopt, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_hfft2(const Tensor& self, OptionalDims s = std::nullopt,
                           IntArrayRef dim = {-2, -1}, FftNorm norm = std::nullopt);
BRASA_API Tensor fft_ihfft2(const Tensor& self, OptionalDims s = std::nullopt,
                            IntArrayRef dim = {-2, -1}, FftNorm norm = std::nullopt);
/// Sample frequencies of an n-point transform with sample spacing d (default dtype float).
BRASA_API Tensor fft_fftfreq(int64_t n, double d = 1.0, const TensorOptions& options = {});
BRASA_API Tensor fft_rfftfreq(int64_t n, double d = 1.0, const TensorOptions& options = {});
/// Rolls the zero frequency to the centre of `dim` (default: all dims), and back.
BRASA_API Tensor fft_fftshift(const Tensor& self, OptionalDims dim = std::nullopt);
BRASA_API Tensor fft_ifftshift(const Tensor& self, OptionalDims dim = std::nullopt);

namespace fft {
inline Tensor fft(const Tensor& self, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
                  FftNorm norm = std::nullopt) {
  return fft_fft(self, n, dim, norm);
}
inline Tensor ifft(const Tensor& self, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
                   FftNorm norm = std::nullopt) {
  return fft_ifft(self, n, dim, norm);
}
inline Tensor rfft(const Tensor& self, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
                   FftNorm norm = std::nullopt) {
  return fft_rfft(self, n, dim, norm);
}
inline Tensor irfft(const Tensor& self, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
                    FftNorm norm = std::nullopt) {
  return fft_irfft(self, n, dim, norm);
}
inline Tensor fftn(const Tensor& self, OptionalDims s = std::nullopt,
                   OptionalDims dim = std::nullopt, FftNorm norm = std::nullopt) {
  return fft_fftn(self, s, dim, norm);
}
inline Tensor ifftn(const Tensor& self, OptionalDims s = std::nullopt,
                    OptionalDims dim = std::nullopt, FftNorm norm = std::nullopt) {
  return fft_ifftn(self, s, dim, norm);
}
inline Tensor rfftn(const Tensor& self, OptionalDims s = std::nullopt,
                    OptionalDims dim = std::nullopt, FftNorm norm = std::nullopt) {
  return fft_rfftn(self, s, dim, norm);
}
inline Tensor irfftn(const Tensor& self, OptionalDims s = std::nullopt,
                     OptionalDims dim = std::nullopt, FftNorm norm = std::nullopt) {
  return fft_irfftn(self, s, dim, norm);
}
inline Tensor fft2(const Tensor& self, OptionalDims s = std::nullopt, IntArrayRef dim = {-2, -1},
                   FftNorm norm = std::nullopt) {
  return fft_fft2(self, s, dim, norm);
}
inline Tensor ifft2(const Tensor& self, OptionalDims s = std::nullopt, IntArrayRef dim = {-2, -1},
                    FftNorm norm = std::nullopt) {
  return fft_ifft2(self, s, dim, norm);
}
inline Tensor rfft2(const Tensor& self, OptionalDims s = std::nullopt, IntArrayRef dim = {-2, -1},
                    FftNorm norm = std::nullopt) {
  return fft_rfft2(self, s, dim, norm);
}
inline Tensor irfft2(const Tensor& self, OptionalDims s = std::nullopt, IntArrayRef dim = {-2, -1},
                     FftNorm norm = std::nullopt) {
  return fft_irfft2(self, s, dim, norm);
}
inline Tensor hfft(const Tensor& self, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
                   FftNorm norm = std::nullopt) {
  return fft_hfft(self, n, dim, norm);
}
inline Tensor ihfft(const Tensor& self, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
                    FftNorm norm = std::nullopt) {
  return fft_ihfft(self, n, dim, norm);
}
inline Tensor hfftn(const Tensor& self, OptionalDims s = std::nullopt,
                    OptionalDims dim = std::nullopt, FftNorm norm = std::nullopt) {
  return fft_hfftn(self, s, dim, norm);
}
inline Tensor ihfftn(const Tensor& self, OptionalDims s = std::nullopt,
                     OptionalDims dim = std::nullopt, FftNorm norm = std::nullopt) {
  return fft_ihfftn(self, s, dim, norm);
}
inline Tensor hfft2(const Tensor& self, OptionalDims s = std::nullopt, IntArrayRef dim = {-2, -1},
                    FftNorm norm = std::nullopt) {
  return fft_hfft2(self, s, dim, norm);
}
inline Tensor ihfft2(const Tensor& self, OptionalDims s = std::nullopt, IntArrayRef dim = {-2, -1},
                     FftNorm norm = std::nullopt) {
  return fft_ihfft2(self, s, dim, norm);
}
inline Tensor fftfreq(int64_t n, double d, const TensorOptions& options = {}) {
  return fft_fftfreq(n, d, options);
}
inline Tensor fftfreq(int64_t n, const TensorOptions& options = {}) {
  return fft_fftfreq(n, 1.0, options);
}
inline Tensor rfftfreq(int64_t n, double d, const TensorOptions& options = {}) {
  return fft_rfftfreq(n, d, options);
}
inline Tensor rfftfreq(int64_t n, const TensorOptions& options = {}) {
  return fft_rfftfreq(n, 1.0, options);
}
inline Tensor fftshift(const Tensor& self, OptionalDims dim = std::nullopt) {
  return fft_fftshift(self, dim);
}
inline Tensor ifftshift(const Tensor& self, OptionalDims dim = std::nullopt) {
  return fft_ifftshift(self, dim);
}
}  // namespace fft

}  // namespace brasa
