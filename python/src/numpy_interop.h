#pragma once
// NumPy without a build dependency on NumPy: brasa -> NumPy goes through the array interface
// (brasa.Tensor.__array_interface__ in brasa/_tensor.py, so np.asarray(t) shares t's memory and
// keeps t alive as the array's base); NumPy -> brasa reads an array's __array_interface__ and wraps
// its memory with from_blob, holding a reference to the array until the last tensor or view of it
// dies (the deleter takes the GIL to drop it).

#include <nanobind/nanobind.h>

namespace brasa::python {

void bind_numpy_interop(nanobind::module_& m);

}  // namespace brasa::python
