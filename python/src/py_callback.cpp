#include "py_callback.h"

#include <string>

#include "brasa/core/error.h"

namespace nb = nanobind;

namespace brasa::python {

PyRef::~PyRef() {
  if (!Py_IsInitialized()) return;  // at exit, the interpreter is gone: nothing to release
  nb::gil_scoped_acquire gil;
  Py_DECREF(obj_);
}

void rethrow_as_brasa_error(nb::python_error& e) {
  std::string msg = nb::str(e.value()).c_str();
  const bool value = e.matches(PyExc_ValueError), type = e.matches(PyExc_TypeError),
             index = e.matches(PyExc_IndexError), not_impl = e.matches(PyExc_NotImplementedError);
  if (msg.empty()) msg = nb::str(nb::handle(e.type()).attr("__name__")).c_str();
  if (type) throw brasa::TypeError(msg);  // before ValueError: brasa.TypeError is both
  if (value) throw brasa::ValueError(msg);
  if (index) throw brasa::IndexError(msg);
  if (not_impl) throw brasa::NotImplementedError(msg);
  throw brasa::RuntimeError(msg);
}

}  // namespace brasa::python
