#pragma once
// The copy family's dispatched ops (Note [Op declarations]); their CPU loops are behind
// backends/cpu/kernels/copy_kernels.h.

#include "brasa/core/scalar.h"
#include "brasa/core/tensor.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// The dispatched ops (Note [Op declarations]): kernels in copy.cpp, derivatives in copy_grad.cpp.
BRASA_DECLARE_OP(copy_op, "copy_", "copy_(Tensor(a!) self, Tensor src) -> Tensor(a!)",
                 Tensor(const Tensor&, const Tensor&));
BRASA_ATEN(copy_op,
           "_copy_from(src, self, bool=False); "
           "copy_(self, src, bool=False)");
BRASA_DECLARE_OP(fill_op, "fill_", "fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)",
                 Tensor(const Tensor&, const Scalar&));

}  // namespace brasa::ops
