#pragma once
// cummax, cummin and logcumsumexp (Note [Op declarations]): scans along one dim with kernels in
// backends/cpu/kernels/cumulative_kernels.cpp; defined in cumulative_ops.cpp, derivatives in
// cumulative_grad.cpp.

#include <tuple>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

BRASA_DECLARE_OP(cummax_op, "cummax",
                 "cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)",
                 std::tuple<Tensor, Tensor>(const Tensor&, int64_t));
BRASA_DECLARE_OP(cummin_op, "cummin",
                 "cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)",
                 std::tuple<Tensor, Tensor>(const Tensor&, int64_t));
BRASA_DECLARE_OP(logcumsumexp_op, "logcumsumexp", "logcumsumexp(Tensor self, int dim) -> Tensor",
                 Tensor(const Tensor&, int64_t));

}  // namespace brasa::ops
