#include "composites.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <vector>

#include "brasa/ops/factory.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/shaping.h"
#include "convert.h"
#include "op_binding.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

// Note [Tensor values of fill_ and masked_fill]
// The registry has fill_.Scalar and masked_fill.Scalar only, and the generic binding reads a
// one-element tensor as a Scalar. libtorch's `.Tensor` overloads differ: the value must be 0-d
// (a RuntimeError otherwise) and a value that requires grad gets its gradient. So a Tensor value
// goes to the C++ Tensor overloads first; anything else to the bound group as before.

// Rebinds `name` as `typed` followed by the bound group (a nanobind overload chain: nanobind
// appends a function to the one of the same name in its scope), as a method of cls and a function
// of m.
template <typename Typed, typename... Names>
void tensor_value_first(nb::module_& m, nb::handle cls, const char* name, Typed typed,
                        Names... args) {
  const OpGroup* g = find_group(name);
  nb::delattr(cls, name);
  nb::setattr(
      cls, name,
      nb::cpp_function(typed, nb::is_method(), nb::name(name), nb::scope(cls), nb::arg(args)...));
  nb::setattr(
      cls, name,
      nb::cpp_function([g](nb::handle self, nb::args args,
                           nb::kwargs kwargs) { return call_group(*g, self, args, kwargs); },
                       nb::is_method(), nb::name(name), nb::scope(cls)));
  nb::delattr(m, name);
  nb::setattr(
      m, name,
      nb::cpp_function(typed, nb::name(name), nb::scope(m), nb::arg("input"), nb::arg(args)...));
  nb::setattr(m, name,
              nb::cpp_function(
                  [g](nb::args args, nb::kwargs kwargs) {
                    return call_group(*g, nb::handle(), args, kwargs);
                  },
                  nb::name(name), nb::scope(m)));
}

void bind_tensor_values(nb::module_& m, nb::handle cls) {
  using T = const Tensor&;
  using G = nb::gil_scoped_release;
  tensor_value_first(
      m, cls, "fill_",
      [](nb::handle self, T value) -> nb::object {
        const Tensor& t = nb::cast<const Tensor&>(self);
        {
          G g;
          t.fill_(value);
        }
        return nb::borrow(self);
      },
      "value");
  tensor_value_first(
      m, cls, "masked_fill_",
      [](nb::handle self, T mask, T value) -> nb::object {
        const Tensor& t = nb::cast<const Tensor&>(self);
        {
          G g;
          t.masked_fill_(mask, value);
        }
        return nb::borrow(self);
      },
      "mask", "value");
  tensor_value_first(
      m, cls, "masked_fill",
      [](T self, T mask, T value) {
        G g;
        return self.masked_fill(mask, value);
      },
      "mask", "value");
}

}  // namespace

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
  bind_tensor_values(m, cls);
}

}  // namespace brasa::python
