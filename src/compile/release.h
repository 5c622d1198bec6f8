#pragma once
// Where a plan lets go of its values (Note [Values released after their last use] in
// release.cpp).

#include <cstdint>
#include <vector>

namespace brasa::compiler {

struct Graph;
struct Plan;

/// Per step of `plan`, the values of `g` nothing after that step reads: node results that are
/// not outputs of `g`. The runner drops its reference to them once the step has run.
std::vector<std::vector<int32_t>> release_points(const Graph& g, const Plan& plan);

}  // namespace brasa::compiler
