#pragma once
// at::zeros, at::add, ...: brasa's free functions (whatever brasa/brasa.h declares).

#include <cstdint>
#include <string_view>

#include "ATen/ops/embedding_bag.h"
#include "ATen/ops/tensor.h"
#include "brasa/core/error.h"
#include "brasa/functions.h"
#include "brasa/nn/aten_nn_functions.h"
#include "brasa/nn/rnn_packed_functions.h"
#include "brasa/ops/normal.h"
#include "brasa/ops/window_unpacked.h"
#include "c10/brasa_namespaces.h"

namespace at {
/// at::complex(real, imag): brasa::complex_from (in brasa's one namespace `complex` names the
/// element type, c10::complex<T>).
inline Tensor complex(const Tensor& real, const Tensor& imag) {
  return ::brasa::complex_from(real, imag);
}

/// aten's test op for overloads whose defaults could be ambiguous: the first form expects its
/// defaults (a = 1, b = 1) and returns 1, the second (aten's `.b`) expects a = 2, b = "2" and
/// returns 2, as a 0-d Long tensor. Programs that test a libtorch build's generated overloads
/// call it.
inline Tensor _test_ambiguous_defaults(const Tensor& dummy, int64_t a = 1, int64_t b = 1) {
  BRASA_CHECK(a == 1 && b == 1, "_test_ambiguous_defaults: expected a = 1, b = 1, got ", a, ", ",
              b);
  return ::brasa::scalar_tensor(1, dummy.options().dtype(kLong));
}
inline Tensor _test_ambiguous_defaults(const Tensor& dummy, int64_t a, std::string_view b) {
  BRASA_CHECK(a == 2 && b == "2", "_test_ambiguous_defaults: expected a = 2, b = \"2\", got ", a,
              ", \"", b, "\"");
  return ::brasa::scalar_tensor(2, dummy.options().dtype(kLong));
}
}  // namespace at
namespace torch {
using ::at::complex;
}  // namespace torch
