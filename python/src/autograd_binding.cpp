#include "autograd_binding.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string>
#include <vector>

#include "brasa/autograd/custom_function.h"
#include "brasa/autograd/history.h"
#include "brasa/dispatch/grad_mode.h"
#include "py_callback.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using autograd::variable_list;

// Note [Python autograd functions]
// `class F(brasa.autograd.Function)` with static forward(ctx, ...) and backward(ctx, ...):
// F.apply(*args) calls _function_apply, which does what C++'s Function<T>::apply does (the same
// CustomNodeBase, the same wrap_outputs), with a node whose backward calls F.backward under the
// GIL. The Python ctx is a FunctionCtx object over the node's AutogradContext: the node owns the
// ctx (PyRef), the ctx sees the node through a weak_ptr, so neither keeps the other alive in a
// cycle.
class PyFunctionNode final : public autograd::CustomNodeBase {
 public:
  PyRefPtr cls, py_ctx;
  std::string node_name;
  std::string name() const override { return node_name; }

 private:
  variable_list call_backward(variable_list grads) override {
    nb::gil_scoped_acquire gil;
    try {
      nb::list args;
      args.append(py_ctx->get());
      for (const Tensor& g : grads) args.append(g.defined() ? nb::cast(g) : nb::none());
      nb::object r = cls->get().attr("backward")(*nb::tuple(args));
      variable_list out;
      auto add = [&](nb::handle h) { out.push_back(h.is_none() ? Tensor() : nb::cast<Tensor>(h)); };
      if (nb::isinstance<nb::tuple>(r) || nb::isinstance<nb::list>(r)) {
        for (nb::handle h : r) add(h);
      } else {
        add(r);
      }
      // torch's rule: one gradient per forward argument; extras only as None.
      while (out.size() > num_forward_args && !out.back().defined()) out.pop_back();
      if (out.size() != num_forward_args)
        throw brasa::RuntimeError(
            "function " + node_name + " returned an incorrect number of gradients (expected " +
            std::to_string(num_forward_args) + ", got " + std::to_string(out.size()) + ")");
      return out;
    } catch (nb::python_error& e) {
      rethrow_as_brasa_error(e);
    } catch (const nb::cast_error&) {
      throw brasa::TypeError(node_name + ": backward must return Tensors or None");
    }
  }
};

struct FunctionCtx {
  std::weak_ptr<PyFunctionNode> node;
  std::shared_ptr<PyFunctionNode> lock() const {
    auto n = node.lock();
    if (!n)
      throw brasa::RuntimeError(
          "Trying to use a Function's ctx after its graph was freed (the node is gone)");
    return n;
  }
};

std::vector<Tensor> tensor_args(nb::args args) {
  std::vector<Tensor> out;
  for (nb::handle h : args) out.push_back(h.is_none() ? Tensor() : nb::cast<Tensor>(h));
  return out;
}

nb::object function_apply(nb::handle cls, nb::args args) {
  std::vector<Tensor> inputs;
  auto node = std::make_shared<PyFunctionNode>();
  int position = 0;
  for (nb::handle h : args) {
    if (nb::isinstance<Tensor>(h)) {
      inputs.push_back(nb::cast<Tensor>(h));
      node->tensor_arg_positions.push_back(position);
      node->tensor_flat_positions.push_back(position);
    }
    ++position;
  }
  node->num_forward_args = node->num_flat_inputs = static_cast<size_t>(position);
  bool needs_grad = false;
  if (GradMode::is_enabled())
    for (const Tensor& t : inputs) needs_grad = needs_grad || t.requires_grad();
  node->node_name = std::string(nb::str(cls.attr("__name__")).c_str()) + "Backward";
  node->ctx.set_node(node);
  node->cls = make_ref(cls);
  nb::object ctx = nb::cast(FunctionCtx{node});
  node->py_ctx = make_ref(ctx);
  if (needs_grad) node->set_next_edges(autograd::collect_next_edges(ArrayRef<Tensor>(inputs)));
  nb::object result;
  {
    AutoGradMode no_grad(false);
    nb::list fargs;
    fargs.append(ctx);
    for (nb::handle h : args) fargs.append(h);
    result = cls.attr("forward")(*nb::tuple(fargs));
  }
  const bool single = nb::isinstance<Tensor>(result);
  std::vector<nb::object> items;
  if (single) {
    items.push_back(result);
  } else if (nb::isinstance<nb::tuple>(result) || nb::isinstance<nb::list>(result)) {
    for (nb::handle h : result) items.push_back(nb::borrow(h));
  } else {
    return result;  // no tensor output: nothing to connect
  }
  variable_list outs;
  std::vector<size_t> where;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!nb::isinstance<Tensor>(items[i])) continue;
    outs.push_back(nb::cast<Tensor>(items[i]));
    where.push_back(i);
  }
  autograd::detail::wrap_outputs(*node, node, inputs, outs, needs_grad);
  // An output that is still the forward's tensor (a dirty input, modified in place) keeps its
  // Python object, as torch returns the same object; any other becomes a new one.
  for (size_t k = 0; k < outs.size(); ++k)
    if (!nb::cast<const Tensor&>(items[where[k]]).is_same(outs[k]))
      items[where[k]] = nb::cast(outs[k]);
  if (single) return items[0];
  nb::list l;
  for (auto& o : items) l.append(o);
  return nb::tuple(l);
}

struct InferenceModeScope {
  explicit InferenceModeScope(bool e) : enabled(e) {}
  bool enabled;
  std::unique_ptr<InferenceMode> guard;
};

}  // namespace

void bind_autograd(nb::module_& m) {
  nb::class_<FunctionCtx>(m, "_FunctionCtx", nb::dynamic_attr())
      .def("save_for_backward",
           [](const FunctionCtx& c, nb::args tensors) {
             c.lock()->ctx.save_for_backward(tensor_args(tensors));
           })
      .def_prop_ro("saved_tensors",
                   [](const FunctionCtx& c) {
                     variable_list v = c.lock()->ctx.get_saved_variables();
                     nb::list l;
                     for (const Tensor& t : v) l.append(t.defined() ? nb::cast(t) : nb::none());
                     return nb::tuple(l);
                   })
      .def("mark_dirty", [](const FunctionCtx& c,
                            nb::args tensors) { c.lock()->ctx.mark_dirty(tensor_args(tensors)); })
      .def("mark_non_differentiable",
           [](const FunctionCtx& c, nb::args tensors) {
             c.lock()->ctx.mark_non_differentiable(tensor_args(tensors));
           })
      .def("set_materialize_grads",
           [](const FunctionCtx& c, bool v) { c.lock()->ctx.set_materialize_grads(v); })
      .def_prop_ro("needs_input_grad", [](const FunctionCtx& c) {
        auto n = c.lock();
        nb::list l;
        for (size_t i = 0; i < n->num_forward_args; ++i)
          l.append(nb::bool_(n->ctx.needs_input_grad(i)));
        return nb::tuple(l);
      });
  m.def("_function_apply", &function_apply);

  m.def("_register_hook", [](const Tensor& t, nb::handle fn) {
    PyRefPtr ref = make_ref(fn);
    return t.register_hook([ref](const Tensor& grad) -> Tensor {
      nb::gil_scoped_acquire gil;
      try {
        nb::object r = ref->get()(grad);
        return r.is_none() ? Tensor() : nb::cast<Tensor>(r);
      } catch (nb::python_error& e) {
        rethrow_as_brasa_error(e);
      } catch (const nb::cast_error&) {
        throw brasa::TypeError("a tensor hook must return a Tensor or None");
      }
    });
  });
  m.def("_remove_hook", [](const Tensor& t, unsigned id) { t.remove_hook(id); });

  nb::class_<InferenceModeScope>(m, "_InferenceMode")
      .def(nb::init<bool>())
      .def("__enter__",
           [](InferenceModeScope& s) { s.guard = std::make_unique<InferenceMode>(s.enabled); })
      .def("__exit__", [](InferenceModeScope& s, nb::args) {
        s.guard.reset();
        return false;
      });
  m.def("is_inference_mode_enabled", &InferenceMode::is_enabled);
}

}  // namespace brasa::python
