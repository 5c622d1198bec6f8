// brasa._C: the extension module. What it holds is described in docs/python.md; the pure-Python
// package (python/brasa/) builds torch's API on top of it.
#include <nanobind/nanobind.h>

#include "aten_functions.h"
#include "autograd_binding.h"
#include "brasa/core/generator.h"
#include "brasa/core/parallel.h"
#include "brasa/dispatch/grad_mode.h"
#include "composites.h"
#include "convert.h"
#include "dlpack_interop.h"
#include "errors.h"
#include "fft_binding.h"
#include "linalg_binding.h"
#include "nn_functions.h"
#include "numpy_interop.h"
#include "op_binding.h"
#include "packed_sequence_binding.h"
#include "script_support_binding.h"
#include "serialize_binding.h"
#include "tensor_type.h"

namespace nb = nanobind;

NB_MODULE(_C, m) {
  using namespace brasa::python;
  bind_dtypes(m);
  nb::handle tensor_class = bind_tensor(m);  // owned by the module
  bind_numpy_interop(m);
  bind_nn_functions(m);
  bind_aten_functions(m);
  bind_fft(m);
  bind_linalg(m);
  bind_special(m);
  {
    nb::module_ nn = nb::borrow<nb::module_>(m.attr("_nn"));
    bind_packed_sequence(nn);
  }
  bind_autograd(m);
  bind_dlpack(m, tensor_class);
  bind_serialize(m);
  bind_script_support(m);
  m.def("_bind_ops", [tensor_class](nb::module_ ops, nb::dict defaults, nb::dict op_defaults) {
    bind_ops(ops, tensor_class, defaults, op_defaults);
    bind_composites(ops, tensor_class);
    bind_composite_functions(ops);
    bind_indexing_functions(ops);
    bind_math_functions(ops);
    bind_binned_functions(ops);
    bind_legacy_linalg_functions(ops);
    bind_operators(tensor_class);
  });
  m.def("_bound_signatures", &bound_signatures);
  m.def("_register_errors", &register_error_translation);
  m.def("_set_grad_enabled", &brasa::set_grad_enabled);
  m.def("is_grad_enabled", &brasa::is_grad_enabled);
  // torch.Generator: brasa's MT19937 generator (the same stream as torch's for a seed).
  nb::class_<brasa::Generator>(m, "Generator")
      .def(
          "__init__",
          [](brasa::Generator* g, nb::handle /*device*/) {
            new (g) brasa::Generator(brasa::make_generator());
          },
          nb::arg("device").none() = nb::none())
      .def(
          "manual_seed",
          [](nb::handle self, uint64_t seed) {
            nb::cast<brasa::Generator&>(self).manual_seed(seed);
            return nb::borrow(self);
          },
          nb::arg("seed"))
      .def("initial_seed", &brasa::Generator::current_seed)
      .def("get_state", &brasa::Generator::get_state)
      .def("set_state", [](nb::handle self, const brasa::Tensor& state) {
        nb::cast<brasa::Generator&>(self).set_state(state);
        return nb::borrow(self);
      });
  m.def("default_generator", [] { return brasa::default_generator(); });
  m.def("get_rng_state", &brasa::get_rng_state);
  m.def("set_rng_state", &brasa::set_rng_state);
  m.def("initial_seed", [] { return brasa::default_generator().current_seed(); });
  m.def("manual_seed", [](uint64_t seed) { brasa::manual_seed(seed); });
  m.def("set_num_threads", &brasa::set_num_threads);
  m.def("get_num_threads", &brasa::get_num_threads);
  m.def("get_default_dtype", [] { return dtype_object(brasa::get_default_dtype()); });
  m.def("set_default_dtype", [](const DType& d) {
    BRASA_CHECK_TYPE(d.type == brasa::kFloat || d.type == brasa::kDouble,
                     "set_default_dtype: only Float and Double can be the default, got ", d.type);
    brasa::set_default_dtype(d.type);
  });
}
