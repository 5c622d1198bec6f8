#pragma once
// Note [nn functions in Python]
// torch.nn.functional's computations are brasa's C++ nn-level functions (linear, conv*, pooling,
// normalisation, dropout, losses, activations): they are composites of the public C++ API, not
// registry ops, so they are bound here one by one with typed signatures into `brasa._C._nn`, each
// calling the same function a C++ program calls, with the GIL released. python/brasa/nn/
// functional.py turns torch's Python conventions (an int for a pair, reduction strings, None) into
// these arguments; the layers of python/brasa/nn/modules/ call functional, so every nn
// computation has one source of truth, the C++ one.

#include <nanobind/nanobind.h>

namespace brasa::python {

/// Creates the submodule `_nn` of m with the nn-level functions.
void bind_nn_functions(nanobind::module_& m);

}  // namespace brasa::python
