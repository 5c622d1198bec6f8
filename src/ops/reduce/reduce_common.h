#pragma once
// Shared front end of the reduction ops: dim checking, result allocation (fresh or `out=`), over
// the CPU stubs of backends/cpu/kernels/reduce_kernels.h. Every op's CPU and Meta kernels are the
// same function: on meta tensors only the result's shape and dtype are computed.

#include <tuple>

#include "backends/cpu/kernels/reduce_kernels.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

/// Reduces `self` over `mask` with `stub` into a result of `dtype`: a new tensor, or `out` when it
/// is defined (resized when it has no elements; a dtype mismatch goes through a temporary).
Tensor run_reduction(cpu::DispatchStub<ReduceKernel>& stub, const char* op, const Tensor& self,
                     cpu::DimMask mask, bool keepdim, ScalarType dtype, const Tensor& out = {},
                     const ReduceParams& params = {});
/// Values (dtype of self) and int64 indices, for max(dim) / min(dim); with want_values false
/// (argmax) only the indices are computed and the first element is undefined.
std::tuple<Tensor, Tensor> run_index_reduction(cpu::DispatchStub<ReduceKernel>& stub,
                                               const char* op, const Tensor& self,
                                               cpu::DimMask mask, bool keepdim, bool want_values);
/// For ops without an identity (amax, max, argmax, ...) on an empty input: ValueError when no dim
/// was given (`whole`), IndexError naming the reduced dim of size 0 otherwise (like PyTorch).
void check_nonempty_reduction(const Tensor& self, cpu::DimMask mask, bool whole, const char* op);
/// Resizes an `out=` tensor with no elements to `shape`; otherwise checks the shape matches.
void resize_output(const Tensor& out, IntArrayRef shape, const char* op);

}  // namespace brasa::ops
