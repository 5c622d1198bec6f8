#pragma once
// Finite-difference checks of autograd (torch.autograd.gradcheck / gradgradcheck).

#include <functional>

#include "brasa/autograd/node.h"

namespace brasa::autograd {

using DifferentiableFn = std::function<variable_list(const variable_list&)>;

/// Compares the Jacobian autograd computes for fn at `inputs` (those that require grad) with
/// central finite differences. Use float64 inputs. Returns false (or throws ValueError naming
/// the output, input and element, when raise_exception) on a mismatch beyond atol + rtol*|num|.
BRASA_API bool gradcheck(const DifferentiableFn& fn, const variable_list& inputs, double eps = 1e-6,
                         double atol = 1e-5, double rtol = 1e-3, bool raise_exception = true);

/// gradcheck of the gradient itself: checks second derivatives through create_graph.
/// grad_outputs default to seeded random tensors shaped like fn's outputs.
BRASA_API bool gradgradcheck(const DifferentiableFn& fn, const variable_list& inputs,
                             const variable_list& grad_outputs = {}, double eps = 1e-6,
                             double atol = 1e-5, double rtol = 1e-3, bool raise_exception = true);

}  // namespace brasa::autograd
