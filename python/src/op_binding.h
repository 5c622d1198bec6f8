#pragma once
// Note [Ops bound from their declarations]
// Every op in the dispatcher's registry is bound once, generically: its schema gives the Python
// parameters (names, types), the op name before '.' gives the Python name, and ops sharing a Python
// name are overloads tried in registration order, first without and then with Python numbers taken
// for Tensor parameters (as wrapped 0-d tensors, like torch's arg parser). Defaults are not in
// brasa's schemas; brasa/_signatures.py states torch's defaults per argument name and per op, and
// every `T?` argument defaults to None. An op whose schema ends in `Tensor? out` (brasa's out
// convention) also gives `NAME_` (out = self) and takes `out=`. Arguments are converted to boxed
// Values and the op is called through its boxed form with the GIL released.

#include <nanobind/nanobind.h>

#include <string>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::python {

struct OpGroup;

/// Binds every registered op: functions on `ops_module`, methods (ops whose first argument is
/// `self`) on `tensor_class`. `defaults` maps argument names to defaults; `op_defaults` maps op
/// names to {argument: default} dicts that take precedence.
void bind_ops(nanobind::module_& ops_module, nanobind::handle tensor_class, nanobind::dict defaults,
              nanobind::dict op_defaults);

/// The group bound under a Python name (null when none); for the operators of Tensor.
const OpGroup* find_group(const std::string& name);
/// Calls a group as Python would: `self` (may be null) first, then args and kwargs.
nanobind::object call_group(const OpGroup& g, nanobind::handle self, nanobind::handle args,
                            nanobind::handle kwargs, bool numbers_for_self = false);
/// [(python name, schema, is_method, is_inplace, [(param, type, has_default)])] of every bound
/// overload (stubs, docs, tests).
nanobind::list bound_signatures();

}  // namespace brasa::python
