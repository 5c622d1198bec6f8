#pragma once
// Note [Meta functions]
// Every dispatched op's shape/dtype rule is a function of its own, registered at the Meta key
// only: it raises the errors the CPU kernel raises for bad shapes and dtypes and returns the
// result with the sizes, strides and dtype the CPU kernel gives, allocated on the meta device (no
// memory), without touching data. The CPU kernel calls that same rule for its (empty) result and
// then runs its loop, so there is one definition of the rule, which compile/trace rely on. The
// pointwise families' rule is their TensorIterator (broadcast, promotion, output layout), so their
// meta function builds the iterator and stops before the loop (iterator_meta); the reductions share
// reduce_meta. Kernels that never touch data (views, empty, ops composed of other ops) serve Meta
// as they are.

#include "backends/cpu/tensor_iterator.h"

namespace brasa::ops {

/// The outputs of an iterator whose loop is not run: a pointwise op's meta result.
inline Tensor iterator_meta(cpu::TensorIterator it) {
  it.finish();
  return it.output();
}

}  // namespace brasa::ops
