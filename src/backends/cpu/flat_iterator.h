#pragma once
// FlatIterator: the TensorIterator interface (common_dtype, for_each) over operands that are
// already contiguous, of one shape and one dtype, with an output allocated by the caller.
//
// Note [Flat fast path]
// Most elementwise calls are exactly that case, and for small tensors building a TensorIterator
// (broadcast, promotion, permutation, coalescing, operand bookkeeping) costs more than the math.
// Kernels see either through an IterRef (Note [One loop per kernel] in iter_ref.h), so the same
// loop code serves both; the op's front end decides which one to build (see
// ops/pointwise/binary_ops.cpp).

#include <cstdint>

#include "backends/cpu/tensor_iterator.h"
#include "brasa/core/dtype.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {

class FlatIterator {
 public:
  static constexpr int kMaxOperands = 4;
  /// data[0] is the output; all operands hold n contiguous elements of the given item sizes.
  FlatIterator(int ntensors, char* const* data, const int64_t* itemsizes, int64_t n,
               ScalarType common_dtype, ScalarType output_dtype)
      : ntensors_(ntensors), n_(n), common_dtype_(common_dtype), output_dtype_(output_dtype) {
    for (int i = 0; i < ntensors; ++i) {
      data_[i] = data[i];
      strides_[i] = itemsizes[i];
    }
  }
  ScalarType common_dtype() const { return common_dtype_; }
  ScalarType output_dtype(int = 0) const { return output_dtype_; }
  ScalarType input_dtype(int = 0) const { return common_dtype_; }
  int64_t numel() const { return n_; }

  /// Runs `loop` over every element, in parallel when numel >= grain_size.
  void for_each(Loop1d loop, void* ctx, int64_t grain_size = 32768) const {
    if (n_ == 0) return;
    if (n_ < grain_size) {
      char* ptrs[kMaxOperands] = {};
      for (int i = 0; i < ntensors_; ++i) ptrs[i] = data_[i];
      loop(ptrs, strides_, n_, ctx);
      return;
    }
    parallel_for(0, n_, grain_size, [&](int64_t b, int64_t e) {
      char* ptrs[kMaxOperands] = {};
      for (int i = 0; i < ntensors_; ++i) ptrs[i] = data_[i] + b * strides_[i];
      loop(ptrs, strides_, e - b, ctx);
    });
  }

 private:
  int ntensors_;
  char* data_[kMaxOperands] = {};
  int64_t strides_[kMaxOperands] = {};
  int64_t n_;
  ScalarType common_dtype_, output_dtype_;
};

}  // namespace brasa::cpu
