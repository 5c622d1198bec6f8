#pragma once
// More products and matrix functions (libtorch spellings), written with mm/matmul/mul and the
// LAPACK-backed linalg ops, so autograd differentiates them: kron, inner, tensordot, vdot, addbmm,
// addr, chain_matmul / linalg_multi_dot, cross / linalg_cross, linalg_vecdot, matrix_power,
// matrix_exp, linalg_vander, and the torch::linalg:: spellings. Errors: ValueError for shapes
// that don't fit, TypeError for dtypes that differ where the op needs one dtype; each names the op.

#include <optional>

#include "brasa/core/tensor.h"

namespace brasa {

/// Kronecker product: shapes padded with leading ones, result size a_i * b_i per dim.
BRASA_API Tensor kron(const Tensor& self, const Tensor& other);
/// Sum over the last dims of both (a product with a 0-d operand).
BRASA_API Tensor inner(const Tensor& self, const Tensor& other);
/// Contracts dims_self of self with dims_other of other; the free dims of self, then of other.
BRASA_API Tensor tensordot(const Tensor& self, const Tensor& other, IntArrayRef dims_self,
                           IntArrayRef dims_other);
/// conj(self) . other of two 1-d tensors of one dtype.
BRASA_API Tensor vdot(const Tensor& self, const Tensor& other);
/// beta * self + alpha * sum_b batch1[b] @ batch2[b]; self broadcasts to [n, p].
BRASA_API Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                        const Scalar& beta = 1, const Scalar& alpha = 1);
/// beta * self + alpha * outer(vec1, vec2); self broadcasts to [n, m]; beta 0 ignores self.
BRASA_API Tensor addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2,
                      const Scalar& beta = 1, const Scalar& alpha = 1);
/// The product of 2-d matrices (deprecated spelling of linalg_multi_dot).
BRASA_API Tensor chain_matmul(TensorList matrices);
/// The product of two or more matrices; the first may be 1-d (a row), the last 1-d (a column).
BRASA_API Tensor linalg_multi_dot(TensorList tensors);
/// 3-vector cross product along dim (broadcasting); cross without dim takes the first dim of
/// size 3.
BRASA_API Tensor linalg_cross(const Tensor& self, const Tensor& other, int64_t dim = -1);
BRASA_API Tensor cross(const Tensor& self, const Tensor& other,
                       std::optional<int64_t> dim = std::nullopt);
/// sum(conj(x) * y, dim) of x and y of one dtype, broadcasting.
BRASA_API Tensor linalg_vecdot(const Tensor& x, const Tensor& y, int64_t dim = -1);
BRASA_API Tensor linalg_matmul(const Tensor& self, const Tensor& other);
BRASA_API Tensor linalg_diagonal(const Tensor& A, int64_t offset = 0, int64_t dim1 = -2,
                                 int64_t dim2 = -1);
/// [..., n, N] powers x^0 .. x^(N-1) of x [..., n]; N (default n) must be > 1.
BRASA_API Tensor linalg_vander(const Tensor& x, std::optional<int64_t> N = std::nullopt);
/// A^n of square matrices [..., m, m] (n < 0: of the inverse; n == 0: the identity).
BRASA_API Tensor matrix_power(const Tensor& self, int64_t n);
BRASA_API Tensor linalg_matrix_power(const Tensor& self, int64_t n);
/// exp(A) of square float matrices [..., m, m] (scaling and squaring of a Taylor polynomial).
BRASA_API Tensor matrix_exp(const Tensor& self);
BRASA_API Tensor linalg_matrix_exp(const Tensor& self);

/// torch::linalg:: spellings (libtorch's torch/linalg.h).
namespace linalg {
inline Tensor multi_dot(TensorList tensors) { return linalg_multi_dot(tensors); }
inline Tensor matrix_power(const Tensor& A, int64_t n) { return linalg_matrix_power(A, n); }
inline Tensor matrix_exp(const Tensor& A) { return linalg_matrix_exp(A); }
}  // namespace linalg

}  // namespace brasa
