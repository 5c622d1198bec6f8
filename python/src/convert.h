#pragma once
// Conversions between Python objects and brasa values: dtypes (one Python object per ScalarType, so
// `t.dtype is brasa.float32` holds as in torch), Python numbers as Scalars or wrapped 0-d tensors,
// int lists, devices, and boxed results back to Python.

#include <nanobind/nanobind.h>

#include <optional>
#include <vector>

#include "brasa/dispatch/value.h"

namespace brasa::python {

/// The Python object of a dtype (`brasa.float32`); registered by bind_dtypes.
struct DType {
  ScalarType type;
};
void bind_dtypes(nanobind::module_& m);
nanobind::object dtype_object(ScalarType t);

/// Python bool/int/float (not a Tensor) as a Scalar; nullopt for anything else.
std::optional<Scalar> number_to_scalar(nanobind::handle h);
/// A Python number argument `arg` of torch function `fn` as a Scalar; TypeError naming both else.
Scalar scalar_arg(nanobind::handle h, const char* fn, const char* arg);
/// An int that is not a bool (or an object with __index__ that is not a float); nullopt otherwise.
std::optional<int64_t> to_int(nanobind::handle h);
/// An int, or a list/tuple of ints (torch.Size included); nullopt otherwise.
std::optional<std::vector<int64_t>> to_int_list(nanobind::handle h);
/// None, an int or a sequence of ints (torch's `dim=`/`s=` arguments) as an optional int list.
std::optional<std::vector<int64_t>> optional_int_list(nanobind::handle h);
/// A factory's dtype= (None: the default dtype) as TensorOptions.
inline TensorOptions dtype_options(const std::optional<DType>& dtype) {
  return TensorOptions(dtype ? dtype->type : get_default_dtype());
}
/// An optional dtype= argument as the optional ScalarType C++ functions take.
inline std::optional<ScalarType> optional_scalar_type(const std::optional<DType>& dtype) {
  return dtype ? std::optional<ScalarType>(dtype->type) : std::nullopt;
}
/// A view of an optional int list as the OptionalIntArrayRef C++ functions take.
inline OptionalIntArrayRef optional_dims(const std::optional<std::vector<int64_t>>& v) {
  return v ? OptionalIntArrayRef(IntArrayRef(*v)) : OptionalIntArrayRef();
}
/// Tensors as a Python tuple (torch returns tuples from split-like functions).
nanobind::tuple tensor_tuple(const std::vector<Tensor>& ts);
/// Binds `name(input, *, out=None)` calling f, or f_out when out is given (GIL released).
void def_unary_with_out(nanobind::module_& m, const char* name, Tensor (*f)(const Tensor&),
                        Tensor& (*f_out)(Tensor&, const Tensor&));
/// A Scalar as a Python bool, int, float or complex.
nanobind::object scalar_to_python(const Scalar& s);
/// One boxed value (a result) as a Python object; undefined tensors become None.
nanobind::object value_to_python(const Value& v);

}  // namespace brasa::python
