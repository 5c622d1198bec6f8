#pragma once
// The autograd pieces that call back into Python (Note [Python callbacks from C++]): tensor hooks,
// autograd.Function subclasses written in Python (Note [Python autograd functions]), and
// inference mode as an object the context manager enters and leaves.

#include <nanobind/nanobind.h>

namespace brasa::python {

void bind_autograd(nanobind::module_& m);

}  // namespace brasa::python
