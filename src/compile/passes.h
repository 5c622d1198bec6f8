#pragma once
// Graph passes (Note [Passes] in passes.cpp): dead code, common subexpressions, constant folding.

#include "compile/graph.h"

namespace brasa::compiler {

/// Drops nodes whose results nothing uses (keeping mutations and random ops).
void eliminate_dead_code(Graph& g);
/// Merges identical pure nodes; does nothing in a graph that mutates.
void eliminate_common_subexpressions(Graph& g);
/// Computes pure nodes of literals once; does nothing in a graph that mutates.
void fold_constants(Graph& g);

}  // namespace brasa::compiler
