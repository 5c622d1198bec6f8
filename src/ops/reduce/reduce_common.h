#pragma once
// Shared front end of the reduction ops: dim checking, result allocation (fresh or `out=`), over
// the CPU stubs of backends/cpu/kernels/reduce_kernels.h. Each op's kernel is written once, as a
// template over the family's runner: run_reduction (CPU: the result, then the loop) or reduce_meta
// (Meta: the same result, no loop), registered at CPU and Meta (Note [Meta functions]).

#include <tuple>

#include "backends/cpu/kernels/reduce_kernels.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

/// Reduces `self` over `mask` with `stub` into a result of `dtype`: a new tensor, or `out` when it
/// is defined (resized when it has no elements; a dtype mismatch goes through a temporary).
Tensor run_reduction(cpu::DispatchStub<ReduceKernel>& stub, const char* op, const Tensor& self,
                     cpu::DimMask mask, bool keepdim, ScalarType dtype, const Tensor& out = {},
                     const ReduceParams& params = {});
/// run_reduction's result without the loop: the meta function of every reduction (the stub and
/// params are unused).
Tensor reduce_meta(cpu::DispatchStub<ReduceKernel>& stub, const char* op, const Tensor& self,
                   cpu::DimMask mask, bool keepdim, ScalarType dtype, const Tensor& out = {},
                   const ReduceParams& params = {});
using ReduceRunner = decltype(&run_reduction);
/// Values (dtype of self) and int64 indices, for max(dim) / min(dim); with want_values false
/// (argmax) only the indices are computed and the first element is undefined.
std::tuple<Tensor, Tensor> run_index_reduction(cpu::DispatchStub<ReduceKernel>& stub,
                                               const char* op, const Tensor& self,
                                               cpu::DimMask mask, bool keepdim, bool want_values);
/// run_index_reduction's results without the loop (meta).
std::tuple<Tensor, Tensor> reduce_index_meta(cpu::DispatchStub<ReduceKernel>& stub, const char* op,
                                             const Tensor& self, cpu::DimMask mask, bool keepdim,
                                             bool want_values);
using IndexReduceRunner = decltype(&run_index_reduction);
/// For ops without an identity (amax, max, argmax, ...) on an empty input: ValueError when no dim
/// was given (`whole`), IndexError naming the reduced dim of size 0 otherwise (like PyTorch).
void check_nonempty_reduction(const Tensor& self, cpu::DimMask mask, bool whole, const char* op);
/// Resizes an `out=` tensor with no elements to `shape`; otherwise checks the shape matches.
void resize_output(const Tensor& out, IntArrayRef shape, const char* op);

}  // namespace brasa::ops
