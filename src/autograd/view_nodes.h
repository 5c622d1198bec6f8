#pragma once
// Nodes that relate a view's gradient to its base's (internal).

#include "brasa/autograd/node.h"

namespace brasa::autograd {

/// grad_fn of a view rebuilt from its base: scatters the view's gradient into a zero gradient
/// of the base's shape at the view's place (AsStridedBackward0). Edges are set by the caller.
std::shared_ptr<Node> make_view_of_base_node(const Tensor& base, const Tensor& view);
/// grad_fn of a base after an in-place op `fn` on one of its views (CopySlices): runs fn on the
/// view's region of the base's gradient and passes the rest through. Edges are set by the caller.
std::shared_ptr<Node> make_copy_slices_node(const Tensor& base, const Tensor& view,
                                            std::shared_ptr<Node> fn);

}  // namespace brasa::autograd
