#pragma once
// Shared pieces of the reduction family's derivatives.

#include "autograd/function_node.h"
#include "brasa/core/empty.h"

namespace brasa::ops {

/// The gradient of a reduction over `dims` (empty: all dims) broadcast back to `sizes`: reduced
/// dims are re-inserted when !keepdim, then expanded.
Tensor expand_reduced(const Tensor& g, IntArrayRef sizes, IntArrayRef dims, bool keepdim);
/// Same re-insertion for a value of the reduction's result shape (e.g. the result itself).
Tensor unsqueeze_reduced(const Tensor& t, int64_t ndim, IntArrayRef dims, bool keepdim);
/// Number of elements reduced over.
int64_t reduced_count(IntArrayRef sizes, IntArrayRef dims);

/// Gradient of values selected along `dim` (wrapped) at `indices` (max.dim, sort, topk; reduced
/// dim kept iff keepdim) for an input of `sizes`: zeros with g scattered to the indices.
Tensor select_backward(const Tensor& g, const Tensor& indices, IntArrayRef sizes, int64_t dim,
                       bool keepdim);

/// Closure of a one-input derivative: formula(grad, saved input, saved result) (either saved
/// tensor may be absent).
template <class F>
struct UnaryClosure {
  autograd::SavedVariable x, y;
  F formula;
  autograd::variable_list operator()(autograd::BackwardContext& ctx) const {
    return {formula(ctx.grad(0), ctx.unpack(x), ctx.unpack(y))};
  }
};

/// Makes a node running `formula` the grad_fn of `result` (an output of op(self)), saving self
/// and/or the result for it.
template <class F>
void record_unary(const char* node, const char* op, const Tensor& self, const Tensor& result,
                  bool save_self, bool save_result, F formula) {
  auto fn = autograd::make_function_node(
      node, op, {&self},
      UnaryClosure<F>{save_self ? autograd::SavedVariable(self) : autograd::SavedVariable(),
                      autograd::SavedVariable(), std::move(formula)},
      save_self || save_result);
  autograd::set_history(result, fn);
  if (save_result) fn->closure().y = autograd::SavedVariable(result, true);
}

}  // namespace brasa::ops
