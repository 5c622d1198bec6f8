// geqrf has no derivative (libtorch has none either); householder_product and ormqr are
// composites (householder.cpp) that autograd differentiates through matmul.
#include "autograd/function_node.h"
#include "ops/linalg/householder_ops.h"

namespace brasa::ops {

BRASA_NON_DIFFERENTIABLE(geqrf_op)

}  // namespace brasa::ops
