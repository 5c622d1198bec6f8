#pragma once
// The matrix-product ops (Note [Op declarations]): kernels in mm_ops.cpp, derivatives in
// mm_grad.cpp.

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// mm_ops.cpp
BRASA_DECLARE_OP(
    addmm_op, "addmm",
    "addmm(Tensor? self, Tensor mat1, Tensor mat2, Scalar beta, Scalar alpha) -> Tensor",
    Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&));
BRASA_ATEN(addmm_op,
           "mm(mat1, mat2) if self=None alpha=1; "
           "addmm(Tensor self, mat1, mat2, beta, alpha) if self=tensor");
BRASA_DECLARE_OP(
    baddbmm_op, "baddbmm",
    "baddbmm(Tensor? self, Tensor batch1, Tensor batch2, Scalar beta, Scalar alpha) -> Tensor",
    Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&));
BRASA_ATEN(baddbmm_op,
           "bmm(batch1, batch2) if self=None alpha=1; "
           "baddbmm(Tensor self, batch1, batch2, beta, alpha) if self=tensor");
BRASA_DECLARE_OP(addmv_op, "addmv",
                 "addmv(Tensor? self, Tensor mat, Tensor vec, Scalar beta, Scalar alpha) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&));
BRASA_ATEN(addmv_op,
           "mv(mat, vec) if self=None alpha=1; "
           "addmv(Tensor self, mat, vec, beta, alpha) if self=tensor");
BRASA_DECLARE_OP(dot_op, "dot", "dot(Tensor self, Tensor other) -> Tensor",
                 Tensor(const Tensor&, const Tensor&));

}  // namespace brasa::ops
