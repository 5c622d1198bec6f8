#pragma once
// Low-level tensor construction used by kernels of every backend (no dispatch).

#include "brasa/core/tensor.h"

namespace brasa::detail {

/// A new contiguous tensor with uninitialised contents on `device` (meta: no bytes).
BRASA_API Tensor empty_generic(IntArrayRef sizes, ScalarType dtype, Device device);
/// A new tensor with the given strides; the storage covers the largest reachable offset.
BRASA_API Tensor empty_strided_generic(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                                       Device device);
/// A tensor viewing `base`'s storage with new geometry (shares the version counter; records base).
BRASA_API Tensor make_view(const Tensor& base, IntArrayRef sizes, IntArrayRef strides,
                           int64_t storage_offset);
/// Bytes needed to hold a tensor of these sizes and strides; throws on overflow or negative sizes.
BRASA_API size_t storage_nbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize,
                                const char* op);
/// A 0-d tensor holding `s`, flagged as a wrapped number for type promotion.
BRASA_API Tensor wrap_scalar(const Scalar& s, Device device = Device(kCPU));
/// Writes s converted to `dtype` at dst (one element of CPU memory).
BRASA_API void store_scalar(const Scalar& s, ScalarType dtype, void* dst);
/// Wraps a negative dim and checks range: "op: dim 3 is out of range for a tensor of 2 dims".
BRASA_API int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op);
/// Dense strides that keep t's dim order (by decreasing stride): t's own strides when t is
/// non-overlapping and dense, the row-major strides when t is contiguous. Used by clone and the
/// _like factories (PyTorch's preserve_format).
BRASA_API DimVector dense_strides_like(const Tensor& t);
/// Row-major strides for sizes.
BRASA_API DimVector contiguous_strides(IntArrayRef sizes);

}  // namespace brasa::detail
