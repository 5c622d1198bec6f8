#include "dlpack_interop.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>

#include <optional>
#include <string>
#include <tuple>

#include "brasa/core/error.h"
#include "brasa/dlpack.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

constexpr const char* kLegacy = "dltensor";
constexpr const char* kLegacyUsed = "used_dltensor";
constexpr const char* kVersioned = "dltensor_versioned";
constexpr const char* kVersionedUsed = "used_dltensor_versioned";

// A capsule still holding its name was never consumed: its destructor releases the tensor.
void legacy_capsule_destructor(PyObject* cap) {
  if (!PyCapsule_IsValid(cap, kLegacy)) return;
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, kLegacy));
  if (m && m->deleter) m->deleter(m);
}
void versioned_capsule_destructor(PyObject* cap) {
  if (!PyCapsule_IsValid(cap, kVersioned)) return;
  auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(cap, kVersioned));
  if (m && m->deleter) m->deleter(m);
}

template <class Managed>
struct GilDeleter {  // Note [DLPack deleters and the GIL]
  static void run(Managed* mine) {
    auto* producer = static_cast<Managed*>(mine->manager_ctx);
    if (producer->deleter && Py_IsInitialized()) {
      nb::gil_scoped_acquire gil;
      producer->deleter(producer);
    }
    delete mine;
  }
  static Managed* wrap(Managed* producer) {
    auto* mine = new Managed(*producer);
    mine->manager_ctx = producer;
    mine->deleter = &run;
    return mine;
  }
};

nb::object to_capsule(const Tensor& t, std::optional<std::tuple<int, int>> max_version) {
  PyObject* cap = nullptr;
  if (max_version && std::get<0>(*max_version) >= 1) {
    DLManagedTensorVersioned* m = to_dlpack_versioned(t);
    cap = PyCapsule_New(m, kVersioned, &versioned_capsule_destructor);
    if (!cap) m->deleter(m);
  } else {
    DLManagedTensor* m = to_dlpack(t);
    cap = PyCapsule_New(m, kLegacy, &legacy_capsule_destructor);
    if (!cap) m->deleter(m);
  }
  if (!cap) throw nb::python_error();
  return nb::steal(cap);
}

Tensor from_capsule(nb::handle h) {
  PyObject* cap = h.ptr();
  if (PyCapsule_IsValid(cap, kVersioned)) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(cap, kVersioned));
    PyCapsule_SetName(cap, kVersionedUsed);
    return from_dlpack(GilDeleter<DLManagedTensorVersioned>::wrap(m));
  }
  if (PyCapsule_IsValid(cap, kLegacy)) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, kLegacy));
    PyCapsule_SetName(cap, kLegacyUsed);
    return from_dlpack(GilDeleter<DLManagedTensor>::wrap(m));
  }
  throw brasa::TypeError(
      std::string("from_dlpack: expected an object with __dlpack__ or an unused DLPack capsule, "
                  "got ") +
      Py_TYPE(cap)->tp_name + (PyCapsule_CheckExact(cap) ? " (already consumed?)" : ""));
}

}  // namespace

void bind_dlpack(nb::module_& m, nb::handle tensor_class) {
  nb::setattr(tensor_class, "__dlpack__",
              nb::cpp_function(
                  [](const Tensor& t, nb::handle /*stream*/,
                     std::optional<std::tuple<int, int>> max_version, nb::handle /*dl_device*/,
                     std::optional<bool> copy) {
                    if (copy && *copy) return to_capsule(t.clone(), max_version);
                    return to_capsule(t, max_version);
                  },
                  nb::is_method(), nb::name("__dlpack__"), nb::arg("stream").none() = nb::none(),
                  nb::arg("max_version").none() = nb::none(),
                  nb::arg("dl_device").none() = nb::none(), nb::arg("copy").none() = nb::none()));
  nb::setattr(tensor_class, "__dlpack_device__",
              nb::cpp_function(
                  [](const Tensor& t) {
                    if (!t.device().is_cpu())
                      throw brasa::ValueError("__dlpack_device__: brasa exports CPU tensors only");
                    return std::make_tuple(1, 0);  // kDLCPU, device 0
                  },
                  nb::is_method(), nb::name("__dlpack_device__")));
  m.def("_from_dlpack_capsule", &from_capsule);
}

}  // namespace brasa::python
