#pragma once
// Matrix functions composed from the LAPACK-backed ones of linalg_decomp.h (libtorch's at:: and
// torch::linalg:: spellings): triangular and Cholesky solves, tensor inverses and solves, matrix
// rank, condition numbers and the older qr/svd forms. Inputs are float or double (TypeError
// otherwise); shapes that don't fit throw ValueError naming the op. Differentiable through the
// ops they are written with; where libtorch's derivative treats a triangular factor as a full
// matrix (cholesky_solve, cholesky_inverse) so do these.

#include <optional>
#include <string_view>
#include <tuple>

#include "brasa/core/tensor.h"

namespace brasa {

/// X with A X = B (left) or X A = B, reading only A's upper or lower triangle (unit diagonal when
/// unitriangular). A [..., n, n], B [..., n, k] (left) or [..., k, n]; batch dims broadcast.
BRASA_API Tensor linalg_solve_triangular(const Tensor& A, const Tensor& B, bool upper,
                                         bool left = true, bool unitriangular = false);
/// (X, A broadcast) with op(A) X = self, op(A) = A or A^T, from A's upper or lower triangle.
BRASA_API std::tuple<Tensor, Tensor> triangular_solve(const Tensor& self, const Tensor& A,
                                                      bool upper = true, bool transpose = false,
                                                      bool unitriangular = false);
/// X with (L L^T) X = self (U^T U when upper), L the Cholesky factor in input2's triangle.
BRASA_API Tensor cholesky_solve(const Tensor& self, const Tensor& input2, bool upper = false);
/// (L L^T)^-1 (U^T U when upper) from the Cholesky factor in self's triangle.
BRASA_API Tensor cholesky_inverse(const Tensor& self, bool upper = false);
/// The inverse of self viewed as a matrix [prod(shape[:ind]), prod(shape[ind:])], shaped
/// shape[ind:] + shape[:ind].
BRASA_API Tensor linalg_tensorinv(const Tensor& self, int64_t ind = 2);
/// X with tensordot(self, X, X.dim()) = other; dims of self first moved to the end.
BRASA_API Tensor linalg_tensorsolve(const Tensor& self, const Tensor& other,
                                    OptionalIntArrayRef dims = std::nullopt);
/// int64 number of singular values (|eigenvalues| when hermitian) above
/// max(atol, rtol * largest); rtol defaults to eps * max(m, n) unless atol > 0.
BRASA_API Tensor linalg_matrix_rank(const Tensor& self, std::optional<double> atol,
                                    std::optional<double> rtol, bool hermitian = false);
BRASA_API Tensor linalg_matrix_rank(const Tensor& self, double tol, bool hermitian = false);
BRASA_API Tensor linalg_matrix_rank(const Tensor& input, const std::optional<Tensor>& atol = {},
                                    const std::optional<Tensor>& rtol = {}, bool hermitian = false);
BRASA_API Tensor linalg_matrix_rank(const Tensor& input, const Tensor& tol, bool hermitian = false);
/// Condition number in norm p: 2 / -2 (or none) from the singular values, else
/// norm(A, p) * norm(inv(A), p) for square A; p 1, -1, inf, -inf, "fro" or "nuc".
BRASA_API Tensor linalg_cond(const Tensor& self, const std::optional<Scalar>& p = std::nullopt);
BRASA_API Tensor linalg_cond(const Tensor& self, std::string_view p);
// A string literal p is a norm's name, not a Scalar.
inline Tensor linalg_cond(const Tensor& self, const char* p) {
  return linalg_cond(self, std::string_view(p));
}
/// torch.qr: linalg_qr in mode "reduced" (some) or "complete".
BRASA_API std::tuple<Tensor, Tensor> qr(const Tensor& self, bool some = true);
/// torch.svd: (U, S, V) with self = U diag(S) V^T (thin when some); without compute_uv, U and V
/// are zero [m, m] and [n, n].
BRASA_API std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& self, bool some = true,
                                                 bool compute_uv = true);

/// torch.symeig (deprecated in libtorch 1.13): linalg_eigh of the upper (lower) triangle;
/// eigenvectors is an empty tensor unless asked for.
BRASA_API std::tuple<Tensor, Tensor> symeig(const Tensor& self, bool eigenvectors = false,
                                            bool upper = true);

/// torch::linalg:: spellings (libtorch's torch/linalg.h).
namespace linalg {
inline Tensor solve_triangular(const Tensor& input, const Tensor& other, bool upper, bool left,
                               bool unitriangular) {
  return linalg_solve_triangular(input, other, upper, left, unitriangular);
}
inline Tensor tensorinv(const Tensor& self, int64_t ind) { return linalg_tensorinv(self, ind); }
inline Tensor tensorsolve(const Tensor& self, const Tensor& other, OptionalIntArrayRef dims) {
  return linalg_tensorsolve(self, other, dims);
}
inline Tensor matrix_rank(const Tensor& input, double tol, bool hermitian) {
  return linalg_matrix_rank(input, tol, hermitian);
}
inline Tensor matrix_rank(const Tensor& input, const Tensor& tol, bool hermitian) {
  return linalg_matrix_rank(input, tol, hermitian);
}
inline Tensor matrix_rank(const Tensor& input, std::optional<double> atol,
                          std::optional<double> rtol, bool hermitian) {
  return linalg_matrix_rank(input, atol, rtol, hermitian);
}
inline Tensor matrix_rank(const Tensor& input, const std::optional<Tensor>& atol,
                          const std::optional<Tensor>& rtol, bool hermitian) {
  return linalg_matrix_rank(input, atol, rtol, hermitian);
}
inline Tensor cond(const Tensor& input, const std::optional<Scalar>& ord) {
  return linalg_cond(input, ord);
}
inline Tensor cond(const Tensor& input, std::string_view ord) { return linalg_cond(input, ord); }
inline Tensor cond(const Tensor& input, const char* ord) {
  return linalg_cond(input, std::string_view(ord));
}
}  // namespace linalg

}  // namespace brasa
