#include "serialize_binding.h"

#include <nanobind/stl/map.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "brasa/archive/pt.h"
#include "brasa/core/error.h"
#include "brasa/serialize/safetensors.h"
#include "py_callback.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

IValue to_ivalue(nb::handle h, int depth);

IValue key_to_ivalue(nb::handle k) {
  if (nb::isinstance<nb::str>(k)) return IValue(nb::cast<std::string>(k));
  if (PyLong_Check(k.ptr()) && !PyBool_Check(k.ptr())) return IValue(nb::cast<int64_t>(k));
  throw brasa::TypeError("brasa.save: dict keys must be str or int, got " +
                         std::string(nb::type_name(k.type()).c_str()));
}

IValue to_ivalue(nb::handle h, int depth) {
  if (depth > 1000) throw brasa::ValueError("brasa.save: the object nests deeper than 1000 levels");
  if (h.is_none()) return IValue();
  if (PyBool_Check(h.ptr())) return IValue(h.ptr() == Py_True);
  if (PyLong_Check(h.ptr())) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow != 0) throw brasa::ValueError("brasa.save: an int does not fit in 64 bits");
    return IValue(static_cast<int64_t>(v));
  }
  if (PyFloat_Check(h.ptr())) return IValue(PyFloat_AsDouble(h.ptr()));
  if (nb::isinstance<nb::str>(h)) return IValue(nb::cast<std::string>(h));
  if (nb::isinstance<Tensor>(h)) return IValue(nb::cast<const Tensor&>(h).detach());
  if (PyDict_Check(h.ptr())) {
    GenericDict d;
    for (auto [k, v] : nb::borrow<nb::dict>(h)) {
      if (!d.insert(key_to_ivalue(k), to_ivalue(v, depth + 1)).second)
        throw brasa::ValueError("brasa.save: a dict key appears twice");
    }
    return IValue(d);
  }
  if (PyTuple_Check(h.ptr())) {  // torch.Size and named tuples included
    std::vector<IValue> items;
    for (nb::handle item : nb::borrow<nb::tuple>(h)) items.push_back(to_ivalue(item, depth + 1));
    return IValue::tuple(std::move(items));
  }
  if (PyList_Check(h.ptr())) {
    std::vector<IValue> items;
    for (nb::handle item : nb::borrow<nb::list>(h)) items.push_back(to_ivalue(item, depth + 1));
    return IValue(std::move(items));
  }
  throw brasa::TypeError(
      "brasa.save: cannot save an object of type " + std::string(nb::type_name(h.type()).c_str()) +
      "; brasa saves tensors, numbers, strings, None and (nested) lists, tuples and dicts of "
      "them, as torch.load(weights_only=True) reads them (save a module's state_dict())");
}

nb::object to_python(const IValue& v, nb::handle ordered_dict) {
  switch (v.tag()) {
    case IValue::Tag::None: return nb::none();
    case IValue::Tag::Bool: return nb::bool_(v.toBool());
    case IValue::Tag::Int: return nb::int_(v.toInt());
    case IValue::Tag::Double: return nb::float_(v.toDouble());
    case IValue::Tag::String: return nb::str(v.toStringRef().c_str(), v.toStringRef().size());
    case IValue::Tag::Tensor: return nb::cast(v.toTensor());
    case IValue::Tag::GenericList: {
      nb::list out;
      for (const IValue& item : v.toListRef()) out.append(to_python(item, ordered_dict));
      return out;
    }
    case IValue::Tag::Tuple: {
      const auto& items = v.toTupleRef().elements();
      nb::list out;
      for (const IValue& item : items) out.append(to_python(item, ordered_dict));
      return nb::tuple(out);
    }
    case IValue::Tag::GenericDict: {
      nb::object out = ordered_dict();
      for (const auto& entry : v.toGenericDict())
        out[to_python(entry.key(), ordered_dict)] = to_python(entry.value(), ordered_dict);
      return out;
    }
  }
  throw brasa::InternalError("brasa.load: unknown value kind " + v.tagKind());
}

nb::bytes as_bytes(const void* data, size_t size) {
  return nb::bytes(static_cast<const char*>(data), size);
}

serialize::NamedTensors named(const std::vector<std::pair<std::string, Tensor>>& items) {
  std::vector<std::pair<std::string, Tensor>> out;
  out.reserve(items.size());
  for (const auto& [name, t] : items) out.emplace_back(name, t.detach());
  return serialize::NamedTensors(std::move(out));
}

nb::tuple safetensors_to_python(const serialize::SafeTensors& st) {
  nb::list items;
  for (const auto& item : st.tensors) items.append(nb::make_tuple(item.key(), item.value()));
  return nb::make_tuple(items, st.metadata);
}

// map_location as C++'s RestoreLocation: `fn(storage, location)` called under the GIL (the load
// itself runs without it); None means every storage stays on the CPU as read.
serialize::RestoreLocation restore_from(nb::handle fn) {
  if (fn.is_none()) return {};
  return [fn](const Tensor& storage, const std::string& location) -> Tensor {
    nb::gil_scoped_acquire gil;
    try {
      nb::object out = fn(nb::cast(Tensor(storage), nb::rv_policy::move), location);
      if (!nb::isinstance<Tensor>(out)) {
        throw brasa::TypeError("brasa.load: map_location returned " +
                               std::string(nb::type_name(out.type()).c_str()) +
                               " for a storage saved on '" + location + "', expected a Tensor");
      }
      return nb::cast<Tensor>(out);
    } catch (nb::python_error& e) {
      rethrow_as_brasa_error(e);
    }
  };
}

}  // namespace

void bind_serialize(nb::module_& m) {
  using Items = std::vector<std::pair<std::string, Tensor>>;
  using Meta = std::map<std::string, std::string>;
  m.def("_save_pt", [](nb::handle obj, const std::string& path) {
    IValue value = to_ivalue(obj, 0);
    nb::gil_scoped_release release;
    serialize::save_pt(value, path);
  });
  m.def("_save_pt_bytes", [](nb::handle obj) {
    IValue value = to_ivalue(obj, 0);
    std::vector<char> bytes;
    {
      nb::gil_scoped_release release;
      bytes = serialize::save_pt_bytes(value);
    }
    return as_bytes(bytes.data(), bytes.size());
  });
  m.def(
      "_load_pt",
      [](const std::string& path, nb::handle ordered_dict, nb::handle restore) {
        serialize::RestoreLocation fn = restore_from(restore);
        IValue value;
        {
          nb::gil_scoped_release release;
          value = serialize::load_pt(path, fn);
        }
        return to_python(value, ordered_dict);
      },
      nb::arg("path"), nb::arg("ordered_dict"), nb::arg("restore") = nb::none());
  m.def(
      "_load_pt_bytes",
      [](nb::bytes data, nb::handle ordered_dict, nb::handle restore) {
        serialize::RestoreLocation fn = restore_from(restore);
        IValue value;
        {
          nb::gil_scoped_release release;  // `data` stays alive: the caller holds it
          value = serialize::load_pt_bytes(data.c_str(), data.size(), fn);
        }
        return to_python(value, ordered_dict);
      },
      nb::arg("data"), nb::arg("ordered_dict"), nb::arg("restore") = nb::none());
  m.def("_save_safetensors", [](const Items& items, const std::string& path, const Meta& meta) {
    auto tensors = named(items);
    nb::gil_scoped_release release;
    serialize::save_safetensors(path, tensors, meta);
  });
  m.def("_save_safetensors_bytes", [](const Items& items, const Meta& meta) {
    auto tensors = named(items);
    std::vector<uint8_t> bytes;
    {
      nb::gil_scoped_release release;
      bytes = serialize::save_safetensors_to_bytes(tensors, meta);
    }
    return as_bytes(bytes.data(), bytes.size());
  });
  m.def("_load_safetensors", [](const std::string& path) {
    serialize::SafeTensors st;
    {
      nb::gil_scoped_release release;
      st = serialize::load_safetensors(path);
    }
    return safetensors_to_python(st);
  });
  m.def("_load_safetensors_bytes", [](nb::bytes data) {
    serialize::SafeTensors st;
    {
      nb::gil_scoped_release release;
      st = serialize::load_safetensors_from_bytes(
          {reinterpret_cast<const uint8_t*>(data.c_str()), data.size()});
    }
    return safetensors_to_python(st);
  });
}

}  // namespace brasa::python
