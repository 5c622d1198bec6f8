// The binding-choice measurement: brasa's add on tensors bound with pybind11 (see nb_add.cpp).
#include <pybind11/pybind11.h>

#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"

namespace py = pybind11;

PYBIND11_MODULE(_pb_add, m) {
  py::class_<brasa::Tensor>(m, "Tensor");
  m.def("ones1", [] { return brasa::ones({1}); });
  m.def("add", [](const brasa::Tensor& a, const brasa::Tensor& b) { return brasa::add(a, b); });
}
