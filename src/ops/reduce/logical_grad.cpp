// all, any and count_nonzero have bool/integral results: no derivatives.

#include "autograd/function_node.h"

namespace brasa::ops {

using LogicalSig = Tensor(const Tensor&, IntArrayRef, bool);
BRASA_DECLARE_OP(all_op, LogicalSig)
BRASA_DECLARE_OP(any_op, LogicalSig)
BRASA_DECLARE_OP(count_nonzero_op, Tensor(const Tensor&, IntArrayRef))

BRASA_NON_DIFFERENTIABLE(all_op)
BRASA_NON_DIFFERENTIABLE(any_op)
BRASA_NON_DIFFERENTIABLE(count_nonzero_op)

}  // namespace brasa::ops
