#pragma once
// The LAPACK-backed matrix functions (Note [Op declarations]): inverse, solve and determinants
// (lu_ops.cpp), cholesky, qr, svd and eigh (factor_ops.cpp, spectral_ops.cpp), least squares
// (lstsq_ops.cpp), pseudo-inverse (pinv_ops.cpp); derivatives in lu_grad.cpp, factor_grad.cpp and
// spectral_grad.cpp. Inputs are float or double
// [..., m, n] batches; the composites (norms, logdet) are in linalg_functions.cpp.

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// lu_ops.cpp
BRASA_DECLARE_OP(linalg_inv_op, "linalg_inv", "linalg_inv(Tensor A) -> Tensor",
                 Tensor(const Tensor&));
BRASA_DECLARE_OP(linalg_solve_op, "linalg_solve",
                 "linalg_solve(Tensor A, Tensor B, bool left) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, bool));
BRASA_DECLARE_OP(linalg_det_op, "linalg_det", "linalg_det(Tensor A) -> Tensor",
                 Tensor(const Tensor&));
BRASA_DECLARE_OP(linalg_slogdet_op, "linalg_slogdet",
                 "linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)",
                 std::tuple<Tensor, Tensor>(const Tensor&));

// factor_ops.cpp
BRASA_DECLARE_OP(linalg_cholesky_op, "linalg_cholesky",
                 "linalg_cholesky(Tensor self, bool upper) -> Tensor", Tensor(const Tensor&, bool));
BRASA_DECLARE_OP(linalg_qr_op, "linalg_qr", "linalg_qr(Tensor A, str mode) -> (Tensor Q, Tensor R)",
                 std::tuple<Tensor, Tensor>(const Tensor&, std::string));

// spectral_ops.cpp
BRASA_DECLARE_OP(linalg_svd_op, "_linalg_svd",
                 "_linalg_svd(Tensor A, bool full_matrices, bool compute_uv) -> (Tensor U, Tensor "
                 "S, Tensor Vh)",
                 std::tuple<Tensor, Tensor, Tensor>(const Tensor&, bool, bool));
BRASA_ATEN(linalg_svd_op,
           "none: aten's _linalg_svd also takes a driver (the CUDA solver's choice), which this "
           "declaration lacks");
BRASA_DECLARE_OP(linalg_eigh_op, "_linalg_eigh",
                 "_linalg_eigh(Tensor A, str UPLO, bool compute_v) -> (Tensor eigenvalues, Tensor "
                 "eigenvectors)",
                 std::tuple<Tensor, Tensor>(const Tensor&, std::string, bool));

// spectral_eig.cpp: general eigendecomposition (geev), complex results.
BRASA_DECLARE_OP(linalg_eig_op, "linalg_eig",
                 "linalg_eig(Tensor self) -> (Tensor eigenvalues, Tensor eigenvectors)",
                 std::tuple<Tensor, Tensor>(const Tensor&));
BRASA_DECLARE_OP(linalg_eigvals_op, "linalg_eigvals", "linalg_eigvals(Tensor self) -> Tensor",
                 Tensor(const Tensor&));

// factor_ldl.cpp: Bunch-Kaufman (sytrf / sytrs); not differentiable, as in PyTorch.
BRASA_DECLARE_OP(linalg_ldl_factor_ex_op, "linalg_ldl_factor_ex",
                 "linalg_ldl_factor_ex(Tensor self, bool hermitian, bool check_errors) -> (Tensor "
                 "LD, Tensor pivots, Tensor info)",
                 std::tuple<Tensor, Tensor, Tensor>(const Tensor&, bool, bool));
BRASA_DECLARE_OP(linalg_ldl_solve_op, "linalg_ldl_solve",
                 "linalg_ldl_solve(Tensor LD, Tensor pivots, Tensor B, bool hermitian) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, const Tensor&, bool));

// pinv_ops.cpp
BRASA_DECLARE_OP(
    linalg_pinv_op, "linalg_pinv",
    "linalg_pinv.atol_rtol_float(Tensor self, float? atol, float? rtol, bool hermitian) -> "
    "Tensor",
    Tensor(const Tensor&, std::optional<double>, std::optional<double>, bool));

// lstsq_ops.cpp: [solution, residuals, rank, singular_values] (aten returns a 4-tuple; brasa's
// boxing handles tuples of up to 3, so a list it is).
BRASA_DECLARE_OP(linalg_lstsq_op, "linalg_lstsq",
                 "linalg_lstsq(Tensor self, Tensor b, float? rcond, str? driver) -> Tensor[]",
                 std::vector<Tensor>(const Tensor&, const Tensor&, std::optional<double>,
                                     std::optional<std::string>));
BRASA_ATEN(linalg_lstsq_op,
           "none: aten returns a tuple of four; this op returns them as Tensor[] (brasa's boxing "
           "takes tuples of up to three)");

}  // namespace brasa::ops
