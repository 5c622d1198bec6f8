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

}  // namespace brasa::ops
