#pragma once
// The window functions' forms with libtorch's unpacked options (`torch::hann_window(n, dtype,
// layout, device, pin_memory)`), beside the TensorOptions forms of brasa/ops/window.h. Not in
// brasa/brasa.h: compat's <ATen/Functions.h> includes it.

#include <cstdint>
#include <optional>

#include "brasa/core/device.h"
#include "brasa/core/dtype.h"
#include "brasa/core/tensor.h"
#include "brasa/core/tensor_options.h"
#include "brasa/ops/window.h"

namespace brasa {
namespace detail {
/// TensorOptions from libtorch's unpacked factory arguments (dtype, layout, device, pin_memory);
/// ValueError naming `op` for pin_memory=true (brasa has no pinned memory).
BRASA_API TensorOptions unpacked_options(const char* op, std::optional<ScalarType> dtype,
                                         std::optional<Layout> layout, std::optional<Device> device,
                                         std::optional<bool> pin_memory);
}  // namespace detail

// libtorch's forms with the options unpacked: `hann_window(n, dtype, layout, device, pin_memory)`.
#define BRASA_UNPACKED                                                                         \
  std::optional<ScalarType> dtype, std::optional<Layout> layout, std::optional<Device> device, \
      std::optional<bool> pin_memory
#define BRASA_OPTIONS(op) detail::unpacked_options(op, dtype, layout, device, pin_memory)
inline Tensor hann_window(int64_t window_length, BRASA_UNPACKED) {
  return hann_window(window_length, BRASA_OPTIONS("hann_window"));
}
inline Tensor hann_window(int64_t window_length, bool periodic, BRASA_UNPACKED) {
  return hann_window(window_length, periodic, BRASA_OPTIONS("hann_window"));
}
inline Tensor hamming_window(int64_t window_length, BRASA_UNPACKED) {
  return hamming_window(window_length, BRASA_OPTIONS("hamming_window"));
}
inline Tensor hamming_window(int64_t window_length, bool periodic, BRASA_UNPACKED) {
  return hamming_window(window_length, periodic, BRASA_OPTIONS("hamming_window"));
}
inline Tensor hamming_window(int64_t window_length, bool periodic, double alpha, BRASA_UNPACKED) {
  return hamming_window(window_length, periodic, alpha, BRASA_OPTIONS("hamming_window"));
}
inline Tensor hamming_window(int64_t window_length, bool periodic, double alpha, double beta,
                             BRASA_UNPACKED) {
  return hamming_window(window_length, periodic, alpha, beta, BRASA_OPTIONS("hamming_window"));
}
inline Tensor blackman_window(int64_t window_length, BRASA_UNPACKED) {
  return blackman_window(window_length, BRASA_OPTIONS("blackman_window"));
}
inline Tensor blackman_window(int64_t window_length, bool periodic, BRASA_UNPACKED) {
  return blackman_window(window_length, periodic, BRASA_OPTIONS("blackman_window"));
}
inline Tensor bartlett_window(int64_t window_length, BRASA_UNPACKED) {
  return bartlett_window(window_length, BRASA_OPTIONS("bartlett_window"));
}
inline Tensor bartlett_window(int64_t window_length, bool periodic, BRASA_UNPACKED) {
  return bartlett_window(window_length, periodic, BRASA_OPTIONS("bartlett_window"));
}
inline Tensor kaiser_window(int64_t window_length, BRASA_UNPACKED) {
  return kaiser_window(window_length, BRASA_OPTIONS("kaiser_window"));
}
inline Tensor kaiser_window(int64_t window_length, bool periodic, BRASA_UNPACKED) {
  return kaiser_window(window_length, periodic, BRASA_OPTIONS("kaiser_window"));
}
inline Tensor kaiser_window(int64_t window_length, bool periodic, double beta, BRASA_UNPACKED) {
  return kaiser_window(window_length, periodic, beta, BRASA_OPTIONS("kaiser_window"));
}
#undef BRASA_OPTIONS
#undef BRASA_UNPACKED

}  // namespace brasa
