#pragma once
// Note [aten functions in Python]
// The conformance cases call libtorch's at:: functions as torch.ops.aten spells them
// (aten.unique_dim, aten.nll_loss_forward, aten.pad, aten.lstm_cell, ...), and torch exposes some
// of them at the top level (torch.native_batch_norm, torch.lstm_cell) or in torch._C._nn
// (cross_entropy_loss, thnn_conv2d). In brasa most are C++ free functions, not registry ops, so
// op_binding cannot bind them from a declaration: they are bound here one by one with aten's
// names, argument names and defaults, into `brasa._C._nn` (where torch._C._nn has them) and
// `brasa._C._aten` (the rest). brasa.ops.aten looks a name up in the registry ops, then
// `_C._aten`, then `_C._nn` (python/brasa/ops.py); python/brasa/_nn_aten.py re-exports the
// top-level ones.

#include <nanobind/nanobind.h>

namespace brasa::python {

/// Adds aten's functions to m._nn (which must exist) and creates the submodule m._aten.
void bind_aten_functions(nanobind::module_& m);

}  // namespace brasa::python
