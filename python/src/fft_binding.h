#pragma once
// torch.fft in Python: brasa's C++ transforms (include/brasa/ops/fft.h, on FFTW) bound into
// `brasa._C._fft` with torch's argument names; python/brasa/fft.py re-exports them.

#include <nanobind/nanobind.h>

namespace brasa::python {

/// Creates the submodule `_fft` of m.
void bind_fft(nanobind::module_& m);

}  // namespace brasa::python
