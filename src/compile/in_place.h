#pragma once
// In-place pointwise nodes that a fused kernel may compute into a fresh tensor instead of their
// operand's memory (Note [Functional in-place] in in_place.cpp).

#include <vector>

#include "compile/graph.h"

namespace brasa::compiler {

/// Per node of `g`: whether it is an in-place binary pointwise op (`a.add_(b)`, traced as add with
/// out = self) of the fusible table whose written operand nothing observes afterwards, so that
/// computing it out of place gives every later reader the values eager gives.
std::vector<bool> functional_in_place(const Graph& g);

}  // namespace brasa::compiler
