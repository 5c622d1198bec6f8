#include "brasa/core/error.h"
#include "ops/pointwise/binary.h"

namespace brasa::ops {

cpu::TensorIterator make_binary_iterator(const char* name, BinaryKind kind, const Tensor& a,
                                         const Tensor& b, const Tensor& out) {
  BRASA_CHECK(a.defined() && b.defined(), name, ": got an undefined tensor");
  cpu::TensorIteratorConfig cfg(name);
  cfg.add_output(out).add_input(a).add_input(b);
  switch (kind) {
    case BinaryKind::Arith: break;
    case BinaryKind::TrueDivide:
    case BinaryKind::Float: cfg.promote_integer_inputs_to_float(true); break;
    case BinaryKind::Compare:
    case BinaryKind::Logical: cfg.output_dtype(kBool).check_safe_cast(false); break;
    case BinaryKind::Bitwise: break;
  }
  cpu::TensorIterator it = cfg.build();
  if (kind == BinaryKind::Bitwise)
    BRASA_CHECK_TYPE(is_integral_type(it.common_dtype(), true), name,
                     ": only integral and bool dtypes are supported, got ", it.common_dtype());
  return it;
}

}  // namespace brasa::ops
