// Derivatives of cholesky and qr (factor_ops.cpp), written with ops.
//
// cholesky: from A = L L^T, L^{-1} dA L^{-T} = L^{-1} dL + (L^{-1} dL)^T with L^{-1} dL lower
// triangular, so dL = L Phi(L^{-1} dA L^{-T}) where Phi keeps the lower triangle and halves the
// diagonal. Phi is self-adjoint, hence gA = L^{-T} Phi(L^T gL) L^{-1}, symmetrised because only
// symmetric perturbations of A are meaningful.
//
// qr (m >= n): with C = Q^T dQ (antisymmetric) and X = Q^T dA R^{-1}, C + dR R^{-1} = X, so C is
// the antisymmetric completion of X's strictly lower part, dR = (X - C) R and
// dQ = (I - Q Q^T) dA R^{-1} + Q C. Collecting terms, with N = Q^T gQ - gR R^T:
//   gA = [(I - Q Q^T) gQ + Q (gR R^T + tril(N - N^T, -1))] R^{-T}.
// For m < n, A = [A1 | A2] with A1 = Q R1 square and R2 = Q^T A2: A2's gradient is Q gR2 and A1's
// follows the square case with gQ + A2 gR2^T.
#include "brasa/ops/indexing_ops.h"
#include "ops/linalg/decomp_grad.h"
#include "ops/linalg/decomp_ops.h"

namespace brasa::ops {
namespace {

using namespace linalg_grad;  // NOLINT

// Lower triangle with the diagonal halved.
Tensor phi(const Tensor& X) { return X.tril() - 0.5 * diag_matrix(X.diagonal(0, -2, -1)); }

Tensor cholesky_ag(const Tensor& A, bool upper) {
  return record_outputs(
      "LinalgCholeskyExBackward0", "linalg_cholesky", {&A}, autograd::any_requires_grad({&A}),
      [&] { return linalg_cholesky_op().call(A, upper); },
      [upper](const Tensor&) {
        return [upper](BackwardContext& ctx, const std::vector<Tensor>& out) -> variable_list {
          const Tensor L = upper ? mT(out[0]) : out[0];
          const Tensor gL = upper ? mT(ctx.grad(0)) : ctx.grad(0);
          const Tensor Linv = linalg_inv(L);
          const Tensor raw = matmul(matmul(mT(Linv), phi(matmul(mT(L), gL))), Linv);
          return {0.5 * (raw + mT(raw))};
        };
      });
}

// gA of A = Q R for a square or tall A (m >= n).
Tensor qr_tall_grad(const Tensor& Q, const Tensor& R, const Tensor& gQ, const Tensor& gR) {
  const Tensor QtgQ = matmul(mT(Q), gQ);
  const Tensor gRRt = matmul(gR, mT(R));
  const Tensor N = QtgQ - gRRt;
  const Tensor inner = gRRt + (N - mT(N)).tril(-1);
  return times_inverse_transpose(gQ - matmul(Q, QtgQ) + matmul(Q, inner), R);
}

std::tuple<Tensor, Tensor> qr_ag(const Tensor& A, std::string mode) {
  return record_outputs(
      "LinalgQrBackward0", "linalg_qr", {&A}, autograd::any_requires_grad({&A}),
      [&] { return linalg_qr_op().call(A, mode); },
      [&](const std::tuple<Tensor, Tensor>&) {
        return [a = SavedVariable(A), mode](BackwardContext& ctx,
                                            const std::vector<Tensor>& out) -> variable_list {
          const Tensor Av = ctx.unpack(a);
          const int64_t m = Av.size(-2), n = Av.size(-1);
          BRASA_CHECK_NOT_IMPLEMENTED(mode != "r",
                                      "linalg.qr: the derivative needs Q; mode='r' "
                                      "does not compute it (use mode='reduced')");
          BRASA_CHECK_NOT_IMPLEMENTED(mode != "complete" || m <= n,
                                      "linalg.qr: the derivative of mode='complete' is not "
                                      "defined for tall matrices (m > n): Q is not unique");
          const Tensor &Q = out[0], &R = out[1];
          const Tensor &gQ = ctx.grad(0), &gR = ctx.grad(1);
          if (m >= n) return {qr_tall_grad(Q, R, gQ, gR)};
          const Tensor A2 = Av.narrow(-1, m, n - m), gR2 = gR.narrow(-1, m, n - m);
          const Tensor g1 =
              qr_tall_grad(Q, R.narrow(-1, 0, m), gQ + matmul(A2, mT(gR2)), gR.narrow(-1, 0, m));
          return {cat({g1, matmul(Q, gR2)}, -1)};
        };
      });
}

}  // namespace

BRASA_REGISTER_KERNEL(linalg_cholesky_op, cholesky_ag, Autograd)
BRASA_REGISTER_KERNEL(linalg_qr_op, qr_ag, Autograd)

}  // namespace brasa::ops
