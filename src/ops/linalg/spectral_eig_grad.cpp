// Derivative of linalg_eig / linalg_eigvals (spectral_eig.cpp) for real A = V diag(L) V^-1, with
// gL, gV the gradients of the complex results (for a real loss, dl = Re tr(gX^H dX)):
//   gA = Re(V^-H (diag(gL) + (V^H gV - V^H V diag(Re(V^H gV))) / conj(E)) V^H),
// E_ij = L_j - L_i off the diagonal (the division leaves the diagonal out). The second term's
// subtraction keeps each eigenvector at unit norm, as geev returns them; like PyTorch, the result
// assumes distinct eigenvalues and does not depend on the eigenvectors' phases only when the loss
// does not. brasa has no complex matmul or complex solve, so complex matrices are carried as
// (real, imaginary) pairs of real tensors: products by four real matmuls, V^-H by a real solve of
// the 2n x 2n embedding [[Re, -Im], [Im, Re]].
#include "autograd/function_node.h"
#include "brasa/ops/complex.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/linalg_decomp.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/shaping.h"
#include "brasa/ops/view.h"
#include "ops/linalg/decomp_ops.h"

namespace brasa::ops {
namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

struct Pair {
  Tensor re, im;
};

Pair split(const Tensor& z) { return {real(z), imag(z)}; }
Pair mm(const Pair& a, const Pair& b) {
  return {matmul(a.re, b.re) - matmul(a.im, b.im), matmul(a.re, b.im) + matmul(a.im, b.re)};
}
Pair adjoint(const Pair& a) { return {a.re.mT(), -a.im.mT()}; }

// X with H X = Z, by the real embedding of the complex system.
Pair solve(const Pair& h, const Pair& z) {
  const int64_t n = h.re.size(-1);
  Tensor top = cat({h.re, -h.im}, -1), bottom = cat({h.im, h.re}, -1);
  Tensor x = linalg_solve(cat({top, bottom}, -2), cat({z.re, z.im}, -2));
  return {x.narrow(-2, 0, n), x.narrow(-2, n, n)};
}

Tensor eig_backward(const Tensor& gL, const Tensor& gV, const Tensor& L, const Tensor& V) {
  const Pair v = split(V), l = split(L);
  const Pair vh = adjoint(v);
  const int64_t n = V.size(-1);
  Tensor eye_n = eye(n, v.re.options());
  Pair g{zeros_like(v.re), zeros_like(v.re)};
  if (gV.defined()) {
    const Pair x = mm(vh, split(gV));
    Pair y = mm(vh, v);  // V^H V diag(Re(X))
    Tensor re_diag = x.re.diagonal(0, -2, -1).unsqueeze(-2);
    y = {y.re * re_diag, y.im * re_diag};
    // E_ij = L_j - L_i; (X - Y) / conj(E) = (X - Y) E / |E|^2, zero on the diagonal.
    Tensor er = l.re.unsqueeze(-2) - l.re.unsqueeze(-1),
           ei = l.im.unsqueeze(-2) - l.im.unsqueeze(-1);
    Tensor den = where(eye_n.to(kBool), ones_like(er), er * er + ei * ei);
    Tensor off = (1 - eye_n) / den;
    Tensor dr = x.re - y.re, di = x.im - y.im;
    g = {(dr * er - di * ei) * off, (dr * ei + di * er) * off};
  }
  if (gL.defined()) {
    const Pair gl = split(gL);
    g = {g.re + diag_embed(gl.re), g.im + diag_embed(gl.im)};
  }
  return solve(vh, mm(g, vh)).re;
}

struct EigClosure {
  SavedVariable values, vectors;
  variable_list operator()(BackwardContext& ctx) const {
    const Tensor& gL = ctx.grad(0);
    const Tensor gV = ctx.grad(1);
    if (!gL.defined() && !gV.defined()) return {Tensor()};
    return {eig_backward(gL, gV, ctx.unpack(values), ctx.unpack(vectors))};
  }
};

std::tuple<Tensor, Tensor> eig_autograd(const Tensor& A) {
  std::tuple<Tensor, Tensor> r;
  {
    BelowAutograd below;
    r = linalg_eig_op().call(A);
  }
  if (!autograd::any_requires_grad({&A})) return r;
  auto node =
      autograd::make_function_node("LinalgEigBackward0", "linalg_eig", {&A}, EigClosure{}, true);
  autograd::set_history(std::get<0>(r), node);
  autograd::set_history(std::get<1>(r), node);
  node->closure().values = SavedVariable(std::get<0>(r), true);
  node->closure().vectors = SavedVariable(std::get<1>(r), true);
  return r;
}

// eigvals: the eigenvectors are recomputed below autograd for the derivative (gV = 0).
struct EigvalsClosure {
  SavedVariable a;
  variable_list operator()(BackwardContext& ctx) const {
    auto [L, V] = linalg_eig(ctx.unpack(a).detach());
    return {eig_backward(ctx.grad(0), Tensor(), L, V)};
  }
};

Tensor eigvals_autograd(const Tensor& A) {
  auto run = [&] { return linalg_eigvals_op().call(A); };
  if (!autograd::any_requires_grad({&A})) {
    BelowAutograd below;
    return run();
  }
  return autograd::record("LinalgEigvalsBackward0", "linalg_eigvals", {&A}, A, Tensor(),
                          EigvalsClosure{SavedVariable(A)}, run)
      .first;
}

}  // namespace

BRASA_REGISTER_KERNEL(linalg_eig_op, eig_autograd, Autograd)
BRASA_REGISTER_KERNEL(linalg_eigvals_op, eigvals_autograd, Autograd)

}  // namespace brasa::ops
