#pragma once
// CPU stub shared by the gather/scatter family (gather, scatter, scatter_add, index_select,
// index_add, index_copy, index_fill, take). Loops in backends/cpu/kernels/gather_kernels.cpp.
//
// Note [Gather/scatter geometry]
// Every op of the family is one walk over the elements of an int64 `index` tensor of n dims:
// at position c, `data` (the gathered-from or scattered-into tensor) is addressed with c except
// along `dim`, where the index value is used; `other` (gather's result or scatter's source) is
// addressed with c. index_select and friends reach this form with an index expanded (stride 0)
// along every dim but `dim`. Indices are checked before anything is written.

#include <cstdint>

#include "backends/cpu/stub.h"
#include "brasa/core/scalar.h"
#include "brasa/core/tensor.h"

namespace brasa::ops {

/// ScatterMul/Max/Min combine like ScatterAdd (bool: and/or/and); Max/Min propagate NaN.
enum class ScatterMode {
  Gather,
  Scatter,
  ScatterValue,
  ScatterAdd,
  ScatterMul,
  ScatterMax,
  ScatterMin
};

/// data, index and other share index's loop shape (data's size along dim is the bound);
/// `wrap_negative` accepts indices in [-size, size) as Python does; `op` names errors.
/// For ScatterValue, `other` is ignored and `value` is written. other and data share a dtype.
using ScatterGatherKernel = void (*)(ScatterMode mode, const Tensor& data, int64_t dim,
                                     const Tensor& index, const Tensor& other, const Scalar& value,
                                     bool wrap_negative, const char* op);

BRASA_DECLARE_STUB(scatter_gather_stub, ScatterGatherKernel);

/// index_select of contiguous tensors: out[o][k][:] = self[o][index[k]][:], rows of row_bytes
/// bytes; index values must already be checked to lie in [0, size).
using IndexSelectRowsKernel = void (*)(char* out, const char* self, const int64_t* index,
                                       int64_t count, int64_t outer, int64_t size,
                                       int64_t row_bytes);
BRASA_DECLARE_STUB(index_select_rows_stub, IndexSelectRowsKernel);

/// Counts the non-zero elements of a contiguous tensor; with `coords` non-null also writes their
/// row-major coordinates (count x max(dim, 0) int64).
using NonzeroKernel = int64_t (*)(const Tensor& self, int64_t* coords);
BRASA_DECLARE_STUB(nonzero_stub, NonzeroKernel);

}  // namespace brasa::ops
