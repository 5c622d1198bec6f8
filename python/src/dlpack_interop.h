#pragma once
// DLPack both ways (brasa/dlpack.h does the conversions): Tensor.__dlpack__ returns a
// "dltensor" capsule (or "dltensor_versioned" when the consumer asks for max_version >= 1), and
// _from_dlpack_capsule imports one from torch, NumPy or any producer, zero-copy.
// Note [DLPack deleters and the GIL]: a producer's deleter may need the GIL (NumPy's drops an array
// reference), but brasa frees the imported tensor wherever its last reference goes, often with the
// GIL released; so the import hands brasa a managed tensor of its own whose deleter takes the GIL
// and then runs the producer's.

#include <nanobind/nanobind.h>

namespace brasa::python {

void bind_dlpack(nanobind::module_& m, nanobind::handle tensor_class);

}  // namespace brasa::python
