// all, any and count_nonzero have bool/integral results: no derivatives.

#include "autograd/function_node.h"
#include "ops/reduce/reduce_ops.h"

namespace brasa::ops {

BRASA_NON_DIFFERENTIABLE(all_op)
BRASA_NON_DIFFERENTIABLE(any_op)
BRASA_NON_DIFFERENTIABLE(count_nonzero_op)

}  // namespace brasa::ops
