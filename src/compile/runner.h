#pragma once
// Running a plan (runner.cpp): its steps in order over an environment of tensors, one per value.

#include <cstddef>
#include <limits>
#include <vector>

#include "compile/fusion.h"

namespace brasa::compiler {

/// Runs `plan`'s steps; `env` (one slot per value of `g`) holds the inputs and whatever the
/// caller pre-filled; literals and captured tensors are filled here.
void run_steps(const Graph& g, const Plan& plan, std::vector<Tensor>& env);

/// Runs `plan` on `inputs` (the graph's Input values) and returns the first `num_outputs` outputs.
std::vector<Tensor> run_graph(const Graph& g, const Plan& plan, const std::vector<Tensor>& inputs,
                              size_t num_outputs = std::numeric_limits<size_t>::max());

}  // namespace brasa::compiler
