#pragma once
// Advanced (tensor) indexing for Tensor::index / index_put_ (ops/index/indexing.cpp), done as a
// take/scatter over the element offsets of the indexed view.

#include <vector>

#include "brasa/core/tensor.h"

namespace brasa::ops {

/// A tensor index left after basic indexing: integer (int64) indexes dim `dim` of the view, a
/// bool/uint8 mask indexes dims [dim, dim + mask.dim()).
struct AdvancedIndex {
  int64_t dim;
  Tensor index;
};

/// view[indices] as a new tensor (PyTorch's layout: the broadcast index shape replaces the indexed
/// dims when they are adjacent, else goes first). Throws IndexError for an index out of range,
/// a mask of the wrong shape, or index shapes that don't broadcast.
Tensor advanced_index(const Tensor& view, const std::vector<AdvancedIndex>& indices);
/// view[indices] = value (broadcast to the result's shape, same dtype as view), or += when
/// accumulate (repeated indices add up).
void advanced_index_put(const Tensor& view, const std::vector<AdvancedIndex>& indices,
                        const Tensor& value, bool accumulate);
void advanced_index_fill(const Tensor& view, const std::vector<AdvancedIndex>& indices,
                         const Scalar& value);

}  // namespace brasa::ops
