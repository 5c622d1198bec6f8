#pragma once
// Relu's gradient folded into the max-pool backward that feeds it (Note [Relu gradient in the
// max-pool backward] in src/ops/pool/max_pool.cpp; pool_relu.cpp).

#include <cstdint>
#include <vector>

#include "compile/graph.h"

namespace brasa::compiler {

/// A max_pool{1,2,3}d_with_indices_backward node whose result is read only by a threshold_backward
/// of it and the pool's own input; the step runs where the threshold_backward ran.
struct PoolRelu {
  int32_t pool = -1;
  int32_t relu = -1;  ///< the threshold_backward node
  int32_t dims = 2;

  bool operator==(const PoolRelu&) const = default;
};

/// The nodes of `g` with that pattern where no node between the two writes anything.
std::vector<PoolRelu> find_pool_relus(const Graph& g);

/// Runs `p`: the threshold_backward's result in one scatter.
void run_pool_relu(const Graph& g, const PoolRelu& p, std::vector<Tensor>& env);

}  // namespace brasa::compiler
