#pragma once
// Size arguments (Note [Size arguments] in size_arguments.cpp): one graph for every batch size and
// sequence length when the function passes sizes it read from its inputs to ops (`view({B, T,
// C})`, `arange(T)`).

#include <string>
#include <vector>

#include "compile/graph.h"

namespace brasa::compiler {

/// Whether `other` (traced at the sizes of `other_inputs`) is `g` (traced at `sizes`, one vector
/// per input) with some int arguments replaced by input sizes that changed; if so, records those
/// arguments in g's nodes as size references (g then serves both traces) and returns "", else
/// the first difference in words (g is left as it was).
std::string merge_size_arguments(Graph& g, const Graph& other,
                                 const std::vector<std::vector<int64_t>>& sizes,
                                 const std::vector<Tensor>& other_inputs);

}  // namespace brasa::compiler
