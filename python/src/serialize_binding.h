#pragma once
// brasa.save / brasa.load and brasa.utils.safetensors over the C++ serializers
// (brasa/archive/pt.h, brasa/serialize/safetensors.h). Python values cross as IValues: None, bool,
// int, float, str, Tensor, list, tuple and dicts with str or int keys (loaded back as
// OrderedDict, as torch.load returns a saved state_dict). Anything else is a TypeError naming the
// type; file I/O runs with the GIL released.

#include <nanobind/nanobind.h>

namespace brasa::python {

/// Registers _save_pt, _save_pt_bytes, _load_pt, _load_pt_bytes and the _safetensors_* functions.
void bind_serialize(nanobind::module_& m);

}  // namespace brasa::python
