#pragma once
// The complex family's dispatched ops (Note [Op declarations]): the two views that reinterpret a
// complex tensor as pairs of reals and back (complex_ops.cpp; derivatives in complex_grad.cpp).
// real, imag, angle, conj, complex and polar are composites of these and other ops.

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

BRASA_DECLARE_OP(view_as_real_op, "view_as_real", "view_as_real(Tensor(a) self) -> Tensor(a)",
                 Tensor(const Tensor&));
BRASA_DECLARE_OP(view_as_complex_op, "view_as_complex",
                 "view_as_complex(Tensor(a) self) -> Tensor(a)", Tensor(const Tensor&));

}  // namespace brasa::ops
