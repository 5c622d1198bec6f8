// Derivative of linalg_lu_factor_ex (lu_factor.cpp), written with ops so that it differentiates
// again. Only LU is differentiable (pivots and info are integers, and the pivots are piecewise
// constant). With A = P L U, A' = P^T A, and gL / gU the strictly lower / upper parts of LU's
// gradient:
//   square (m = n): A' = L U, L^-1 dA' U^-1 = L^-1 dL + dU U^-1 (strictly lower + upper), so
//     gA' = L^-T [tril(L^T gL, -1) + triu(gU U^T)] U^-T.
//   wide (m < n): U = [U1 | U2], U2 = L^-1 A'2: A'2 gets L^-T gU2 and L's gradient gains
//     -L^-T gU2 U2^T; A'1 follows the square case with U1.
//   tall (m > n): L = [L1; L2], L2 = A'2 U^-1: A'2 gets gL2 U^-T and U's gradient gains
//     -L2^T gL2 U^-T; A'1 follows the square case with L1.
// gA = P gA'.
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg_lu.h"
#include "brasa/ops/linalg_solvers.h"
#include "ops/linalg/decomp_grad.h"
#include "ops/linalg/lu_factor_ops.h"

namespace brasa::ops {
namespace {

using namespace linalg_grad;  // NOLINT

/// L^-T X for unit lower-triangular L.
Tensor unit_lower_t_solve(const Tensor& L, const Tensor& X) {
  return linalg_solve_triangular(mT(L), X, /*upper=*/true, /*left=*/true, /*unitriangular=*/true);
}
/// X U^-T for upper-triangular U.
Tensor times_upper_inverse_t(const Tensor& X, const Tensor& U) {
  return linalg_solve_triangular(mT(U), X, /*upper=*/false, /*left=*/false);
}

/// gA' of the square case.
Tensor square_grad(const Tensor& L, const Tensor& U, const Tensor& gL, const Tensor& gU) {
  const Tensor inner = matmul(mT(L), gL).tril(-1) + matmul(gU, mT(U)).triu();
  return times_upper_inverse_t(unit_lower_t_solve(L, inner), U);
}

Tensor lu_grad(const Tensor& LU, const Tensor& pivots, const Tensor& g) {
  auto [P, L, U] = lu_unpack(LU, pivots);
  const int64_t m = LU.size(-2), n = LU.size(-1), k = std::min(m, n);
  const Tensor gL = g.tril(-1).narrow(-1, 0, k), gU = g.triu().narrow(-2, 0, k);
  Tensor gA;
  if (m == n) {
    gA = square_grad(L, U, gL, gU);
  } else if (m < n) {
    const Tensor U1 = U.narrow(-1, 0, m), U2 = U.narrow(-1, m, n - m);
    const Tensor gU1 = gU.narrow(-1, 0, m), gU2 = gU.narrow(-1, m, n - m);
    const Tensor gA2 = unit_lower_t_solve(L, gU2);
    gA = cat({square_grad(L, U1, gL - matmul(gA2, mT(U2)), gU1), gA2}, -1);
  } else {
    const Tensor L1 = L.narrow(-2, 0, n), L2 = L.narrow(-2, n, m - n);
    const Tensor gL1 = gL.narrow(-2, 0, n), gL2 = gL.narrow(-2, n, m - n);
    const Tensor gA2 = times_upper_inverse_t(gL2, U);
    gA = cat({square_grad(L1, U, gL1, gU - matmul(mT(L2), gA2)), gA2}, -2);
  }
  return matmul(P, gA);
}

std::tuple<Tensor, Tensor, Tensor> lu_factor_ex_ag(const Tensor& A, bool pivot, bool check_errors) {
  Tensor pivots, info;
  Tensor LU = record_outputs(
      "LinalgLuFactorExBackward0", "linalg_lu_factor_ex", {&A}, autograd::any_requires_grad({&A}),
      [&] {
        auto [lu, p, i] = linalg_lu_factor_ex_op().call(A, pivot, check_errors);
        pivots = p;
        info = i;
        return lu;
      },
      [&](const Tensor&) {
        return [p = pivots](BackwardContext& ctx, const std::vector<Tensor>& out) -> variable_list {
          return {lu_grad(out[0], p, ctx.grad(0))};
        };
      });
  return {LU, pivots, info};
}

}  // namespace

BRASA_REGISTER_KERNEL(linalg_lu_factor_ex_op, lu_factor_ex_ag, Autograd)

}  // namespace brasa::ops
