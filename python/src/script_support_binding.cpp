#include "script_support_binding.h"

#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>

#include <map>
#include <string>

#include "brasa/dispatch/autocast_mode.h"
#include "brasa/utils/tensorboard.h"
#include "convert.h"

namespace nb = nanobind;

namespace brasa::python {

namespace {

void bind_autocast(nb::module_& m) {
  m.def("_autocast_is_cpu_enabled", &autocast::is_cpu_enabled);
  m.def("_autocast_set_cpu_enabled", &autocast::set_cpu_enabled);
  m.def("_autocast_get_cpu_dtype", [] { return dtype_object(autocast::get_autocast_cpu_dtype()); });
  m.def("_autocast_set_cpu_dtype",
        [](const DType& d) { autocast::set_autocast_cpu_dtype(d.type); });
  m.def("_autocast_is_cache_enabled", &autocast::is_autocast_cache_enabled);
  m.def("_autocast_set_cache_enabled", &autocast::set_autocast_cache_enabled);
  m.def("_autocast_clear_cache", &autocast::clear_cache);
  m.def("_autocast_increment_nesting", &autocast::increment_nesting);
  m.def("_autocast_decrement_nesting", &autocast::decrement_nesting);
}

// The Python SummaryWriter (python/brasa/utils/tensorboard.py) adds torch's argument forms.
void bind_tensorboard(nb::module_& m) {
  using tensorboard::SummaryWriter;
  nb::class_<SummaryWriter>(m, "_SummaryWriter")
      .def(nb::init<const std::string&, double>(), nb::arg("log_dir"), nb::arg("flush_secs"))
      .def("log_dir", &SummaryWriter::log_dir)
      .def("add_scalar", &SummaryWriter::add_scalar, nb::call_guard<nb::gil_scoped_release>())
      .def("add_scalars", &SummaryWriter::add_scalars, nb::call_guard<nb::gil_scoped_release>())
      .def("add_histogram", &SummaryWriter::add_histogram, nb::call_guard<nb::gil_scoped_release>())
      .def("add_text", &SummaryWriter::add_text, nb::call_guard<nb::gil_scoped_release>())
      .def("add_hparams",
           [](SummaryWriter& w, const std::map<std::string, nb::object>& hparams,
              const std::map<std::string, double>& metrics) {
             std::map<std::string, tensorboard::HParamValue> values;
             for (const auto& [k, v] : hparams) {
               if (nb::isinstance<nb::bool_>(v)) {
                 values.emplace(k, nb::cast<bool>(v));
               } else if (nb::isinstance<nb::int_>(v) || nb::isinstance<nb::float_>(v)) {
                 values.emplace(k, nb::cast<double>(v));
               } else {
                 values.emplace(k, nb::cast<std::string>(nb::str(v)));
               }
             }
             w.add_hparams(values, metrics);
           })
      .def("flush", &SummaryWriter::flush, nb::call_guard<nb::gil_scoped_release>())
      .def("close", &SummaryWriter::close, nb::call_guard<nb::gil_scoped_release>());
}

}  // namespace

void bind_script_support(nb::module_& m) {
  bind_autocast(m);
  bind_tensorboard(m);
}

}  // namespace brasa::python
