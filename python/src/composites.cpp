#include "composites.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <vector>

#include "brasa/ops/factory.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/shaping.h"
#include "convert.h"

namespace nb = nanobind;

namespace brasa::python {

void bind_composites(nb::module_& m, nb::handle cls) {
  using T = const Tensor&;
  auto both = [&](const char* name, auto fn) {
    m.def(name, fn);
    nb::setattr(cls, name, nb::cpp_function(fn, nb::is_method(), nb::name(name)));
  };
  // Each releases the GIL around the C++ call: kernels never run holding it.
  using G = nb::gil_scoped_release;
  both("matmul", [](T a, T b) {
    G g;
    return matmul(a, b);
  });
  both("mm", [](T a, T b) {
    G g;
    return mm(a, b);
  });
  both("bmm", [](T a, T b) {
    G g;
    return bmm(a, b);
  });
  both("t", [](T a) {
    G g;
    return a.t();
  });
  both("clone", [](T a) {
    G g;
    return a.clone();
  });
  both("_reshape", [](T a, std::vector<int64_t> s) {
    G g;
    return a.reshape(s);
  });
  both("_flatten", [](T a, int64_t start_dim, int64_t end_dim) {
    nb::gil_scoped_release release;
    return a.flatten(start_dim, end_dim);
  });
  nb::setattr(cls, "contiguous",
              nb::cpp_function(
                  [](T a) {
                    G g;
                    return a.contiguous();
                  },
                  nb::is_method(), nb::name("contiguous")));
  nb::setattr(cls, "_to_dtype",
              nb::cpp_function(
                  [](T a, const DType& d, bool copy) {
                    nb::gil_scoped_release release;
                    return a.to(d.type, false, copy);
                  },
                  nb::is_method(), nb::name("_to_dtype")));
  m.def("_rand", [](std::vector<int64_t> size, std::optional<DType> dtype) {
    nb::gil_scoped_release release;
    return rand(size, dtype_options(dtype));
  });
  m.def("_randn", [](std::vector<int64_t> size, std::optional<DType> dtype) {
    nb::gil_scoped_release release;
    return randn(size, dtype_options(dtype));
  });
}

}  // namespace brasa::python
