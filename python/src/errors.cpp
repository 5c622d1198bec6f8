#include "errors.h"

#include <exception>

#include "brasa/core/error.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

PyObject* g_value_error = nullptr;
PyObject* g_type_error = nullptr;

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const brasa::IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const brasa::ValueError& e) {
    PyErr_SetString(g_value_error, e.what());
  } catch (const brasa::TypeError& e) {
    PyErr_SetString(g_type_error, e.what());
  } catch (const brasa::NotImplementedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const brasa::Error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }  // anything else propagates to nanobind's own translators (python_error, bad_alloc, ...)
}

}  // namespace

void register_error_translation(nb::handle value_error, nb::handle type_error) {
  g_value_error = value_error.inc_ref().ptr();
  g_type_error = type_error.inc_ref().ptr();
  nb::register_exception_translator(&translate);
}

}  // namespace brasa::python
