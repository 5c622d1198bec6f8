#include "tensor_type.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <vector>

#include "brasa/autograd/autograd.h"
#include "brasa/autograd/node.h"
#include "brasa/core/indexing.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "convert.h"
#include "op_binding.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using indexing::Slice;
using indexing::TensorIndex;

std::optional<int64_t> slice_bound(PyObject* o) {
  if (o == Py_None) return std::nullopt;
  auto v = to_int(o);
  if (!v) throw nb::type_error("slice indices must be integers or None");
  return v;
}

Tensor list_index(nb::handle h) {
  if (auto ints = to_int_list(h))
    return from_blob(ints->data(), {int64_t(ints->size())}, kLong).clone();
  std::vector<uint8_t> bools;
  for (nb::handle item : nb::borrow<nb::sequence>(h)) {
    if (!PyBool_Check(item.ptr()))
      throw nb::index_error(
          "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
          "Variables are valid indices");
    bools.push_back(item.ptr() == Py_True);
  }
  return from_blob(bools.data(), {int64_t(bools.size())}, kBool).clone();
}

TensorIndex to_index(nb::handle h) {
  PyObject* o = h.ptr();
  if (o == Py_None) return TensorIndex(indexing::None);
  if (o == Py_Ellipsis) return TensorIndex(indexing::Ellipsis);
  if (PyBool_Check(o)) return TensorIndex(o == Py_True);
  if (PySlice_Check(o)) {
    auto* s = reinterpret_cast<PySliceObject*>(o);
    return TensorIndex(Slice(slice_bound(s->start), slice_bound(s->stop), slice_bound(s->step)));
  }
  if (nb::isinstance<Tensor>(h)) return TensorIndex(nb::cast<const Tensor&>(h));
  if (PyList_Check(o) || PyTuple_Check(o)) return TensorIndex(list_index(h));
  if (auto i = to_int(h)) return TensorIndex(*i);
  std::string msg =
      "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
      "indices (got " +
      std::string(Py_TYPE(o)->tp_name) + ")";
  throw nb::index_error(msg.c_str());
}

std::vector<TensorIndex> to_indices(nb::handle key) {
  std::vector<TensorIndex> out;
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle item : nb::borrow<nb::tuple>(key)) out.push_back(to_index(item));
    // x[()] is all of x: C++'s Tensor::index rejects an empty list, as libtorch's.
    if (out.empty()) out.emplace_back(brasa::indexing::Ellipsis);
  } else {
    out.push_back(to_index(key));
  }
  return out;
}

std::vector<Tensor> tensors_of(nb::handle h) {
  std::vector<Tensor> out;
  if (h.is_none()) return out;
  if (nb::isinstance<Tensor>(h)) {
    out.push_back(nb::cast<const Tensor&>(h));
    return out;
  }
  for (nb::handle item : nb::borrow<nb::sequence>(h))
    out.push_back(item.is_none() ? Tensor() : nb::cast<const Tensor&>(item));
  return out;
}

nb::object tensor_or_none(const Tensor& t) { return t.defined() ? nb::cast(t) : nb::none(); }

}  // namespace

nb::object bind_tensor(nb::module_& m) {
  auto cls = nb::class_<Tensor>(m, "Tensor", nb::dynamic_attr());
  // brasa.Tensor(2, 3), brasa.Tensor([1, 2]), brasa.Tensor(): torch.Tensor's legacy constructor,
  // the default dtype's (python/brasa/_tensor_legacy.py builds it).
  cls.def(nb::new_([](nb::args args, nb::kwargs kwargs) {
    nb::object made =
        nb::module_::import_("brasa._tensor_legacy").attr("construct")(*args, **kwargs);
    return nb::cast<Tensor>(made);
  }));
  cls.def_prop_ro("shape", [](const Tensor& t) { return nb::tuple(nb::cast(t.sizes().vec())); })
      .def("_sizes", [](const Tensor& t) { return t.sizes().vec(); })
      .def("dim", &Tensor::dim)
      .def_prop_ro("ndim", &Tensor::dim)
      .def("numel", &Tensor::numel)
      .def("nelement", &Tensor::numel)
      .def("element_size", [](const Tensor& t) { return t.element_size(); })
      .def("stride",
           [](const Tensor& t) {  // a tuple, as torch returns
             nb::list out;
             for (int64_t s : t.strides()) out.append(s);
             return nb::tuple(out);
           })
      .def("stride", [](const Tensor& t, int64_t d) { return t.stride(d); })
      .def("storage_offset", &Tensor::storage_offset)
      .def("is_contiguous", [](const Tensor& t) { return t.is_contiguous(); })
      .def("data_ptr", [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.data_ptr()); })
      .def_prop_ro("dtype", [](const Tensor& t) { return dtype_object(t.dtype()); })
      .def_prop_ro("_device_str", [](const Tensor& t) { return t.device().str(); })
      .def_prop_ro("is_leaf", &Tensor::is_leaf)
      .def_prop_ro("_version", [](const Tensor& t) { return t._version(); })
      .def("is_floating_point", &Tensor::is_floating_point)
      .def("is_complex", &Tensor::is_complex)
      .def_prop_rw(
          "requires_grad", [](const Tensor& t) { return t.requires_grad(); },
          [](const Tensor& t, bool r) { t.set_requires_grad(r); })
      .def(
          "requires_grad_",
          [](nb::handle self, bool r) {
            nb::cast<const Tensor&>(self).set_requires_grad(r);
            return nb::borrow(self);
          },
          nb::arg("requires_grad") = true)
      .def_prop_rw(
          "grad", [](const Tensor& t) { return tensor_or_none(t.grad()); },
          [](const Tensor& t, std::optional<Tensor> g) { t.mutable_grad() = g ? *g : Tensor(); },
          nb::arg("grad").none())
      .def_prop_ro("_grad_fn_name",
                   [](const Tensor& t) -> nb::object {
                     if (!t.grad_fn()) return nb::none();
                     return nb::str(t.grad_fn()->name().c_str());
                   })
      .def_prop_rw(
          "data", [](const Tensor& t) { return t.detach(); },
          [](const Tensor& t, const Tensor& d) { t.set_data(d); })
      // Parameter and other Python subclasses: an instance of `type` over a detached alias of
      // `data` (torch.Tensor._make_subclass).
      .def_static(
          "_make_subclass",
          [](nb::handle type, const Tensor& data, bool requires_grad) {
            if (!PyType_Check(type.ptr()) ||
                !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type.ptr()),
                                  reinterpret_cast<PyTypeObject*>(nb::type<Tensor>().ptr())))
              throw nb::type_error("_make_subclass: cls must be a subclass of brasa.Tensor");
            nb::object o = nb::inst_alloc(type);
            new (nb::inst_ptr<Tensor>(o)) Tensor(data.detach());
            nb::inst_mark_ready(o);
            nb::inst_ptr<Tensor>(o)->set_requires_grad(requires_grad);
            return o;
          },
          nb::arg("cls"), nb::arg("data"), nb::arg("requires_grad") = false)
      .def("retain_grad", &Tensor::retain_grad)
      .def_prop_ro("retains_grad", &Tensor::retains_grad)
      .def("detach", &Tensor::detach)
      .def("detach_",
           [](nb::handle self) {
             nb::cast<const Tensor&>(self).detach_();
             return nb::borrow(self);
           })
      .def(
          "backward",
          [](const Tensor& t, std::optional<Tensor> gradient, std::optional<bool> retain_graph,
             bool create_graph, nb::handle inputs) {
            std::optional<std::vector<Tensor>> in;
            if (!inputs.is_none()) in = tensors_of(inputs);
            nb::gil_scoped_release release;
            t.backward(gradient ? *gradient : Tensor(), retain_graph, create_graph, in);
          },
          nb::arg("gradient").none() = nb::none(), nb::arg("retain_graph").none() = nb::none(),
          nb::arg("create_graph") = false, nb::arg("inputs").none() = nb::none())
      .def("item",
           [](const Tensor& t) {
             Scalar s;
             {
               nb::gil_scoped_release release;
               s = t.item();
             }
             return scalar_to_python(s);
           })
      .def("__getitem__",
           [](const Tensor& t, nb::handle key) {
             // x[i] with i a 1-D Long tensor (a batch of rows: `xtr[perm[i:i + 64]]`) is
             // index_select along dim 0, which costs ~100x less than the general advanced
             // indexing; an index it rejects (a negative one) takes the general path.
             if (nb::isinstance<Tensor>(key) && t.dim() >= 1) {
               const Tensor& i = nb::cast<const Tensor&>(key);
               if (i.dim() == 1 && i.scalar_type() == kLong) {
                 nb::gil_scoped_release release;
                 try {
                   return index_select(t, 0, i);
                 } catch (const brasa::IndexError&) {
                 }
                 return t.index({TensorIndex(i)});
               }
             }
             std::vector<TensorIndex> idx = to_indices(key);
             nb::gil_scoped_release release;
             return t.index(idx);
           })
      .def("__setitem__",
           [](const Tensor& t, nb::handle key, nb::handle value) {
             std::vector<TensorIndex> idx = to_indices(key);
             if (nb::isinstance<Tensor>(value)) {
               const Tensor& v = nb::cast<const Tensor&>(value);
               nb::gil_scoped_release release;
               t.index_put_(idx, v);
               return;
             }
             auto s = number_to_scalar(value);
             if (!s)
               throw nb::type_error(
                   ("can't assign a " + std::string(Py_TYPE(value.ptr())->tp_name) + " to a Tensor")
                       .c_str());
             nb::gil_scoped_release release;
             t.index_put_(idx, *s);
           })
      .def("__len__",
           [](const Tensor& t) {
             if (t.dim() == 0) throw nb::type_error("len() of a 0-d tensor");
             return t.size(0);
           })
      .def("__hash__", [](nb::handle self) { return reinterpret_cast<intptr_t>(self.ptr()); })
      .def("_is_same", [](const Tensor& a, const Tensor& b) { return a.is_same(b); })
      .def("_use_count", [](const Tensor& t) { return t.use_count(); });

  m.def(
      "_grad",
      [](nb::handle outputs, nb::handle inputs, nb::handle grad_outputs,
         std::optional<bool> retain_graph, bool create_graph, bool allow_unused) {
        std::vector<Tensor> out = tensors_of(outputs), in = tensors_of(inputs),
                            go = tensors_of(grad_outputs);
        std::vector<Tensor> r;
        {
          nb::gil_scoped_release release;
          r = autograd::grad(out, in, go, retain_graph, create_graph, allow_unused);
        }
        nb::list res;
        for (const Tensor& g : r) res.append(tensor_or_none(g));
        return nb::tuple(res);
      },
      nb::arg("outputs"), nb::arg("inputs"), nb::arg("grad_outputs").none(),
      nb::arg("retain_graph").none(), nb::arg("create_graph"), nb::arg("allow_unused"));
  return cls;
}

namespace {

enum class Form { Normal, Reflected, InPlace };
struct OperatorSpec {
  const char* dunder;
  const char* op;
  Form form;
};
constexpr OperatorSpec kOperators[] = {
    {"__add__", "add", Form::Normal},
    {"__radd__", "add", Form::Reflected},
    {"__iadd__", "add_", Form::InPlace},
    {"__sub__", "sub", Form::Normal},
    {"__rsub__", "sub", Form::Reflected},
    {"__isub__", "sub_", Form::InPlace},
    {"__mul__", "mul", Form::Normal},
    {"__rmul__", "mul", Form::Reflected},
    {"__imul__", "mul_", Form::InPlace},
    {"__truediv__", "div", Form::Normal},
    {"__rtruediv__", "div", Form::Reflected},
    {"__itruediv__", "div_", Form::InPlace},
    {"__floordiv__", "floor_divide", Form::Normal},
    {"__rfloordiv__", "floor_divide", Form::Reflected},
    {"__ifloordiv__", "floor_divide_", Form::InPlace},
    {"__mod__", "remainder", Form::Normal},
    {"__rmod__", "remainder", Form::Reflected},
    {"__imod__", "remainder_", Form::InPlace},
    {"__pow__", "pow", Form::Normal},
    {"__rpow__", "pow", Form::Reflected},
    {"__ipow__", "pow_", Form::InPlace},
    {"__matmul__", "matmul", Form::Normal},
    {"__rmatmul__", "matmul", Form::Reflected},
    {"__and__", "bitwise_and", Form::Normal},
    {"__rand__", "bitwise_and", Form::Reflected},
    {"__iand__", "bitwise_and_", Form::InPlace},
    {"__or__", "bitwise_or", Form::Normal},
    {"__ror__", "bitwise_or", Form::Reflected},
    {"__ior__", "bitwise_or_", Form::InPlace},
    {"__xor__", "bitwise_xor", Form::Normal},
    {"__rxor__", "bitwise_xor", Form::Reflected},
    {"__ixor__", "bitwise_xor_", Form::InPlace},
    {"__lshift__", "bitwise_left_shift", Form::Normal},
    {"__rshift__", "bitwise_right_shift", Form::Normal},
    {"__eq__", "eq", Form::Normal},
    {"__ne__", "ne", Form::Normal},
    {"__lt__", "lt", Form::Normal},
    {"__le__", "le", Form::Normal},
    {"__gt__", "gt", Form::Normal},
    {"__ge__", "ge", Form::Normal},
    {"__neg__", "neg", Form::Normal},
    {"__abs__", "abs", Form::Normal},
    {"__invert__", "bitwise_not", Form::Normal},
};

}  // namespace

void bind_operators(nb::handle cls) {
  for (const OperatorSpec& spec : kOperators) {
    const OpGroup* g = find_group(spec.op);
    if (!g) continue;
    const bool unary = std::string_view(spec.dunder) == "__neg__" ||
                       std::string_view(spec.dunder) == "__abs__" ||
                       std::string_view(spec.dunder) == "__invert__";
    nb::object fn;
    if (unary) {
      fn = nb::cpp_function(
          [g](nb::handle self) { return call_group(*g, self, nb::tuple(), nb::handle()); },
          nb::is_method(), nb::name(spec.dunder));
    } else if (spec.form == Form::Reflected) {
      fn = nb::cpp_function(
          [g](nb::handle self, nb::handle other) -> nb::object {
            if (!number_to_scalar(other)) return nb::borrow(Py_NotImplemented);
            return call_group(*g, nb::handle(), nb::make_tuple(other, self), nb::handle(), true);
          },
          nb::is_method(), nb::name(spec.dunder));
    } else {
      fn = nb::cpp_function(
          [g](nb::handle self, nb::handle other) -> nb::object {
            if (!nb::isinstance<Tensor>(other) && !number_to_scalar(other))
              return nb::borrow(Py_NotImplemented);
            return call_group(*g, self, nb::make_tuple(other), nb::handle());
          },
          nb::is_method(), nb::name(spec.dunder));
    }
    nb::setattr(cls, spec.dunder, fn);
  }
}

}  // namespace brasa::python
