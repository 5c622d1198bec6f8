#pragma once
// ReduceIter: the reduction engine's geometry. Given an input, the reduced dims and one or two
// outputs (values, and indices for max/min/argmax), it drops size-1 dims, splits the rest into kept
// and reduced groups, orders each group innermost-first and coalesces dims that step through memory
// as one. The loops over this geometry are templates in reduce_loops.h (compiled per CPU
// capability).
//
// Note [Reduction order]
// Commutative reductions (sum, amax, ...) order reduced dims by input stride, so the innermost
// reduced run is the contiguous one. Index-tracking reductions (argmax, max(dim)) keep the reduced
// dims in logical order: the flat position within the reduced group then equals PyTorch's index,
// and visiting positions in increasing order makes "first occurrence wins" hold for ties.

#include <cstdint>

#include "brasa/core/tensor.h"

namespace brasa::cpu {

/// A bit per input dim (bit d set: dim d is reduced).
using DimMask = uint64_t;

class BRASA_API ReduceIter {
 public:
  static constexpr int kMaxOutputs = 2;
  /// `outs` hold the result (keepdim or not, per `keepdim`); they must be allocated with the result
  /// shape. Index-tracking ops pass keep_logical_order = true (Note [Reduction order]).
  ReduceIter(const Tensor& in, ArrayRef<Tensor> outs, DimMask mask, bool keepdim,
             bool keep_logical_order);

  const char* in_data() const { return in_data_; }
  char* out_data(int i) const { return out_data_[i]; }
  int noutputs() const { return noutputs_; }
  ScalarType in_dtype() const { return in_dtype_; }
  ScalarType out_dtype(int i) const { return out_dtype_[i]; }
  int64_t num_outputs() const { return num_outputs_; }
  int64_t num_reduced() const { return num_reduced_; }

  // Kept and reduced groups, innermost first; input strides in elements, output strides in bytes.
  DimVector kept_sizes, kept_in_strides, kept_out_strides[kMaxOutputs];
  DimVector red_sizes, red_in_strides;

 private:
  const char* in_data_ = nullptr;
  char* out_data_[kMaxOutputs] = {};
  int noutputs_ = 0;
  ScalarType in_dtype_ = ScalarType::Undefined;
  ScalarType out_dtype_[kMaxOutputs] = {ScalarType::Undefined, ScalarType::Undefined};
  int64_t num_outputs_ = 1, num_reduced_ = 1;
};

/// The dtype a kernel dispatches on (Note [Capability dtypes] in stub.h).
inline ScalarType kernel_dtype(const ReduceIter& it) { return it.in_dtype(); }

/// Mask of the dims in `dims` (wrapped; empty = every dim). Throws IndexError for a dim out of
/// range and ValueError for a repeated dim, naming `op`.
BRASA_API DimMask make_dim_mask(IntArrayRef dims, int64_t ndim, const char* op);
/// The result shape of reducing `sizes` over `mask`.
BRASA_API DimVector reduced_shape(IntArrayRef sizes, DimMask mask, bool keepdim);

}  // namespace brasa::cpu
