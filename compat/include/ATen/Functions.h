#pragma once
// at::zeros, at::add, ...: brasa's free functions (whatever brasa/brasa.h declares).

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
}  // namespace at
namespace torch {
using ::at::complex;
}  // namespace torch
