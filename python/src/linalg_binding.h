#pragma once
// torch.linalg in Python: brasa's C++ linear algebra (include/brasa/ops/linalg*.h, on LAPACK) bound
// into `brasa._C._linalg` with torch's argument names; python/brasa/linalg.py re-exports them and
// makes torch's named tuples of tuple results.

#include <nanobind/nanobind.h>

namespace brasa::python {

/// Creates the submodule `_linalg` of m.
void bind_linalg(nanobind::module_& m);

}  // namespace brasa::python
