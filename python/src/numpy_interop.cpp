#include "numpy_interop.h"

#include <nanobind/stl/string.h>

#include <string>
#include <vector>

#include "brasa/ops/factory.h"
#include "convert.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

ScalarType from_typestr(const std::string& ts) {
  std::string code = ts.substr(1);
  if (code == "f4") return kFloat;
  if (code == "f8") return kDouble;
  if (code == "f2") return kHalf;
  if (code == "i1") return kChar;
  if (code == "i2") return kShort;
  if (code == "i4") return kInt;
  if (code == "i8") return kLong;
  if (code == "u1") return kByte;
  if (code == "b1") return kBool;
  if (code == "c8") return kComplexFloat;
  if (code == "c16") return kComplexDouble;
  throw nb::type_error(("can't convert np.ndarray of type " + ts +
                        ". The only supported types are: float64, float32, float16, complex64, "
                        "complex128, int64, int32, int16, int8, uint8, and bool.")
                           .c_str());
}

Tensor from_array(nb::handle array) {
  nb::dict ai = nb::borrow<nb::dict>(array.attr("__array_interface__"));
  std::string typestr = nb::cast<std::string>(ai["typestr"]);
  if (typestr.size() > 1 && typestr[0] == '>')
    throw nb::value_error("given numpy array has byte order different from the native byte order.");
  ScalarType dtype = from_typestr(typestr);
  nb::tuple data = nb::borrow<nb::tuple>(ai["data"]);
  void* ptr = reinterpret_cast<void*>(nb::cast<uintptr_t>(data[0]));
  std::vector<int64_t> sizes = to_int_list(ai["shape"]).value();
  std::vector<int64_t> strides;
  const int64_t itemsize = static_cast<int64_t>(element_size(dtype));
  if (ai.contains("strides") && !ai["strides"].is_none()) {
    std::vector<int64_t> byte_strides = to_int_list(ai["strides"]).value();
    for (int64_t s : byte_strides) {
      if (s % itemsize != 0 || s < 0)
        throw nb::value_error(
            "At least one stride in the given numpy array is negative or not a multiple of the "
            "element size. This is currently not supported.");
      strides.push_back(s / itemsize);
    }
  } else {
    strides.assign(sizes.size(), 1);
    for (int64_t i = static_cast<int64_t>(sizes.size()) - 2; i >= 0; --i)
      strides[i] = strides[i + 1] * sizes[i + 1];
  }
  PyObject* keep = array.inc_ref().ptr();
  auto release = [keep](void*) {
    nb::gil_scoped_acquire gil;
    Py_DECREF(keep);
  };
  return from_blob(ptr, sizes, strides, release, TensorOptions(dtype));
}

}  // namespace

void bind_numpy_interop(nb::module_& m) { m.def("_from_array", &from_array, nb::arg("array")); }

}  // namespace brasa::python
