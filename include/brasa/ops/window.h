#pragma once
// Window functions for signal processing (libtorch 1.13's `torch::hann_window(400)`,
// `torch::kaiser_window(64, true, 8.0, torch::kDouble)`). window_length values in the options'
// floating dtype (the default dtype when none); periodic (the default) computes window_length + 1
// points and drops the last, as for an FFT. Length 0 gives an empty tensor, length 1 [1].
// ValueError for a negative length, TypeError for a non-floating dtype.

#include <cstdint>

#include "brasa/core/tensor.h"
#include "brasa/core/tensor_options.h"

namespace brasa {

/// 0.5 - 0.5 cos(2 pi n / (N - 1)).
BRASA_API Tensor hann_window(int64_t window_length, const TensorOptions& options = {});
BRASA_API Tensor hann_window(int64_t window_length, bool periodic,
                             const TensorOptions& options = {});
/// alpha - beta cos(2 pi n / (N - 1)); alpha 0.54 and beta 0.46 by default.
BRASA_API Tensor hamming_window(int64_t window_length, const TensorOptions& options = {});
BRASA_API Tensor hamming_window(int64_t window_length, bool periodic,
                                const TensorOptions& options = {});
BRASA_API Tensor hamming_window(int64_t window_length, bool periodic, double alpha,
                                const TensorOptions& options = {});
BRASA_API Tensor hamming_window(int64_t window_length, bool periodic, double alpha, double beta,
                                const TensorOptions& options = {});
/// 0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1)).
BRASA_API Tensor blackman_window(int64_t window_length, const TensorOptions& options = {});
BRASA_API Tensor blackman_window(int64_t window_length, bool periodic,
                                 const TensorOptions& options = {});
/// 1 - |2 n / (N - 1) - 1|.
BRASA_API Tensor bartlett_window(int64_t window_length, const TensorOptions& options = {});
BRASA_API Tensor bartlett_window(int64_t window_length, bool periodic,
                                 const TensorOptions& options = {});
/// I0(beta sqrt(1 - (2 n / (N - 1) - 1)^2)) / I0(beta); beta 12 by default.
BRASA_API Tensor kaiser_window(int64_t window_length, const TensorOptions& options = {});
BRASA_API Tensor kaiser_window(int64_t window_length, bool periodic,
                               const TensorOptions& options = {});
BRASA_API Tensor kaiser_window(int64_t window_length, bool periodic, double beta,
                               const TensorOptions& options = {});

}  // namespace brasa
