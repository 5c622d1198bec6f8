// Derivatives of _scaled_dot_product_attention_forward (its output; logsumexp and philox are
// non-differentiable) and of scaled_dot_product_attention_backward.
//
// The forward's gradient is the blockwise backward op, which replays dropout from the saved philox
// state. Where a gradient must itself be differentiable (create_graph) or a float attn_mask needs
// its gradient, the backward is instead recomputed from the defining formula with differentiable
// ops (softmax(q k^T * scale + mask) v), materialising the L x S probabilities; that path does not
// support dropout.

#include <cmath>
#include <limits>
#include <optional>
#include <tuple>

#include "autograd/function_node.h"
#include "backends/cpu/kernels/attention_kernels.h"
#include "brasa/ops/attention.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/pointwise.h"
#include "ops/attention/attention_ops.h"

namespace brasa::ops {

using Triple = std::tuple<Tensor, Tensor, Tensor>;
using OptD = std::optional<double>;

namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

// g summed over the batch dims `shape` was broadcast along.
Tensor sum_to(const Tensor& g, IntArrayRef shape) {
  const int64_t lead = g.dim() - int64_t(shape.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < g.dim() - 2; ++d)
    if (d < lead || (shape[size_t(d - lead)] == 1 && g.size(d) != 1)) dims.push_back(d);
  Tensor r = dims.empty() ? g : g.sum(dims, true);
  return lead > 0 ? r.reshape(shape) : r;
}

Tensor neg_inf_where_false(const Tensor& keep, ScalarType dt) {
  return where(keep, scalar_tensor(0.0, dt),
               scalar_tensor(-std::numeric_limits<double>::infinity(), dt));
}

struct MathGrads {
  Tensor q, k, v, scores;  // scores: gradient of the pre-softmax scores (= the float mask's)
};

MathGrads math_backward(const Tensor& g, const Tensor& q, const Tensor& k, const Tensor& v,
                        const Tensor& mask, double dropout_p, bool is_causal, OptD scale_opt) {
  BRASA_CHECK_NOT_IMPLEMENTED(dropout_p == 0.0,
                              "scaled_dot_product_attention: double backward and attn_mask "
                              "gradients are not implemented with dropout_p > 0");
  const double scale = scale_opt ? *scale_opt : 1.0 / std::sqrt(double(q.size(-1)));
  const int64_t L = q.size(-2), S = k.size(-2);
  Tensor s = matmul(q, k.transpose(-2, -1)) * scale;
  if (is_causal)
    s = s + neg_inf_where_false(ones({L, S}, TensorOptions(kBool).device(s.device())).tril(),
                                s.scalar_type());
  if (mask.defined())
    s = s + (mask.scalar_type() == kBool ? neg_inf_where_false(mask, s.scalar_type()) : mask);
  Tensor e = (s - s.detach().amax({-1}, true)).exp();
  Tensor p = e / e.sum({-1}, true);
  Tensor dp = matmul(g, v.transpose(-2, -1));
  Tensor ds = p * (dp - (dp * p).sum({-1}, true));
  return {sum_to(matmul(ds, k) * scale, q.sizes()),
          sum_to(matmul(ds.transpose(-2, -1), q) * scale, k.sizes()),
          sum_to(matmul(p.transpose(-2, -1), g), v.sizes()), ds};
}

struct ForwardClosure {
  SavedVariable q, k, v, mask, out, lse, philox;
  double dropout_p;
  bool is_causal;
  OptD scale;
  variable_list operator()(BackwardContext& ctx) const {
    const Tensor& g = ctx.grad(0);
    Tensor tq = ctx.unpack(q), tk = ctx.unpack(k), tv = ctx.unpack(v), tm = ctx.unpack(mask);
    if (ctx.needs(3)) {
      MathGrads m = math_backward(g, tq, tk, tv, tm, dropout_p, is_causal, scale);
      return {m.q, m.k, m.v, m.scores};
    }
    auto [gq, gk, gv] =
        scaled_dot_product_attention_backward(g, tq, tk, tv, tm, ctx.unpack(out), ctx.unpack(lse),
                                              ctx.unpack(philox), dropout_p, is_causal, scale);
    return {gq, gk, gv, Tensor()};
  }
};

Triple forward_ag(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                  double dropout_p, bool is_causal, OptD scale, std::optional<Generator> gen) {
  Triple r;
  {
    BelowAutograd below;
    r = sdpa_forward_op().call(q, k, v, mask, dropout_p, is_causal, scale, std::move(gen));
  }
  if (!autograd::any_requires_grad({&q, &k, &v, &mask})) return r;
  auto& [out, lse, philox] = r;
  auto node = autograd::make_function_node(
      "ScaledDotProductAttentionBackward0", "_scaled_dot_product_attention_forward",
      {&q, &k, &v, &mask},
      ForwardClosure{SavedVariable(q), SavedVariable(k), SavedVariable(v), SavedVariable(mask),
                     SavedVariable(), SavedVariable(lse), SavedVariable(philox), dropout_p,
                     is_causal, scale});
  autograd::set_history(out, node);
  node->closure().out = SavedVariable(out, true);
  return r;
}

Triple backward_ag(const Tensor& g, const Tensor& q, const Tensor& k, const Tensor& v,
                   const Tensor& mask, const Tensor& out, const Tensor& lse, const Tensor& philox,
                   double dropout_p, bool is_causal, OptD scale) {
  if (!autograd::any_requires_grad({&g, &q, &k, &v, &mask})) {
    BelowAutograd below;
    return sdpa_backward_op().call(g, q, k, v, mask, out, lse, philox, dropout_p, is_causal, scale);
  }
  MathGrads m = math_backward(g, q, k, v, mask, dropout_p, is_causal, scale);
  return {m.q, m.k, m.v};
}

}  // namespace

BRASA_REGISTER_KERNEL(sdpa_forward_op, forward_ag, Autograd)
BRASA_REGISTER_KERNEL(sdpa_backward_op, backward_ag, Autograd)

}  // namespace brasa::ops
