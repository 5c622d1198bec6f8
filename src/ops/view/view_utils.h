#pragma once
// Shape arithmetic shared by the view ops: -1 inference and the strides a view would need.

#include <optional>

#include "brasa/core/tensor.h"

namespace brasa::ops {

/// `shape` with its single -1 replaced so that it holds `numel` elements; throws ValueError on a
/// second -1, a negative size, an ambiguous -1 (zero elements) or a numel mismatch.
DimVector infer_size(IntArrayRef shape, int64_t numel, const char* op);

/// Strides that let a tensor of (sizes, strides) be viewed as new_sizes without copying, or
/// nullopt when some new dim would span two non-mergeable (contiguous) subspaces.
std::optional<DimVector> view_strides(IntArrayRef sizes, IntArrayRef strides,
                                      IntArrayRef new_sizes);

/// Wraps every dim of `dims` and marks it in a bitmask; throws ValueError on a repeated dim.
uint64_t dims_to_bitset(IntArrayRef dims, int64_t ndim, const char* op);

}  // namespace brasa::ops
