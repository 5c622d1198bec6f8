// Derivatives of the product ops in mm_ops.cpp (addmm/mm, baddbmm/bmm, addmv/mv, dot). matmul,
// linear, einsum, outer, bilinear and cdist are composites of these and views, so need none.
// Gradients are products too, so they differentiate again (double backward).

#include "autograd/function_node.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/pointwise.h"
#include "ops/linalg/mm_ops.h"

namespace brasa::ops {

using ProductSig = Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&,
                          const Scalar&);

namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using autograd::variable_list;

Tensor scaled(Tensor t, const Scalar& s) { return s.toDouble() == 1.0 ? std::move(t) : t * s; }

// grads of a @ b (self-free part) for the three shapes of product.
enum class Kind { MM, BMM, MV };

bool is_transposed(const Tensor& m) {
  return m.dim() == 2 && m.stride(0) == 1 && m.stride(1) == m.size(0) && m.size(0) > 1 &&
         m.size(1) > 1;
}

// a_t/b_t: whether a/b were transposed matrices in the forward.
std::pair<Tensor, Tensor> product_grads(Kind kind, const Tensor& g, const Tensor& a,
                                        const Tensor& b, bool need_a, bool need_b, bool a_t,
                                        bool b_t) {
  Tensor ga, gb;
  switch (kind) {
    case Kind::MM:
      // A transposed operand (linear's weight.t()) gets its gradient computed transposed, so it
      // arrives contiguous at the weight.
      if (need_a) ga = a_t ? mm(b, g.t()).t() : mm(g, b.t());
      if (need_b) gb = b_t ? mm(g.t(), a).t() : mm(a.t(), g);
      break;
    case Kind::BMM:
      if (need_a) ga = bmm(g, b.transpose(1, 2));
      if (need_b) gb = bmm(a.transpose(1, 2), g);
      break;
    case Kind::MV:
      if (need_a) ga = outer(g, b);
      if (need_b) gb = mv(a.t(), g);
      break;
  }
  return {ga, gb};
}

Tensor product_ag(Op<ProductSig>& op, Kind kind, const char* node_name, const Tensor& self,
                  const Tensor& a, const Tensor& b, const Scalar& beta, const Scalar& alpha) {
  if (!autograd::any_requires_grad({&self, &a, &b})) {
    BelowAutograd below;
    return op.call(self, a, b, beta, alpha);
  }
  const bool need_a = a.requires_grad(), need_b = b.requires_grad();
  auto node = autograd::make_function_node(
      node_name, op.name().c_str(), {&self, &a, &b},
      [kind, beta, alpha, sa = need_b ? SavedVariable(a) : SavedVariable(),
       sb = need_a ? SavedVariable(b) : SavedVariable(), a_t = is_transposed(a),
       b_t = is_transposed(b)](BackwardContext& ctx) -> variable_list {
        const Tensor& g = ctx.grad(0);
        auto [ga, gb] = product_grads(kind, g, ctx.unpack(sa), ctx.unpack(sb), ctx.needs(1),
                                      ctx.needs(2), a_t, b_t);
        return {ctx.needs(0) ? scaled(g, beta) : Tensor(), ga.defined() ? scaled(ga, alpha) : ga,
                gb.defined() ? scaled(gb, alpha) : gb};
      });
  Tensor r;
  {
    BelowAutograd below;
    r = op.call(self, a, b, beta, alpha);
  }
  autograd::set_history(r, node);
  return r;
}

Tensor addmm_ag(const Tensor& self, const Tensor& a, const Tensor& b, const Scalar& beta,
                const Scalar& alpha) {
  return product_ag(addmm_op(), Kind::MM, self.defined() ? "AddmmBackward0" : "MmBackward0", self,
                    a, b, beta, alpha);
}
Tensor baddbmm_ag(const Tensor& self, const Tensor& a, const Tensor& b, const Scalar& beta,
                  const Scalar& alpha) {
  return product_ag(baddbmm_op(), Kind::BMM, self.defined() ? "BaddbmmBackward0" : "BmmBackward0",
                    self, a, b, beta, alpha);
}
Tensor addmv_ag(const Tensor& self, const Tensor& a, const Tensor& b, const Scalar& beta,
                const Scalar& alpha) {
  return product_ag(addmv_op(), Kind::MV, self.defined() ? "AddmvBackward0" : "MvBackward0", self,
                    a, b, beta, alpha);
}

Tensor dot_ag(const Tensor& self, const Tensor& other) {
  if (!autograd::any_requires_grad({&self, &other})) {
    BelowAutograd below;
    return dot_op().call(self, other);
  }
  auto node = autograd::make_function_node(
      "DotBackward0", "dot", {&self, &other},
      [sa = SavedVariable(self), sb = SavedVariable(other)](BackwardContext& ctx) -> variable_list {
        const Tensor& g = ctx.grad(0);
        return {ctx.needs(0) ? g * ctx.unpack(sb) : Tensor(),
                ctx.needs(1) ? g * ctx.unpack(sa) : Tensor()};
      });
  Tensor r;
  {
    BelowAutograd below;
    r = dot_op().call(self, other);
  }
  autograd::set_history(r, node);
  return r;
}

}  // namespace

BRASA_REGISTER_KERNEL(addmm_op, addmm_ag, Autograd)
BRASA_REGISTER_KERNEL(baddbmm_op, baddbmm_ag, Autograd)
BRASA_REGISTER_KERNEL(addmv_op, addmv_ag, Autograd)
BRASA_REGISTER_KERNEL(dot_op, dot_ag, Autograd)

}  // namespace brasa::ops
