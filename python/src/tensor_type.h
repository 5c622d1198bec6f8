#pragma once
// brasa.Tensor: the C++ Tensor handle itself as a Python object (one intrusive reference per
// Python object), with the attributes that are not ops: geometry, dtype, autograd state, item,
// indexing, and the NumPy buffer. The ops are added as methods by bind_ops
// (Note [Ops bound from their declarations]), the operators by bind_operators.

#include <nanobind/nanobind.h>

namespace brasa::python {

/// Registers `Tensor` on m and returns the class.
nanobind::object bind_tensor(nanobind::module_& m);
/// __add__, __radd__, __iadd__, ... on the class, each calling the op's bound group directly.
void bind_operators(nanobind::handle tensor_class);

}  // namespace brasa::python
