#pragma once
// The special-function family (Note [Op declarations]): the dispatched ops with loops of their own
// in backends/cpu/kernels/special_kernels.cpp. special_ops.cpp defines them (the unary ones with
// the unary family's iterator, the binary ones with the binary family's) and the free functions of
// brasa/ops/special.h; derivatives in special_grad.cpp.

#include "backends/cpu/kernels/special_kernels.h"
#include "ops/pointwise/unary_ops.h"

/// Declares `var` (schema "<name>(Tensor self, Tensor other, Tensor? out) -> Tensor").
#define BRASA_DECLARE_SPECIAL_BINARY(var, op_name)                                             \
  BRASA_DECLARE_OP(var, op_name, op_name "(Tensor self, Tensor other, Tensor? out) -> Tensor", \
                   Tensor(const Tensor&, const Tensor&, const Tensor&))

namespace brasa::ops {

BRASA_DECLARE_UNARY(acosh_op, "acosh");
BRASA_DECLARE_UNARY(asinh_op, "asinh");
BRASA_DECLARE_UNARY(atanh_op, "atanh");
BRASA_DECLARE_UNARY(erfc_op, "erfc");
BRASA_DECLARE_UNARY(lgamma_op, "lgamma");
BRASA_DECLARE_UNARY(digamma_op, "digamma");
BRASA_DECLARE_UNARY(i0_op, "i0");
BRASA_DECLARE_UNARY(special_i0e_op, "special_i0e");
BRASA_ATEN(special_i0e_op, "no in_place");
BRASA_DECLARE_UNARY(special_i1_op, "special_i1");
BRASA_ATEN(special_i1_op, "no in_place");
BRASA_DECLARE_UNARY(special_i1e_op, "special_i1e");
BRASA_ATEN(special_i1e_op, "no in_place");
BRASA_DECLARE_UNARY(special_ndtri_op, "special_ndtri");
BRASA_ATEN(special_ndtri_op, "no in_place");
BRASA_DECLARE_UNARY(special_erfcx_op, "special_erfcx");
BRASA_ATEN(special_erfcx_op, "no in_place");
BRASA_DECLARE_UNARY(signbit_op, "signbit");
BRASA_ATEN(signbit_op, "no in_place");
BRASA_DECLARE_SPECIAL_BINARY(special_zeta_op, "special_zeta");
BRASA_ATEN(special_zeta_op, "no in_place");
BRASA_DECLARE_SPECIAL_BINARY(igamma_op, "igamma");
BRASA_DECLARE_SPECIAL_BINARY(igammac_op, "igammac");

}  // namespace brasa::ops
