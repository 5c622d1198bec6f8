#pragma once
// Shared by the pool family's derivatives: records a one-input node whose gradient is a dispatched
// backward op applied to the incoming gradient.

#include <utility>
#include <vector>

#include "autograd/function_node.h"

namespace brasa::ops::pool {

using Ints = std::vector<int64_t>;
inline Ints to_vec(IntArrayRef a) { return Ints(a.begin(), a.end()); }

/// Makes `back(grad, ctx)` the gradient of `self` for output `r` (already computed below
/// autograd); `back` unpacks what it saved through ctx.
template <class Back>
void record(const char* node, const char* op, const Tensor& self, const Tensor& r, Back back,
            bool has_saved = true) {
  auto fn = autograd::make_function_node(
      node, op, {&self},
      [back = std::move(back)](autograd::BackwardContext& ctx) -> autograd::variable_list {
        return {ctx.needs(0) ? back(ctx.grad(0), ctx) : Tensor()};
      },
      has_saved);
  autograd::set_history(r, fn);
}

}  // namespace brasa::ops::pool
