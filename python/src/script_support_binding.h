#pragma once
// What scripts reach for beside the ops (docs/python.md): CPU autocast's thread state
// (brasa.autocast, brasa.cpu.amp.autocast) and TensorBoard's SummaryWriter
// (brasa.utils.tensorboard), over the C++ implementations.

#include <nanobind/nanobind.h>

namespace brasa::python {

/// Adds _autocast_* (brasa/dispatch/autocast_mode.h) and _SummaryWriter
/// (brasa/utils/tensorboard.h) to brasa._C.
void bind_script_support(nanobind::module_& m);

}  // namespace brasa::python
