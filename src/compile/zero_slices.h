#pragma once
// The sum of zero-filled buffers that each hold one slice (Note [Zero slices] in zero_slices.cpp).

#include "compile/graph.h"

namespace brasa::compiler {

/// Rewrites `acc.add_(z)`, where `z` is a fresh zero-filled buffer into one slice of which a value
/// was copied (select's backward) and `acc` one whose slice there is still zero, as an add of the
/// value into that slice of `acc`, dropping `z`.
void merge_zero_slices(Graph& g);

/// Rewrites a zero-filled buffer whose slices along one dim are each written once (copied, or
/// added into the zero) and which is then copied through a permute into a fresh buffer: the fresh
/// buffer is allocated first and the slices are copied into it through the inverse permute, with
/// no fill and no final copy (Note [Slices written in place]).
void write_slices_in_place(Graph& g);

}  // namespace brasa::compiler
