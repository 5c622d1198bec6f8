// The binding-choice measurement (docs/python.md, Note [Binding library]): brasa's add on tensors
// bound with nanobind. Its twin pb_add.cpp binds the same with pybind11; measure.py times both.
#include <nanobind/nanobind.h>

#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"

namespace nb = nanobind;

NB_MODULE(_nb_add, m) {
  nb::class_<brasa::Tensor>(m, "Tensor");
  m.def("ones1", [] { return brasa::ones({1}); });
  m.def("add", [](const brasa::Tensor& a, const brasa::Tensor& b) { return brasa::add(a, b); });
}
