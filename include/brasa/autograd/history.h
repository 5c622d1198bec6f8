#pragma once
// Connecting tensors to the backward graph: the edge a tensor's gradient flows along, recording a
// node as a tensor's grad_fn, and the in-place rules. Used by derivatives and custom Functions.

#include <initializer_list>

#include "brasa/autograd/grad_mode.h"
#include "brasa/autograd/node.h"

namespace brasa::autograd {

/// The edge t's gradient flows along: its grad_fn, its leaf accumulator, or none.
BRASA_API Edge gradient_edge(const Tensor& t);
/// gradient_edge of each tensor (undefined tensors give empty edges).
BRASA_API edge_list collect_next_edges(std::initializer_list<const Tensor*> ts);
BRASA_API edge_list collect_next_edges(ArrayRef<Tensor> ts);
/// The AccumulateGrad node of a leaf that requires grad (created on first use).
BRASA_API std::shared_ptr<Node> grad_accumulator(const Tensor& leaf);

/// Makes `fn` the grad_fn of a fresh output `t` (records its metadata as fn's next input).
BRASA_API void set_history(const Tensor& t, const std::shared_ptr<Node>& fn);
/// Makes `fn` the new grad_fn of `t` after an in-place op; on a view, the view's base is rebased
/// too (its grad_fn becomes a CopySlices that runs fn on the view's region).
BRASA_API void rebase_history(const Tensor& t, const std::shared_ptr<Node>& fn);
/// Throws ValueError if `t` is a leaf that requires grad (in-place ops on those are refused), and
/// RuntimeError if `t` is a view whose creation meta forbids the write: made in no-grad mode or
/// InferenceMode of a tensor that requires grad, one of several outputs of a multi-output view op
/// (split, chunk, unbind), or returned by a custom Function (Note [View creation meta]).
BRASA_API void check_inplace(const Tensor& t, const char* op);

/// libtorch's torch::autograd::CreationMeta (the kind lives in core: make_view records it).
using ::brasa::CreationMeta;
/// The mode view `t` was made in (Note [View creation meta]); DEFAULT for a tensor that is no view.
inline CreationMeta creation_meta(const Tensor& t) {
  return t.is_view() ? t.unsafeGetTensorImpl()->creation_meta() : CreationMeta::DEFAULT;
}

/// Whether grad mode is on and any defined tensor requires grad.
inline bool any_requires_grad(std::initializer_list<const Tensor*> ts) {
  return will_record_grad(ts);
}

/// A tensor sharing t's storage and geometry with no autograd history (Tensor::detach).
BRASA_API Tensor shallow_alias(const Tensor& t);

}  // namespace brasa::autograd
