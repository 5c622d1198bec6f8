#pragma once
// The LU factorisation with partial pivoting on LAPACK (getrf) and what is built on it
// (libtorch's at:: and torch::linalg:: spellings), and the _ex forms that report failures in an
// int32 `info` instead of throwing. Inputs are float or double [..., m, n] batches (TypeError
// otherwise). LU is differentiable (also for m != n); the solves through it too.

#include <tuple>

#include "brasa/core/tensor.h"

namespace brasa {

/// (LU, pivots, info): L (unit lower, below the diagonal) and U packed in LU, int32 1-based row
/// interchanges pivots [..., min(m, n)], int32 info [...] (i > 0: U[i-1, i-1] is zero). With
/// check_errors a zero pivot throws RuntimeError. pivot=false throws NotImplementedError (CPU).
BRASA_API std::tuple<Tensor, Tensor, Tensor> linalg_lu_factor_ex(const Tensor& A, bool pivot = true,
                                                                 bool check_errors = false);
/// (LU, pivots); throws RuntimeError when a U has a zero pivot.
BRASA_API std::tuple<Tensor, Tensor> linalg_lu_factor(const Tensor& A, bool pivot = true);
/// (P, L, U) with A = P L U: P [..., m, m], L [..., m, k], U [..., k, n], k = min(m, n).
BRASA_API std::tuple<Tensor, Tensor, Tensor> linalg_lu(const Tensor& A, bool pivot = true);
/// (P, L, U) from lu_factor's (LU, pivots); without unpack_data / unpack_pivots, L and U / P are
/// empty.
BRASA_API std::tuple<Tensor, Tensor, Tensor> lu_unpack(const Tensor& LU_data,
                                                       const Tensor& LU_pivots,
                                                       bool unpack_data = true,
                                                       bool unpack_pivots = true);
/// X with A X = B (left) or X A = B, A^H in place of A when adjoint, from A's (LU, pivots).
BRASA_API Tensor linalg_lu_solve(const Tensor& LU, const Tensor& pivots, const Tensor& B,
                                 bool left = true, bool adjoint = false);
/// linalg_lu_solve(LU_data, LU_pivots, self) (the older spelling).
BRASA_API Tensor lu_solve(const Tensor& self, const Tensor& LU_data, const Tensor& LU_pivots);
/// (inverse, info): matrices with a zero pivot (info > 0) get NaN, or RuntimeError when
/// check_errors.
BRASA_API std::tuple<Tensor, Tensor> linalg_inv_ex(const Tensor& A, bool check_errors = false);
/// (X, info) of linalg_solve; singular matrices (info > 0) give NaN, or RuntimeError when
/// check_errors.
BRASA_API std::tuple<Tensor, Tensor> linalg_solve_ex(const Tensor& A, const Tensor& B,
                                                     bool left = true, bool check_errors = false);
/// (L, info) of linalg_cholesky; info > 0 (the order of the leading minor that is not positive
/// definite) gives a NaN factor, or RuntimeError when check_errors.
BRASA_API std::tuple<Tensor, Tensor> linalg_cholesky_ex(const Tensor& A, bool upper = false,
                                                        bool check_errors = false);
/// (LD, pivots, info): the Bunch-Kaufman factorization A = L D L^T (L D L^H when hermitian) of the
/// symmetric matrices in A's lower triangle (LAPACK sytrf / hetrf), in LAPACK's compact form and
/// 1-based pivots (negative for 2x2 blocks). info > 0 marks a singular D (RuntimeError when
/// check_errors). Not differentiable (as in libtorch).
BRASA_API std::tuple<Tensor, Tensor, Tensor> linalg_ldl_factor_ex(const Tensor& A,
                                                                  bool hermitian = false,
                                                                  bool check_errors = false);
/// (LD, pivots) of linalg_ldl_factor_ex; RuntimeError for a singular D.
BRASA_API std::tuple<Tensor, Tensor> linalg_ldl_factor(const Tensor& A, bool hermitian = false);
/// X with A X = B from ldl_factor's (LD, pivots) (LAPACK sytrs / hetrs); batch dims broadcast.
BRASA_API Tensor linalg_ldl_solve(const Tensor& LD, const Tensor& pivots, const Tensor& B,
                                  bool hermitian = false);

/// torch::linalg:: spellings (libtorch's torch/linalg.h).
namespace linalg {
inline std::tuple<Tensor, Tensor, Tensor> ldl_factor_ex(const Tensor& A, bool hermitian = false,
                                                        bool check_errors = false) {
  return linalg_ldl_factor_ex(A, hermitian, check_errors);
}
inline std::tuple<Tensor, Tensor> ldl_factor(const Tensor& A, bool hermitian = false) {
  return linalg_ldl_factor(A, hermitian);
}
inline Tensor ldl_solve(const Tensor& LD, const Tensor& pivots, const Tensor& B,
                        bool hermitian = false) {
  return linalg_ldl_solve(LD, pivots, B, hermitian);
}
inline std::tuple<Tensor, Tensor> lu_factor(const Tensor& input, bool pivot = true) {
  return linalg_lu_factor(input, pivot);
}
inline std::tuple<Tensor, Tensor, Tensor> lu(const Tensor& input, bool pivot = true) {
  return linalg_lu(input, pivot);
}
inline std::tuple<Tensor, Tensor> solve_ex(const Tensor& input, const Tensor& other, bool left,
                                           bool check_errors) {
  return linalg_solve_ex(input, other, left, check_errors);
}
}  // namespace linalg

}  // namespace brasa
