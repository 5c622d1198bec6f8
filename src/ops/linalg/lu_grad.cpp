// Derivatives of inv, solve, det and slogdet (lu_ops.cpp), written with ops so that they
// differentiate again. With X = A^{-1}: dX = -X dA X, d det = det tr(A^{-1} dA) and
// d log|det| = tr(A^{-1} dA); solve's X = A^{-1} B gives gB = A^{-T} gX and gA = -gB X^T.
// det's gradient g det(A) A^{-T} is g adj(A)^T, which singular matrices have too.
#include "ops/linalg/decomp_grad.h"
#include "ops/linalg/decomp_ops.h"

namespace brasa::ops {
namespace {

using namespace linalg_grad;  // NOLINT

Tensor inv_ag(const Tensor& A) {
  return record_outputs(
      "LinalgInvExBackward0", "linalg_inv", {&A}, autograd::any_requires_grad({&A}),
      [&] { return linalg_inv_op().call(A); },
      [](const Tensor&) {
        return [](BackwardContext& ctx, const std::vector<Tensor>& out) -> variable_list {
          const Tensor Xt = mT(out[0]);
          return {-matmul(matmul(Xt, ctx.grad(0)), Xt)};
        };
      });
}

Tensor solve_ag(const Tensor& A, const Tensor& B, bool left) {
  // Note [Vector right-hand sides]
  const bool vector =
      B.dim() == 1 ||
      (B.dim() == A.dim() - 1 && B.sizes() == IntArrayRef(A.sizes().begin(), A.sizes().end() - 1));
  return record_outputs(
      "LinalgSolveExBackward0", "linalg_solve", {&A, &B}, autograd::any_requires_grad({&A, &B}),
      [&] { return linalg_solve_op().call(A, B, left); },
      [&](const Tensor&) {
        return [a = SavedVariable(A), left, vector](
                   BackwardContext& ctx, const std::vector<Tensor>& out) -> variable_list {
          // As columns: M Xc = Bc with M = A (left) or A^T (right: X A = B, or a vector x).
          const Tensor M = left ? ctx.unpack(a) : mT(ctx.unpack(a));
          auto columns = [&](const Tensor& t) {
            return vector ? t.unsqueeze(-1) : (left ? t : mT(t));
          };
          const Tensor gBc = linalg_solve(mT(M), columns(ctx.grad(0)), true);
          Tensor gA, gB;
          if (ctx.needs(0)) {
            const Tensor gM = -matmul(gBc, mT(columns(out[0])));
            gA = left ? gM : mT(gM);
          }
          if (ctx.needs(1)) gB = vector ? gBc.squeeze(-1) : (left ? gBc : mT(gBc));
          return {gA, gB};
        };
      });
}

// g * adj(A)^T from the SVD A = U diag(S) V^T, which also holds for singular A: adj(A)^T =
// det(U) det(V) U diag(p) V^T with p_i the product of the other singular values.
Tensor det_grad_by_svd(const Tensor& A, const Tensor& g) {
  auto [U, S, Vh] = linalg_svd(A, false);
  const int64_t n = S.size(-1);
  const Tensor I = eye_like(S, n);
  const Tensor others = (S.unsqueeze(-2) * (1 - I) + I).prod(-1);
  const Tensor sign = linalg_det(U) * linalg_det(Vh);
  return (g * sign).unsqueeze(-1).unsqueeze(-1) * matmul(U * others.unsqueeze(-2), Vh);
}

Tensor det_ag(const Tensor& A) {
  return record_outputs(
      "LinalgDetBackward0", "linalg_det", {&A}, autograd::any_requires_grad({&A}),
      [&] { return linalg_det_op().call(A); },
      [&](const Tensor&) {
        return [a = SavedVariable(A)](BackwardContext& ctx,
                                      const std::vector<Tensor>& out) -> variable_list {
          const Tensor Av = ctx.unpack(a), dv = out[0];
          // Singular matrices have no inverse but a gradient all the same (the adjugate).
          if ((dv == 0).any().item<bool>()) return {det_grad_by_svd(Av, ctx.grad(0))};
          const Tensor scale = (ctx.grad(0) * dv).unsqueeze(-1).unsqueeze(-1);
          return {scale * mT(linalg_inv(Av))};
        };
      });
}

std::tuple<Tensor, Tensor> slogdet_ag(const Tensor& A) {
  std::tuple<Tensor, Tensor> r;
  {
    BelowAutograd below;
    r = linalg_slogdet_op().call(A);
  }
  if (!autograd::any_requires_grad({&A})) return r;
  // Both outputs get a history, as in PyTorch, but the sign is piecewise constant: only
  // log|det|'s gradient flows.
  auto node = autograd::make_function_node(
      "LinalgSlogdetBackward0", "linalg_slogdet", {&A},
      [a = SavedVariable(A)](BackwardContext& ctx) -> variable_list {
        return {ctx.grad(1).unsqueeze(-1).unsqueeze(-1) * mT(linalg_inv(ctx.unpack(a)))};
      });
  autograd::set_history(std::get<0>(r), node);
  autograd::set_history(std::get<1>(r), node);
  return r;
}

}  // namespace

BRASA_REGISTER_KERNEL(linalg_inv_op, inv_ag, Autograd)
BRASA_REGISTER_KERNEL(linalg_solve_op, solve_ag, Autograd)
BRASA_REGISTER_KERNEL(linalg_det_op, det_ag, Autograd)
BRASA_REGISTER_KERNEL(linalg_slogdet_op, slogdet_ag, Autograd)

}  // namespace brasa::ops
