#pragma once
// Matrix functions on LAPACK (libtorch's at::linalg_* and torch::linalg:: spellings): inverse,
// solve, determinants, cholesky, qr, svd, eigh, least squares, pseudo-inverse and norms. Inputs
// are float or double [..., m, n] batches (TypeError otherwise; ValueError for shapes that don't
// fit); a singular matrix (inv, solve), a matrix that is not positive-definite (cholesky) or a
// decomposition that does not converge throws RuntimeError naming the batch element. Every
// function is differentiable; decompositions with repeated singular values or eigenvalues have no
// defined gradient for their vectors (PyTorch's rule too).

#include <optional>
#include <string_view>
#include <tuple>

#include "brasa/core/tensor.h"

namespace brasa {

/// Inverse of each square matrix [..., n, n].
BRASA_API Tensor linalg_inv(const Tensor& A);
/// X with A X = B (left) or X A = B; B is [..., n, k] or a batch of vectors [..., n] (1-D, or A's
/// shape without its last dim). Batch dims broadcast.
BRASA_API Tensor linalg_solve(const Tensor& A, const Tensor& B, bool left = true);
/// Determinant [...] of [..., n, n]; singular matrices give 0.
BRASA_API Tensor linalg_det(const Tensor& A);
/// (sign, log|det|) [...]; singular matrices give (0, -inf).
BRASA_API std::tuple<Tensor, Tensor> linalg_slogdet(const Tensor& A);
/// L with A = L L^T (or U = L^T with A = U^T U when upper), from A's lower (upper) triangle.
BRASA_API Tensor linalg_cholesky(const Tensor& A, bool upper = false);
/// (Q, R) with A = Q R; mode "reduced" (Q [.., m, k], k = min(m, n)), "complete" or "r" (R only).
BRASA_API std::tuple<Tensor, Tensor> linalg_qr(const Tensor& A, std::string_view mode = "reduced");
/// (U, S, Vh) with A = U diag(S) Vh, S descending; thin unless full_matrices.
BRASA_API std::tuple<Tensor, Tensor, Tensor> linalg_svd(const Tensor& A, bool full_matrices = true);
/// Singular values [..., min(m, n)], descending.
BRASA_API Tensor linalg_svdvals(const Tensor& A);
/// (eigenvalues ascending [..., n], eigenvectors as columns [..., n, n]) of the symmetric matrix
/// in A's uplo ("L" or "U") triangle.
BRASA_API std::tuple<Tensor, Tensor> linalg_eigh(const Tensor& A, std::string_view uplo = "L");
BRASA_API Tensor linalg_eigvalsh(const Tensor& A, std::string_view uplo = "L");
/// (eigenvalues [..., n], eigenvectors as columns [..., n, n]) of a general square matrix, complex
/// (ComplexFloat for float, ComplexDouble for double and complex inputs), in LAPACK geev's order,
/// each eigenvector of unit norm. Differentiable (the derivative assumes distinct eigenvalues and
/// is invariant only to the eigenvectors' phases, as in libtorch).
BRASA_API std::tuple<Tensor, Tensor> linalg_eig(const Tensor& A);
BRASA_API Tensor linalg_eigvals(const Tensor& A);
/// (solution, residuals, rank, singular_values) of min ||A X - B||; driver gelsy (default),
/// gels, gelsd or gelss; rcond defaults to eps * max(m, n).
BRASA_API std::tuple<Tensor, Tensor, Tensor, Tensor> linalg_lstsq(
    const Tensor& A, const Tensor& B, std::optional<double> rcond = std::nullopt,
    std::optional<std::string_view> driver = std::nullopt);
/// Pseudo-inverse [..., n, m]: singular values below max(atol, rtol * largest) count as zero
/// (rtol defaults to eps * max(m, n) when neither is given, else 0); hermitian uses eigh.
BRASA_API Tensor linalg_pinv(const Tensor& A, std::optional<double> atol,
                             std::optional<double> rtol, bool hermitian = false);
BRASA_API Tensor linalg_pinv(const Tensor& A, double rcond = 1e-15, bool hermitian = false);
/// Vector norm over dim (every element when absent): ord = 2, 1, inf, -inf, 0 or any p.
BRASA_API Tensor linalg_vector_norm(const Tensor& A, const Scalar& ord = 2,
                                    OptionalIntArrayRef dim = std::nullopt, bool keepdim = false,
                                    std::optional<ScalarType> dtype = std::nullopt);
/// Matrix norm over the two dims: ord "fro", "nuc", 1, -1, 2, -2, inf, -inf.
BRASA_API Tensor linalg_matrix_norm(const Tensor& A, const Scalar& ord, IntArrayRef dim = {-2, -1},
                                    bool keepdim = false,
                                    std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor linalg_matrix_norm(const Tensor& A, std::string_view ord = "fro",
                                    IntArrayRef dim = {-2, -1}, bool keepdim = false,
                                    std::optional<ScalarType> dtype = std::nullopt);
/// Vector norm (1-D, or dim of one entry) or matrix norm (2-D, or dim of two entries); without
/// ord and dim the 2-norm of the flattened input.
BRASA_API Tensor linalg_norm(const Tensor& A, const std::optional<Scalar>& ord = std::nullopt,
                             OptionalIntArrayRef dim = std::nullopt, bool keepdim = false,
                             std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor linalg_norm(const Tensor& A, std::string_view ord,
                             OptionalIntArrayRef dim = std::nullopt, bool keepdim = false,
                             std::optional<ScalarType> dtype = std::nullopt);
// A string literal ord is a matrix norm's name, not a Scalar.
inline Tensor linalg_matrix_norm(const Tensor& A, const char* ord, IntArrayRef dim = {-2, -1},
                                 bool keepdim = false,
                                 std::optional<ScalarType> dtype = std::nullopt) {
  return linalg_matrix_norm(A, std::string_view(ord), dim, keepdim, dtype);
}
inline Tensor linalg_norm(const Tensor& A, const char* ord, OptionalIntArrayRef dim = std::nullopt,
                          bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) {
  return linalg_norm(A, std::string_view(ord), dim, keepdim, dtype);
}

// The older at:: names.
inline Tensor inverse(const Tensor& A) { return linalg_inv(A); }
inline Tensor det(const Tensor& A) { return linalg_det(A); }
inline std::tuple<Tensor, Tensor> slogdet(const Tensor& A) { return linalg_slogdet(A); }
/// log(det(A)): NaN for a negative determinant, -inf for a singular matrix.
BRASA_API Tensor logdet(const Tensor& A);
inline Tensor cholesky(const Tensor& A, bool upper = false) { return linalg_cholesky(A, upper); }
inline Tensor pinverse(const Tensor& A, double rcond = 1e-15) { return linalg_pinv(A, rcond); }

/// torch::linalg:: (libtorch's torch/linalg.h).
namespace linalg {
inline Tensor inv(const Tensor& A) { return linalg_inv(A); }
inline Tensor solve(const Tensor& A, const Tensor& B, bool left = true) {
  return linalg_solve(A, B, left);
}
inline Tensor det(const Tensor& A) { return linalg_det(A); }
inline std::tuple<Tensor, Tensor> slogdet(const Tensor& A) { return linalg_slogdet(A); }
inline Tensor cholesky(const Tensor& A) { return linalg_cholesky(A); }
inline std::tuple<Tensor, Tensor> qr(const Tensor& A, std::string_view mode = "reduced") {
  return linalg_qr(A, mode);
}
inline std::tuple<Tensor, Tensor, Tensor> svd(
    const Tensor& A, bool full_matrices = true,
    std::optional<std::string_view> /*driver: CUDA only*/ = std::nullopt) {
  return linalg_svd(A, full_matrices);
}
inline Tensor svdvals(const Tensor& A,
                      std::optional<std::string_view> /*driver: CUDA only*/ = std::nullopt) {
  return linalg_svdvals(A);
}
inline std::tuple<Tensor, Tensor> eig(const Tensor& A) { return linalg_eig(A); }
inline Tensor eigvals(const Tensor& A) { return linalg_eigvals(A); }
inline std::tuple<Tensor, Tensor> eigh(const Tensor& A, std::string_view uplo = "L") {
  return linalg_eigh(A, uplo);
}
inline Tensor eigvalsh(const Tensor& A, std::string_view uplo = "L") {
  return linalg_eigvalsh(A, uplo);
}
inline std::tuple<Tensor, Tensor, Tensor, Tensor> lstsq(
    const Tensor& A, const Tensor& B, std::optional<double> rcond = std::nullopt,
    std::optional<std::string_view> driver = std::nullopt) {
  return linalg_lstsq(A, B, rcond, driver);
}
inline Tensor pinv(const Tensor& A, double rcond = 1e-15, bool hermitian = false) {
  return linalg_pinv(A, rcond, hermitian);
}
inline Tensor norm(const Tensor& A, const std::optional<Scalar>& ord, OptionalIntArrayRef dim,
                   bool keepdim, std::optional<ScalarType> dtype) {
  return linalg_norm(A, ord, dim, keepdim, dtype);
}
inline Tensor norm(const Tensor& A, std::string_view ord, OptionalIntArrayRef dim, bool keepdim,
                   std::optional<ScalarType> dtype) {
  return linalg_norm(A, ord, dim, keepdim, dtype);
}
inline Tensor norm(const Tensor& A, const char* ord, OptionalIntArrayRef dim, bool keepdim,
                   std::optional<ScalarType> dtype) {
  return linalg_norm(A, std::string_view(ord), dim, keepdim, dtype);
}
inline Tensor vector_norm(const Tensor& A, const Scalar& ord, OptionalIntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> dtype) {
  return linalg_vector_norm(A, ord, dim, keepdim, dtype);
}
inline Tensor matrix_norm(const Tensor& A, const Scalar& ord, IntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> dtype) {
  return linalg_matrix_norm(A, ord, dim, keepdim, dtype);
}
inline Tensor matrix_norm(const Tensor& A, std::string_view ord, IntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> dtype) {
  return linalg_matrix_norm(A, ord, dim, keepdim, dtype);
}
inline Tensor matrix_norm(const Tensor& A, const char* ord, IntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> dtype) {
  return linalg_matrix_norm(A, std::string_view(ord), dim, keepdim, dtype);
}
}  // namespace linalg

}  // namespace brasa
