#pragma once
// The reduction family's kernel interface (called from src/ops/reduce; loops in
// reduce_kernels.cpp and reduce_kernels_stats.cpp).

#include "backends/cpu/reduce.h"
#include "backends/cpu/stub.h"
#include "backends/cpu/tensor_iterator.h"

namespace brasa::ops {

/// Per-op scalar arguments of a reduction kernel: mean's count, var's correction, norm's p, ...
struct ReduceParams {
  double p = 0;
  bool flag = false;
};
using ReduceKernel = void (*)(const cpu::ReduceIter& it, const ReduceParams& params);

/// One stub per reduction.
BRASA_DECLARE_STUB(sum_stub, ReduceKernel);
BRASA_DECLARE_STUB(prod_stub, ReduceKernel);
BRASA_DECLARE_STUB(mean_stub, ReduceKernel);
BRASA_DECLARE_STUB(amax_stub, ReduceKernel);
BRASA_DECLARE_STUB(amin_stub, ReduceKernel);
BRASA_DECLARE_STUB(max_dim_stub, ReduceKernel);
BRASA_DECLARE_STUB(min_dim_stub, ReduceKernel);
BRASA_DECLARE_STUB(argmax_stub, ReduceKernel);
BRASA_DECLARE_STUB(argmin_stub, ReduceKernel);
BRASA_DECLARE_STUB(var_stub, ReduceKernel);
BRASA_DECLARE_STUB(norm_stub, ReduceKernel);
BRASA_DECLARE_STUB(logsumexp_stub, ReduceKernel);
BRASA_DECLARE_STUB(all_stub, ReduceKernel);
BRASA_DECLARE_STUB(any_stub, ReduceKernel);
BRASA_DECLARE_STUB(count_nonzero_stub, ReduceKernel);

/// isclose over an (out: bool, a, b) iterator whose inputs share one dtype (for allclose).
using IscloseKernel = void (*)(cpu::TensorIterator& it, double rtol, double atol, bool equal_nan);
BRASA_DECLARE_STUB(isclose_stub, IscloseKernel);

}  // namespace brasa::ops
