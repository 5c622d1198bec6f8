// brasa._compiled: the C++ side of brasa.compile (python/brasa/compiler.py, docs/python.md). It is
// separate from brasa._C so that `import brasa` does not load libbrasa_compile; tensors cross
// through the nanobind type that brasa._C registers.
//
// Note [Compiling a Python function]
// brasa::compile's machinery (src/compile/compiled_function.cpp) calls a Runner whenever the user
// function must run: to trace it (under the Trace dispatch key) or eagerly (a graph break, the
// recompile limit). The runner here calls a Python closure with no arguments, made by
// compiler.py for this one call, which calls the user's function on the caller's own Python
// objects (so identity, subclasses and attributes survive) and returns its tensors flattened. The
// machinery only ever runs the function on the inputs of the call in progress, so the closure's
// tensors are the inputs it defined. A call serves from a compiled graph without entering Python.
// The GIL is released for the whole call (guards, replay, the C++ compiler) and taken again by
// the runner; a Python exception raised by the function crosses the C++ frames as it is
// (nanobind's python_error) and reaches the caller unchanged.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "brasa/compile.h"
#include "brasa/core/error.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using Tensors = std::vector<Tensor>;

/// One guard-keyed family of graphs (brasa::compile's CompiledFunction).
struct Handle {
  std::shared_ptr<compile_detail::CompiledFunction> impl;
};

void run_closure(const void* closure, const Tensors& /*inputs: the closure's own*/,
                 Tensors& outputs) {
  nb::gil_scoped_acquire gil;
  nb::handle f(static_cast<PyObject*>(const_cast<void*>(closure)));
  nb::object r = f();
  for (nb::handle h : r) {
    if (!nb::isinstance<Tensor>(h))
      throw brasa::TypeError("brasa.compile: the function's flattened results must be tensors");
    outputs.push_back(nb::cast<Tensor>(h));
  }
}

Dynamic parse_dynamic(const std::string& s) {
  if (s == "static") return Dynamic::Static;
  if (s == "automatic") return Dynamic::Automatic;
  if (s == "all") return Dynamic::All;
  throw brasa::ValueError("brasa.compile: dynamic must be 'static', 'automatic' or 'all', got '" +
                          s + "'");
}

CompileMode parse_mode(const std::string& s) {
  if (s == "default") return CompileMode::Default;
  if (s == "no-fuse") return CompileMode::NoFuse;
  if (s == "interpret") return CompileMode::Interpret;
  throw brasa::ValueError("brasa.compile: mode must be 'default', 'no-fuse' or 'interpret', got '" +
                          s + "'");
}

nb::dict stats_dict() {
  CompileStats s = compile_stats();
  nb::dict d;
  d["traces"] = s.traces;
  d["graphs"] = s.graphs;
  d["compiler_runs"] = s.compiler_runs;
  d["compiler_failures"] = s.compiler_failures;
  d["disk_cache_hits"] = s.disk_cache_hits;
  d["memory_cache_hits"] = s.memory_cache_hits;
  d["recompiles"] = s.recompiles;
  d["graph_breaks"] = s.graph_breaks;
  d["compiled_calls"] = s.compiled_calls;
  d["eager_calls"] = s.eager_calls;
  d["fused_kernels"] = s.fused_kernels;
  d["row_kernels"] = s.row_kernels;
  d["column_kernels"] = s.column_kernels;
  d["matmul_epilogues"] = s.matmul_epilogues;
  d["backward_graphs"] = s.backward_graphs;
  d["saved_for_backward"] = s.saved_for_backward;
  d["saved_by_eager"] = s.saved_by_eager;
  d["recompile_reasons"] = s.recompile_reasons;
  return d;
}

}  // namespace
}  // namespace brasa::python

NB_MODULE(_compiled, m) {
  using namespace brasa;
  using brasa::python::Handle;
  nb::class_<Handle>(m, "CompiledFunction");
  m.def(
      "make",
      [](const std::string& dynamic, int recompile_limit, bool fullgraph, const std::string& mode,
         const std::string& name) -> nb::object {
        BRASA_CHECK(recompile_limit >= 1, "brasa.compile: recompile_limit must be at least 1, got ",
                    recompile_limit);
        CompileOptions o;
        o.dynamic = python::parse_dynamic(dynamic);
        o.recompile_limit = recompile_limit;
        o.fullgraph = fullgraph;
        o.mode = python::parse_mode(mode);
        o.name = name;
        auto impl = compile_detail::make_compiled(std::move(o));
        if (!impl) return nb::none();  // BRASA_COMPILE=0
        return nb::cast(Handle{std::move(impl)});
      },
      nb::arg("dynamic"), nb::arg("recompile_limit"), nb::arg("fullgraph"), nb::arg("mode"),
      nb::arg("name"));
  m.def(
      "call",
      [](Handle& h, const python::Tensors& inputs, nb::object closure) {
        python::Tensors outputs;
        {
          nb::gil_scoped_release release;
          compile_detail::call(*h.impl, inputs, &python::run_closure, closure.ptr(), outputs);
        }
        return outputs;
      },
      nb::arg("handle"), nb::arg("inputs"), nb::arg("closure"));
  m.def("stats", &python::stats_dict);
  m.def("reset_stats", &reset_compile_stats);
  m.def("mark_dynamic", &mark_dynamic, nb::arg("tensor"), nb::arg("dim"), nb::arg("min") = 2,
        nb::arg("max") = INT64_MAX);
}
