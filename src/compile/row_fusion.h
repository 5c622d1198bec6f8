#pragma once
// Row kernels (Note [Row fusion] in row_fusion.cpp): pointwise ops fused with the reductions over
// the last dim that consume or follow them (sum, mean, amax, var, softmax, log_softmax), computed
// row by row in one generated function.

#include <functional>
#include <ostream>
#include <vector>

#include "compile/fusion.h"

namespace brasa::compiler {

/// A reduction over the last dim that a row kernel can take (null kind: none).
enum class RowReduction { None, Sum, Mean, Amax, Var, Softmax, LogSoftmax };

/// The row reduction node `n` is, when its operand is a float or double CPU tensor reduced over
/// its last dim only (no dtype or out= arguments).
RowReduction row_reduction(const Graph& g, const Node& n);

/// Whether value `v` (shaped like `shape`'s rows or broadcast to them) is the same along the
/// last dim of `shape`: a single element, or size 1 there.
bool row_constant(const ValueInfo& v, const std::vector<int64_t>& shape);

/// Generates kernel `k` (its symbol set) for the row group `nodes` over rows of `shape` into `src`:
/// fills the kernel's inputs and outputs; `needed(v)` says which results must be materialised.
void generate_row_kernel(const Graph& g, const std::vector<int32_t>& nodes,
                         const std::vector<int64_t>& shape,
                         const std::function<bool(int32_t)>& needed, Kernel& k, std::ostream& src);

}  // namespace brasa::compiler
