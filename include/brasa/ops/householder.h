#pragma once
// QR as Householder reflectors (libtorch's at::geqrf, linalg_householder_product / orgqr, ormqr):
// geqrf on LAPACK; the products of the reflectors H_i = I - tau_i v_i v_i^T are written with
// matmul, so autograd differentiates them. Inputs are float or double (TypeError otherwise).

#include <tuple>

#include "brasa/core/tensor.h"

namespace brasa {

/// (a, tau) of LAPACK's geqrf: R in a's upper triangle, the reflectors' vectors below it (unit
/// first element implied) and their scales in tau [..., min(m, n)]. Not differentiable.
BRASA_API std::tuple<Tensor, Tensor> geqrf(const Tensor& self);
/// The first n columns of H_1 ... H_k for input [..., m, n] (m >= n) holding the vectors below its
/// diagonal and tau [..., k] (k <= n).
BRASA_API Tensor linalg_householder_product(const Tensor& input, const Tensor& tau);
BRASA_API Tensor orgqr(const Tensor& self, const Tensor& input2);
/// op(Q) @ input3 (left) or input3 @ op(Q), Q = H_1 ... H_k the m x m product of the reflectors
/// in self [..., m, k'] and input2 (tau), op(Q) = Q^T when transpose.
BRASA_API Tensor ormqr(const Tensor& self, const Tensor& input2, const Tensor& input3,
                       bool left = true, bool transpose = false);

namespace linalg {
inline Tensor householder_product(const Tensor& input, const Tensor& tau) {
  return linalg_householder_product(input, tau);
}
}  // namespace linalg

}  // namespace brasa
