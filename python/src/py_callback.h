#pragma once
// Note [Python callbacks from C++]
// A Python callable that C++ keeps (a tensor hook, an autograd.Function's class and ctx) is held by
// PyRef, a strong reference that may be dropped on any thread without the GIL: autograd frees a
// graph's nodes and a tensor's hooks wherever its last reference goes, often inside an op that runs
// with the GIL released. The callback itself runs under the GIL (taken again by whichever thread
// the engine calls it on), and a Python exception it raises becomes the brasa error of the same
// kind (ValueError, TypeError, IndexError, NotImplementedError, else RuntimeError) carrying the
// Python message, so it crosses the C++ engine as any brasa error does and reaches the Python
// caller as that exception type again (Note [Python errors]).

#include <nanobind/nanobind.h>

#include <memory>

namespace brasa::python {

class PyRef {
 public:
  explicit PyRef(nanobind::handle h) : obj_(h.inc_ref().ptr()) {}
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  ~PyRef();
  nanobind::handle get() const { return obj_; }

 private:
  PyObject* obj_;
};
using PyRefPtr = std::shared_ptr<PyRef>;
inline PyRefPtr make_ref(nanobind::handle h) { return std::make_shared<PyRef>(h); }

/// Rethrows the Python exception `e` (caught with the GIL held) as the matching brasa error.
[[noreturn]] void rethrow_as_brasa_error(nanobind::python_error& e);

}  // namespace brasa::python
