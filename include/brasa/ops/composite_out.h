#pragma once
// out= for ops written as compositions of other ops: the result is computed, then cast into out
// (resized when it has no elements), with the checks of the dispatched ops' out= forms.

#include "brasa/core/error.h"
#include "brasa/core/tensor.h"
#include "brasa/core/type_promotion.h"

namespace brasa::ops {

/// How out's dtype must relate to the result's: castable to (most ops), or equal (ops whose out=
/// form keeps the result dtype, like sgn, or a Bool predicate).
enum class OutDtype { Castable, Exact };

/// Copies `result` into `out` and returns out. ValueError when result requires grad (as for the
/// dispatched ops' out= forms). TypeError when result's dtype can't be cast to
/// out's (a floating result into an integral out, ...); ValueError when out has elements and a
/// different shape.
inline Tensor& composite_out(Tensor& out, const Tensor& result, const char* op,
                             OutDtype rule = OutDtype::Castable) {
  BRASA_CHECK(out.defined(), op, ": got an undefined out= tensor");
  BRASA_CHECK(!result.requires_grad(), op,
              ": functions with out=... arguments don't support automatic differentiation, but "
              "one of the arguments requires grad");
  BRASA_CHECK_TYPE(rule == OutDtype::Castable || result.scalar_type() == out.scalar_type(), op,
                   ": found dtype ", out.scalar_type(), " for out but expected ",
                   result.scalar_type());
  BRASA_CHECK_TYPE(can_cast(result.scalar_type(), out.scalar_type()), op, ": result type ",
                   result.scalar_type(), " can't be cast to the desired output type ",
                   out.scalar_type());
  if (!out.sizes().equals(result.sizes())) {
    BRASA_CHECK(out.numel() == 0, op, ": expected out= with shape ", result.sizes(),
                " (or no elements), got ", out.sizes());
    out.resize_(result.sizes());
  }
  out.copy_(result);
  return out;
}

}  // namespace brasa::ops
