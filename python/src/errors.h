#pragma once
// Note [Python errors]
// Every brasa error that reaches a binding becomes a Python exception of torch's type with the C++
// message: IndexError -> IndexError, TypeError -> brasa's TypeError (a TypeError that is also a
// RuntimeError), ValueError -> brasa's ValueError (a ValueError that is also a RuntimeError, since
// torch raises RuntimeError for most shape and value errors that brasa types as ValueError),
// NotImplementedError -> NotImplementedError (a RuntimeError in Python too), anything else ->
// RuntimeError. The two dual classes live in brasa/_errors.py; no C++ exception reaches Python.

#include <nanobind/nanobind.h>

namespace brasa::python {

/// Installs the translator; `value_error` and `type_error` are the Python classes described above.
void register_error_translation(nanobind::handle value_error, nanobind::handle type_error);

}  // namespace brasa::python
