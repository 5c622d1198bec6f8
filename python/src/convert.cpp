#include "convert.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <string>

#include "brasa/core/error.h"
#include "brasa/core/tensor.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

// One Python object per dtype, indexed by ScalarType + 1 (Undefined is -1); the module's
// attributes own them.
std::array<nb::handle, 32> g_dtypes;

struct DTypeName {
  ScalarType type;
  const char* name;
};
// torch's spellings; the first name of each type is its repr.
constexpr DTypeName kNames[] = {
    {ScalarType::Float, "float32"},
    {ScalarType::Float, "float"},
    {ScalarType::Double, "float64"},
    {ScalarType::Double, "double"},
    {ScalarType::Half, "float16"},
    {ScalarType::Half, "half"},
    {ScalarType::BFloat16, "bfloat16"},
    {ScalarType::Byte, "uint8"},
    {ScalarType::Char, "int8"},
    {ScalarType::Short, "int16"},
    {ScalarType::Short, "short"},
    {ScalarType::Int, "int32"},
    {ScalarType::Int, "int"},
    {ScalarType::Long, "int64"},
    {ScalarType::Long, "long"},
    {ScalarType::Bool, "bool"},
    {ScalarType::ComplexFloat, "complex64"},
    {ScalarType::ComplexFloat, "cfloat"},
    {ScalarType::ComplexDouble, "complex128"},
    {ScalarType::ComplexDouble, "cdouble"},
};

const char* repr_name(ScalarType t) {
  for (const DTypeName& n : kNames)
    if (n.type == t) return n.name;
  return "undefined";
}

}  // namespace

void bind_dtypes(nb::module_& m) {
  nb::class_<DType>(m, "dtype")
      .def("__repr__", [](const DType& d) { return std::string("brasa.") + repr_name(d.type); })
      .def_prop_ro("is_floating_point", [](const DType& d) { return is_floating_type(d.type); })
      .def_prop_ro("is_complex", [](const DType& d) { return is_complex_type(d.type); })
      .def_prop_ro("is_signed", [](const DType& d) { return is_signed_type(d.type); })
      .def_prop_ro("itemsize", [](const DType& d) { return element_size(d.type); })
      .def("__reduce__", [](const DType& d) { return std::string(repr_name(d.type)); });
  for (const DTypeName& n : kNames) {
    nb::handle& obj = g_dtypes[static_cast<int>(n.type) + 1];
    if (!obj.is_valid()) {
      nb::object o = nb::cast(DType{n.type});
      m.attr(n.name) = o;
      obj = o;
    } else {
      m.attr(n.name) = obj;
    }
  }
}

nb::object dtype_object(ScalarType t) {
  nb::handle obj = g_dtypes[static_cast<int>(t) + 1];
  if (!obj.is_valid()) throw nb::type_error("brasa: dtype has no Python object");
  return nb::borrow(obj);
}

Scalar scalar_arg(nb::handle h, const char* fn, const char* arg) {
  if (auto s = number_to_scalar(h)) return *s;
  throw brasa::TypeError(std::string(fn) + "(): argument '" + arg + "' must be a number, got " +
                         nb::type_name(h.type()).c_str());
}

std::optional<Scalar> number_to_scalar(nb::handle h) {
  PyObject* o = h.ptr();
  if (PyBool_Check(o)) return Scalar(o == Py_True);
  if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow != 0) return std::nullopt;
    return Scalar(static_cast<int64_t>(v));
  }
  if (PyFloat_Check(o)) return Scalar(PyFloat_AS_DOUBLE(o));
  if (PyComplex_Check(o))
    return Scalar(std::complex<double>(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)));
  return std::nullopt;
}

std::optional<int64_t> to_int(nb::handle h) {
  PyObject* o = h.ptr();
  if (PyBool_Check(o) || PyFloat_Check(o)) return std::nullopt;
  if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow != 0) return std::nullopt;
    return static_cast<int64_t>(v);
  }
  if (nb::isinstance<Tensor>(h)) {  // a 0-d integer tensor counts as an int, as in torch
    const Tensor& t = nb::cast<const Tensor&>(h);
    if (t.dim() == 0 && is_integral_type(t.dtype(), false)) return t.item().toLong();
    return std::nullopt;
  }
  if (PyIndex_Check(o)) {
    nb::object i = nb::steal(PyNumber_Index(o));
    if (!i.is_valid()) {
      PyErr_Clear();
      return std::nullopt;
    }
    return to_int(i);
  }
  return std::nullopt;
}

std::optional<std::vector<int64_t>> to_int_list(nb::handle h) {
  if (auto one = to_int(h)) return std::vector<int64_t>{*one};
  if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) return std::nullopt;
  std::vector<int64_t> out;
  nb::sequence seq = nb::borrow<nb::sequence>(h);
  out.reserve(nb::len(seq));
  for (nb::handle item : seq) {
    auto v = to_int(item);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

nb::object scalar_to_python(const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool: return nb::bool_(s.toBool());
    case Scalar::Kind::Int: return nb::int_(s.toLong());
    case Scalar::Kind::Double: return nb::float_(s.toDouble());
    case Scalar::Kind::Complex: {
      complex<double> z = s.toComplexDouble();
      return nb::steal(PyComplex_FromDoubles(z.real(), z.imag()));
    }
  }
  return nb::none();
}

nb::object value_to_python(const Value& v) {
  const Value::Payload& p = v.payload();
  if (const Tensor* t = std::get_if<Tensor>(&p)) return t->defined() ? nb::cast(*t) : nb::none();
  if (const auto* l = std::get_if<std::vector<Tensor>>(&p)) {
    nb::list out;
    for (const Tensor& t : *l) out.append(t.defined() ? nb::cast(t) : nb::none());
    return nb::tuple(out);
  }
  if (const Scalar* s = std::get_if<Scalar>(&p)) return scalar_to_python(*s);
  if (const int64_t* i = std::get_if<int64_t>(&p)) return nb::int_(*i);
  if (const double* d = std::get_if<double>(&p)) return nb::float_(*d);
  if (const bool* b = std::get_if<bool>(&p)) return nb::bool_(*b);
  if (const auto* l = std::get_if<std::vector<int64_t>>(&p)) return nb::cast(*l);
  if (const ScalarType* t = std::get_if<ScalarType>(&p)) return dtype_object(*t);
  if (const std::string* s = std::get_if<std::string>(&p)) return nb::str(s->c_str());
  return nb::none();
}

std::optional<std::vector<int64_t>> optional_int_list(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  return to_int_list(h);
}

nb::tuple tensor_tuple(const std::vector<Tensor>& ts) {
  nb::list l;
  for (const Tensor& t : ts) l.append(nb::cast(t));
  return nb::tuple(l);
}

void def_unary_with_out(nb::module_& m, const char* name, Tensor (*f)(const Tensor&),
                        Tensor& (*f_out)(Tensor&, const Tensor&)) {
  m.def(
      name,
      [f, f_out](const Tensor& a, std::optional<Tensor> out) {
        nb::gil_scoped_release release;
        if (out) return f_out(*out, a);
        return f(a);
      },
      nb::arg("input"), nb::kw_only(), nb::arg("out").none() = nb::none());
}

}  // namespace brasa::python
