// Window functions: a few hundred values at most in practice, computed in double on the host and
// rounded once to the requested dtype (PyTorch computes them in that dtype; the difference is
// within its rounding).

#include "brasa/ops/window.h"

#include <cmath>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/tensor_data.h"
#include "brasa/ops/window_unpacked.h"

namespace brasa {
namespace {

/// The modified Bessel function of the first kind, order 0: sum over k of ((x / 2)^k / k!)^2,
/// whose terms all are positive, summed until they stop changing the result.
double bessel_i0(double x) {
  double sum = 1, term = 1;
  const double q = x * x / 4;
  for (int k = 1; k < 500; ++k) {
    term *= q / (static_cast<double>(k) * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

template <class Value>
Tensor window(const char* op, int64_t length, bool periodic, const TensorOptions& options,
              Value value) {
  BRASA_CHECK(length >= 0, op, " requires non-negative window_length, got window_length=", length);
  const ScalarType dtype = options.dtype();
  BRASA_CHECK_TYPE(is_floating_type(dtype), op, " expects floating point dtypes, got ", dtype);
  std::vector<double> values(static_cast<size_t>(length), 1.0);
  if (length > 1) {
    const double n_minus_1 = static_cast<double>(periodic ? length : length - 1);
    for (int64_t n = 0; n < length; ++n)
      values[static_cast<size_t>(n)] = value(static_cast<double>(n), n_minus_1);
  }
  Tensor out = detail::tensor_from_array(values.data(), length, kDouble)
                   .to(options.device(), dtype, /*non_blocking=*/false, /*copy=*/false);
  if (options.requires_grad()) out.requires_grad_(true);
  return out;
}

Tensor hamming(const char* op, int64_t length, bool periodic, double alpha, double beta,
               const TensorOptions& options) {
  return window(op, length, periodic, options,
                [&](double n, double m) { return alpha - beta * std::cos(2 * M_PI * n / m); });
}

}  // namespace

namespace detail {
TensorOptions unpacked_options(const char* op, std::optional<ScalarType> dtype,
                               std::optional<Layout> layout, std::optional<Device> device,
                               std::optional<bool> pin_memory) {
  (void)layout;  // strided is the only layout
  BRASA_CHECK(!pin_memory.value_or(false), op,
              ": pin_memory=true needs pinned (CUDA host) memory, which brasa does not have");
  return TensorOptions().dtype(dtype).device(device);
}
}  // namespace detail

Tensor hann_window(int64_t length, const TensorOptions& options) {
  return hann_window(length, true, options);
}
Tensor hann_window(int64_t length, bool periodic, const TensorOptions& options) {
  return hamming("hann_window", length, periodic, 0.5, 0.5, options);
}

Tensor hamming_window(int64_t length, const TensorOptions& options) {
  return hamming_window(length, true, options);
}
Tensor hamming_window(int64_t length, bool periodic, const TensorOptions& options) {
  return hamming_window(length, periodic, 0.54, 0.46, options);
}
Tensor hamming_window(int64_t length, bool periodic, double alpha, const TensorOptions& options) {
  return hamming_window(length, periodic, alpha, 0.46, options);
}
Tensor hamming_window(int64_t length, bool periodic, double alpha, double beta,
                      const TensorOptions& options) {
  return hamming("hamming_window", length, periodic, alpha, beta, options);
}

Tensor blackman_window(int64_t length, const TensorOptions& options) {
  return blackman_window(length, true, options);
}
Tensor blackman_window(int64_t length, bool periodic, const TensorOptions& options) {
  return window("blackman_window", length, periodic, options, [](double n, double m) {
    return 0.42 - 0.5 * std::cos(2 * M_PI * n / m) + 0.08 * std::cos(4 * M_PI * n / m);
  });
}

Tensor bartlett_window(int64_t length, const TensorOptions& options) {
  return bartlett_window(length, true, options);
}
Tensor bartlett_window(int64_t length, bool periodic, const TensorOptions& options) {
  return window("bartlett_window", length, periodic, options,
                [](double n, double m) { return 1 - std::abs(2 * n / m - 1); });
}

Tensor kaiser_window(int64_t length, const TensorOptions& options) {
  return kaiser_window(length, true, 12.0, options);
}
Tensor kaiser_window(int64_t length, bool periodic, const TensorOptions& options) {
  return kaiser_window(length, periodic, 12.0, options);
}
Tensor kaiser_window(int64_t length, bool periodic, double beta, const TensorOptions& options) {
  const double norm = bessel_i0(beta);
  return window("kaiser_window", length, periodic, options, [&](double n, double m) {
    const double r = 2 * n / m - 1;
    return bessel_i0(beta * std::sqrt(std::max(0.0, 1 - r * r))) / norm;
  });
}

}  // namespace brasa
