#pragma once
// Complex tensors: their parts, views as real pairs, and construction from parts
// (src/ops/complex/). Tensor::real/imag/conj/angle are declared in tensor.h.

#include "brasa/core/tensor.h"

namespace brasa {

/// A Float/Double view of a ComplexFloat/ComplexDouble tensor with a trailing dim of 2 (real,
/// imaginary). Throws TypeError for a real tensor.
BRASA_API Tensor view_as_real(const Tensor& self);
/// The inverse view: a Float/Double tensor whose last dim has size 2 and stride 1 (and whose
/// other strides are even) as ComplexFloat/ComplexDouble. Throws TypeError / ValueError otherwise.
BRASA_API Tensor view_as_complex(const Tensor& self);
/// The real part (a view of a complex tensor; the tensor itself when it is real).
BRASA_API Tensor real(const Tensor& self);
/// The imaginary part (a view); throws TypeError for a real tensor.
BRASA_API Tensor imag(const Tensor& self);
/// The conjugate: a new tensor for a complex one, the tensor itself when it is real.
BRASA_API Tensor conj(const Tensor& self);
BRASA_API Tensor conj_physical(const Tensor& self);
BRASA_API Tensor& conj_physical_out(Tensor& out, const Tensor& self);
inline Tensor resolve_conj(const Tensor& self) { return self; }
/// atan2(imag, real) for complex tensors; pi where a real input is negative, 0 elsewhere (NaN
/// stays NaN); integral inputs give the default float dtype.
BRASA_API Tensor angle(const Tensor& self);
/// real + i * imag from two Float (or two Double) tensors of broadcastable shapes (libtorch's
/// torch::complex / at::complex, which compat/include/ATen/Functions.h declares: in brasa's one
/// namespace the name `complex` is the element type).
BRASA_API Tensor complex_from(const Tensor& real, const Tensor& imag);
/// abs * (cos(angle) + i sin(angle)) from two Float (or two Double) tensors.
BRASA_API Tensor polar(const Tensor& abs, const Tensor& angle);

}  // namespace brasa
