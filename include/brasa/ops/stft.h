#pragma once
// Short-time Fourier transforms (libtorch's at::stft / at::istft), written with pad, index_select,
// rfft / fft and index_add on FFTW (brasa/ops/fft.h), so autograd differentiates them. Input is
// [L] or [B, L] (stft) / [freq, frames] or [B, freq, frames] complex (istft).

#include <optional>
#include <string_view>

#include "brasa/core/tensor.h"

namespace brasa {

/// Frames of n_fft samples every hop_length (default n_fft / 4) samples, times window (win_length
/// long, default n_fft, centred in n_fft; ones when absent), transformed: [B?, n_fft / 2 + 1 (or
/// n_fft unless onesided), frames], complex (return_complex; the default for complex input) or
/// with a last dim of 2 (real, imaginary; the default, with a warning, for real input). center
/// pads n_fft / 2 on both sides with pad_mode ("reflect", "constant", "replicate", "circular");
/// normalized divides by sqrt(n_fft).
BRASA_API Tensor stft(const Tensor& self, int64_t n_fft, std::optional<int64_t> hop_length,
                      std::optional<int64_t> win_length, const std::optional<Tensor>& window,
                      bool normalized, std::optional<bool> onesided = std::nullopt,
                      std::optional<bool> return_complex = std::nullopt);
BRASA_API Tensor stft(const Tensor& self, int64_t n_fft,
                      std::optional<int64_t> hop_length = std::nullopt,
                      std::optional<int64_t> win_length = std::nullopt,
                      const std::optional<Tensor>& window = {}, bool center = true,
                      std::string_view pad_mode = "reflect", bool normalized = false,
                      std::optional<bool> onesided = std::nullopt,
                      std::optional<bool> return_complex = std::nullopt);
/// The inverse of stft: inverse transforms of the frames, windowed, overlap-added and divided by
/// the overlap-added squared window (which must not vanish: RuntimeError), trimmed by n_fft / 2
/// when center and to `length` when given.
BRASA_API Tensor istft(const Tensor& self, int64_t n_fft,
                       std::optional<int64_t> hop_length = std::nullopt,
                       std::optional<int64_t> win_length = std::nullopt,
                       const std::optional<Tensor>& window = {}, bool center = true,
                       bool normalized = false, std::optional<bool> onesided = std::nullopt,
                       std::optional<int64_t> length = std::nullopt, bool return_complex = false);

}  // namespace brasa
