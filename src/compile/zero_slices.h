#pragma once
// The sum of zero-filled buffers that each hold one slice (Note [Zero slices] in zero_slices.cpp).

#include "compile/graph.h"

namespace brasa::compiler {

/// Rewrites `acc.add_(z)`, where `z` is a fresh zero-filled buffer into one slice of which a value
/// was copied (select's backward) and `acc` one whose slice there is still zero, as an add of the
/// value into that slice of `acc`, dropping `z`.
void merge_zero_slices(Graph& g);

}  // namespace brasa::compiler
