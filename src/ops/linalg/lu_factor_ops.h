#pragma once
// The LU factorisation as an op (Note [Op declarations]): lu_factor.cpp (kernel),
// lu_factor_grad.cpp (derivative); lu_unpack, linalg_lu, linalg_lu_solve and the _ex forms are
// composites of it (lu_composites.cpp).

#include <tuple>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

BRASA_DECLARE_OP(linalg_lu_factor_ex_op, "linalg_lu_factor_ex",
                 "linalg_lu_factor_ex(Tensor A, bool pivot, bool check_errors) -> (Tensor LU, "
                 "Tensor pivots, Tensor info)",
                 std::tuple<Tensor, Tensor, Tensor>(const Tensor&, bool, bool));

}  // namespace brasa::ops
