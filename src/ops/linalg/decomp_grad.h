#pragma once
// Helpers of the matrix-function derivatives (lu_grad.cpp, factor_grad.cpp, spectral_grad.cpp).

#include <tuple>
#include <type_traits>
#include <vector>

#include "autograd/function_node.h"
#include "brasa/core/empty.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/linalg_decomp.h"
#include "brasa/ops/pointwise.h"

namespace brasa::ops::linalg_grad {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

/// The batch of transposed matrices.
inline Tensor mT(const Tensor& t) { return t.transpose(-2, -1); }
/// n x n identity of t's dtype and device.
inline Tensor eye_like(const Tensor& t, int64_t n) { return eye(n, t.options()); }
/// A batch of vectors [..., k] as diagonal matrices [..., k, k].
inline Tensor diag_matrix(const Tensor& v) { return v.unsqueeze(-1) * eye_like(v, v.size(-1)); }
/// X R^{-T} for upper-triangular (or any invertible) R.
inline Tensor times_inverse_transpose(const Tensor& X, const Tensor& R) {
  return linalg_solve(mT(R), X, /*left=*/false);
}

/// A derivative that reads the op's own outputs: formula(ctx, outputs) with the outputs unpacked
/// from SavedVariables made after they got their history (so that they carry it again in double
/// backward).
template <class Formula>
struct WithSavedOutputs {
  std::vector<SavedVariable> outputs;
  Formula formula;
  variable_list operator()(BackwardContext& ctx) const {
    std::vector<Tensor> outs;
    for (const SavedVariable& o : outputs) outs.push_back(ctx.unpack(o));
    return formula(ctx, outs);
  }
};

/// Runs `run` below autograd and, when `needed`, makes a node running make_formula(result) the
/// grad_fn of each output (their indices in the node are their positions in the tuple); the
/// formula gets the outputs back as formula(ctx, outputs).
template <class Run, class MakeFormula>
auto record_outputs(const char* node_name, const char* op,
                    std::initializer_list<const Tensor*> inputs, bool needed, Run run,
                    MakeFormula make_formula) {
  decltype(run()) r;
  {
    BelowAutograd below;
    r = run();
  }
  if (!needed) return r;
  using Formula = decltype(make_formula(r));
  auto node = autograd::make_function_node(node_name, op, inputs,
                                           WithSavedOutputs<Formula>{{}, make_formula(r)});
  std::vector<SavedVariable>& saved = node->closure().outputs;
  auto attach = [&](const Tensor& t) {
    autograd::set_history(t, node);
    saved.emplace_back(t, true);
  };
  if constexpr (std::is_same_v<decltype(r), Tensor>) {
    attach(r);
  } else {
    std::apply([&](auto&... t) { (attach(t), ...); }, r);
  }
  return r;
}

}  // namespace brasa::ops::linalg_grad
