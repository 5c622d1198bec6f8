// Derivatives of svd, eigh (spectral_ops.cpp), pinv (pinv_ops.cpp) and lstsq (lstsq_ops.cpp),
// written with ops.
//
// eigh: A = V diag(w) V^T gives dw = diag(V^T dA V) and dV = V (F o V^T dA V) with
// F_ij = 1/(w_j - w_i) off the diagonal; only the antisymmetric part of V^T gV is invariant
// under the eigenvectors' signs, so gA = V (diag(gw) + F o skew(V^T gV)) V^T.
//
// svd (thin, k = min(m, n)): A = U diag(S) V^T; with F_ij = 1/(S_j^2 - S_i^2) off the diagonal,
// J = F o (U^T gU - gU^T U) and K = F o (V^T gV - gV^T V):
//   gA = U (diag(gS) + J diag(S) + diag(S) K) V^T
//        + (I - U U^T) gU diag(S)^{-1} V^T + U diag(S)^{-1} gV^T (I - V V^T).
// The last two terms vanish for square matrices. Full matrices use their first k vectors.
//
// pinv (rank kept constant): dP = -P dA P + P P^T dA^T (I - A P) + (I - P A) dA^T P^T P, whose
// adjoint gives, for an incoming G,
//   gA = -P^T G P^T + (I - A P) G^T P P^T + P^T P G^T (I - P A).
// lstsq: the solution is X = pinv(A) B, so gB = pinv(A)^T gX and gA is pinv's for G = gX B^T.
#include "ops/linalg/decomp_grad.h"
#include "ops/linalg/decomp_ops.h"

namespace brasa::ops {
namespace {

using namespace linalg_grad;  // NOLINT

// F o X for F_ij = 1 / (d_j - d_i) off the diagonal and 0 on it.
Tensor divide_by_gaps(const Tensor& X, const Tensor& d) {
  const Tensor I = eye_like(d, d.size(-1));
  const Tensor gaps = d.unsqueeze(-2) - d.unsqueeze(-1);
  return X / (gaps + I) * (1 - I);
}

Tensor skew(const Tensor& X) { return X - mT(X); }

std::tuple<Tensor, Tensor, Tensor> svd_ag(const Tensor& A, bool full_matrices, bool compute_uv) {
  if (!autograd::any_requires_grad({&A})) {
    BelowAutograd below;
    return linalg_svd_op().call(A, full_matrices, compute_uv);
  }
  // The derivative needs the vectors even when the caller asked for values only.
  return record_outputs(
      "LinalgSvdBackward0", "_linalg_svd", {&A}, true,
      [&]() -> std::tuple<Tensor, Tensor, Tensor> {
        auto [U, S, Vh] = linalg_svd_op().call(A, full_matrices, true);
        if (compute_uv) return {U, S, Vh};
        return {detail::empty_generic({0}, A.dtype(), A.device()), S,
                detail::empty_generic({0}, A.dtype(), A.device())};
      },
      [&](const std::tuple<Tensor, Tensor, Tensor>&) {
        // Values only: the vectors are computed again here, without history (no second
        // derivative through them).
        Tensor U, Vh;
        if (!compute_uv) {
          BelowAutograd below;
          std::tie(U, std::ignore, Vh) = linalg_svd_op().call(A, false, true);
        }
        const int64_t k = std::min(A.size(-2), A.size(-1));
        return [u = SavedVariable(U), vh = SavedVariable(Vh), compute_uv, k](
                   BackwardContext& ctx, const std::vector<Tensor>& out) -> variable_list {
          const Tensor Uk = (compute_uv ? out[0] : ctx.unpack(u)).narrow(-1, 0, k);
          const Tensor Vhk = (compute_uv ? out[2] : ctx.unpack(vh)).narrow(-2, 0, k);
          const Tensor& S = out[1];
          Tensor inner = diag_matrix(ctx.grad(1));
          if (!compute_uv) return {matmul(matmul(Uk, inner), Vhk)};
          const Tensor gU = ctx.grad(0).narrow(-1, 0, k), gVh = ctx.grad(2).narrow(-2, 0, k);
          const Tensor S2 = S * S;
          const Tensor J = divide_by_gaps(skew(matmul(mT(Uk), gU)), S2);
          const Tensor K = divide_by_gaps(skew(matmul(Vhk, mT(gVh))), S2);
          inner = inner + J * S.unsqueeze(-2) + S.unsqueeze(-1) * K;
          Tensor gA = matmul(matmul(Uk, inner), Vhk);
          const int64_t m = Uk.size(-2), n = Vhk.size(-1);
          if (m > k) {
            const Tensor outside = gU - matmul(Uk, matmul(mT(Uk), gU));
            gA = gA + matmul(outside / S.unsqueeze(-2), Vhk);
          }
          if (n > k) {
            const Tensor outside = gVh - matmul(matmul(gVh, mT(Vhk)), Vhk);
            gA = gA + matmul(Uk, outside / S.unsqueeze(-1));
          }
          return {gA};
        };
      });
}

std::tuple<Tensor, Tensor> eigh_ag(const Tensor& A, std::string uplo, bool compute_v) {
  if (!autograd::any_requires_grad({&A})) {
    BelowAutograd below;
    return linalg_eigh_op().call(A, uplo, compute_v);
  }
  Tensor V;
  return record_outputs(
      "LinalgEighBackward0", "_linalg_eigh", {&A}, true,
      [&]() -> std::tuple<Tensor, Tensor> {
        auto [w, vecs] = linalg_eigh_op().call(A, uplo, true);
        V = vecs;
        return {w, compute_v ? vecs : detail::empty_generic({0}, A.dtype(), A.device())};
      },
      [&](const std::tuple<Tensor, Tensor>&) {
        return [v = compute_v ? SavedVariable() : SavedVariable(V), compute_v](
                   BackwardContext& ctx, const std::vector<Tensor>& out) -> variable_list {
          const Tensor Vv = compute_v ? out[1] : ctx.unpack(v);
          Tensor inner = diag_matrix(ctx.grad(0));
          if (compute_v)
            inner = inner + divide_by_gaps(0.5 * skew(matmul(mT(Vv), ctx.grad(1))), out[0]);
          return {matmul(matmul(Vv, inner), mT(Vv))};
        };
      });
}

// gA of P = pinv(A) for an incoming G (the formula above).
Tensor pinv_grad(const Tensor& A, const Tensor& P, const Tensor& G) {
  const Tensor Pt = mT(P), Gt = mT(G);
  const int64_t m = A.size(-2), n = A.size(-1);
  return -matmul(matmul(Pt, G), Pt) +
         matmul(matmul(eye_like(A, m) - matmul(A, P), Gt), matmul(P, Pt)) +
         matmul(matmul(matmul(Pt, P), Gt), eye_like(A, n) - matmul(P, A));
}

Tensor pinv_ag(const Tensor& A, std::optional<double> atol, std::optional<double> rtol,
               bool hermitian) {
  return record_outputs(
      "LinalgPinvBackward0", "linalg_pinv", {&A}, autograd::any_requires_grad({&A}),
      [&] { return linalg_pinv_op().call(A, atol, rtol, hermitian); },
      [&](const Tensor&) {
        return [a = SavedVariable(A)](BackwardContext& ctx,
                                      const std::vector<Tensor>& out) -> variable_list {
          return {pinv_grad(ctx.unpack(a), out[0], ctx.grad(0))};
        };
      });
}

using LstsqResult = std::vector<Tensor>;

LstsqResult lstsq_ag(const Tensor& A, const Tensor& B, std::optional<double> rcond,
                     std::optional<std::string> driver) {
  LstsqResult r;
  {
    BelowAutograd below;
    r = linalg_lstsq_op().call(A, B, rcond, driver);
  }
  if (!autograd::any_requires_grad({&A, &B})) return r;
  const bool vector = B.dim() == A.dim() - 1;  // Note [Vector right-hand sides]
  // Only the solution is differentiable (residuals, rank and singular values are not, as in
  // PyTorch).
  auto node = autograd::make_function_node(
      "LinalgLstsqBackward0", "linalg_lstsq", {&A, &B},
      [a = SavedVariable(A), b = SavedVariable(B), vector](BackwardContext& ctx) -> variable_list {
        const Tensor Av = ctx.unpack(a);
        const Tensor Bm = vector ? ctx.unpack(b).unsqueeze(-1) : ctx.unpack(b);
        const Tensor gX = vector ? ctx.grad(0).unsqueeze(-1) : ctx.grad(0);
        const Tensor P = linalg_pinv(Av, std::nullopt, std::nullopt);
        Tensor gA, gB;
        if (ctx.needs(1)) {
          gB = matmul(mT(P), gX);
          if (vector) gB = gB.squeeze(-1);
        }
        if (ctx.needs(0)) gA = pinv_grad(Av, P, matmul(gX, mT(Bm)));
        return {gA, gB};
      });
  autograd::set_history(r[0], node);
  return r;
}

}  // namespace

BRASA_REGISTER_KERNEL(linalg_svd_op, svd_ag, Autograd)
BRASA_REGISTER_KERNEL(linalg_eigh_op, eigh_ag, Autograd)
BRASA_REGISTER_KERNEL(linalg_pinv_op, pinv_ag, Autograd)
BRASA_REGISTER_KERNEL(linalg_lstsq_op, lstsq_ag, Autograd)

}  // namespace brasa::ops
