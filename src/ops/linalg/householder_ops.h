#pragma once
// geqrf as an op (Note [Op declarations]): householder.cpp (kernel), householder_grad.cpp (marks
// it non-differentiable, as in libtorch).

#include <tuple>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

BRASA_DECLARE_OP(geqrf_op, "geqrf", "geqrf(Tensor self) -> (Tensor a, Tensor tau)",
                 std::tuple<Tensor, Tensor>(const Tensor&));

}  // namespace brasa::ops
