#include "compile/trace.h"

#include <unordered_map>

#include "brasa/autograd/autograd.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/factory.h"
#include "compile/fused_eager.h"
#include "core/device_hooks.h"

namespace brasa::compiler {

// Note [Tracing]
// The tracer is a boxed fallback at DispatchKey::Trace, the highest-priority key; tracing includes
// Trace in the thread's key set, so every op the user function calls reaches it (ops called
// inside kernels do not: the fallback excludes Trace while the op runs). It records the call as a
// Node and redispatches, so the op really runs: the first call's results are eager's, shapes and
// dtypes are the op's own rules (meta functions inside the kernels), and nothing is re-derived.
// A tensor argument the tracer has not seen is a wrapped number (`x * 2.0`: a Literal) or a tensor
// the function closes over (Captured, read afresh on every replay).
//
// Note [Graph breaks]
// What reads values into C++ (item(), printing a tensor), ops whose result shape depends on the
// data (nonzero, masked_select, _unique2) and ops that return a non-tensor value cannot be
// replayed without running the user's C++ again. The trace stops recording there and the rest of
// the function runs eagerly; the compiled function then runs eagerly for that signature (with
// `fullgraph`, the break throws instead), so the result is always eager's.

// Note [Tensor identity]
// The tracer knows a tensor by its TensorImpl's address. Tensor objects are pooled and storage
// blocks are cached, so once an intermediate dies another tensor may get its address. Results of
// at most 64 KiB are kept alive until the trace ends (so their addresses stay theirs); for larger
// ones a lookup also compares the data pointer, dtype and sizes, so only a tensor made outside the
// dispatcher at the same address, in the same storage block, with the same shape could be
// mistaken for the dead one. Keeping large results alive would hold every intermediate of the
// trace at once (20 fresh 64 MiB buffers made a 16M-element chain's trace 25x slower than eager).
// Other sizes at a known address and data pointer mean a tensor resized outside the dispatcher (a
// graph break) unless the dead tensor was a view and the trace is in the backward phase: a view
// shares its base's data pointer, so another view of the same base (the autograd engine's
// transposes of a weight) may take a dead view's address with other sizes; it is looked up by its
// storage, data pointer, sizes and strides as every tensor the backward reads is (Note [Joint
// capture]), and one not found there stops the backward's capture. (Keeping views alive instead
// holds references that turn the engine's in-place gradient sums into out-of-place ones.)
// Wrapped numbers (`x * 2.0`) are never looked up: each is a new literal.
//
// Note [Joint capture]
// When a compiled function's outputs require grad, the trace goes on after the function returns:
// the tracer calls autograd::grad on those outputs with stand-in gradients (new graph values),
// targeting the inputs and captured tensors that require grad (retain_graph, so the traced call's
// own results keep their history). The engine runs every node's own derivative formula on this
// thread, so the ops they call are recorded like the forward's: the backward graph is eager's
// backward, op for op, in eager's order (accumulations included). Saved tensors reach the formulas
// as aliases (SavedVariable keeps a shallow alias), so in this phase an unknown tensor is also
// looked up by its storage: data pointer, dtype, sizes and strides. Saved tensors are alive, and
// the latest tensor defined at an address wins, so a dead intermediate that once had the address
// is never chosen. Anything the backward cannot be replayed from (a tensor the tracer never saw, a
// formula reading data) makes the backward eager for that graph (BackwardTrace::fallback). A
// function that registers tensor hooks (register_hook: each takes a hook id, so the tracer sees ids
// taken while it runs) runs eagerly for that signature: its C++ must register them on every call,
// and the stand-in backward is not run (the hooks would see stand-in gradients).

namespace {

constexpr size_t kKeepAliveBytes = 64 << 10;

struct Tracer {
  struct Known {
    int32_t id;
    const void* data;
    bool view;  ///< a view's result (Note [Tensor identity])
  };
  Graph graph;
  std::unordered_map<const TensorImpl*, Known> ids;
  std::vector<Tensor> keep_alive;                       // small results (Note [Tensor identity])
  std::unordered_map<std::string, int32_t> by_storage;  // Note [Joint capture]
  std::string break_reason;
  std::string backward_break;  // the backward phase met something it cannot replay
  bool in_backward = false;
  bool hooks_registered = false;  // register_hook inside the function (hook ids were taken)
  bool fullgraph = false;
  std::string name;

  static std::string storage_key(const Tensor& t) {
    std::string k = std::to_string(reinterpret_cast<uintptr_t>(t.data_ptr())) + ":" +
                    std::to_string(static_cast<int>(t.scalar_type()));
    for (int64_t s : t.sizes()) k += "," + std::to_string(s);
    k += ";";
    for (int64_t s : t.strides()) k += "," + std::to_string(s);
    return k;
  }
  bool stopped() const { return !break_reason.empty() || !backward_break.empty(); }

  int32_t value_of(const Tensor& t) {
    TensorImpl* impl = t.unsafeGetTensorImpl();
    if (!impl->is_wrapped_number()) {
      auto it = ids.find(impl);
      if (it != ids.end() && it->second.data == t.data_ptr() &&
          graph.values[it->second.id].dtype == t.dtype()) {
        if (t.sizes() == IntArrayRef(graph.values[it->second.id].sizes)) return it->second.id;
        // The same tensor with other sizes: reshaped outside the dispatcher. Taking it as a
        // captured constant would replay its trace-time data. (A dead view's address: another
        // tensor, Note [Tensor identity].)
        if (!it->second.view || !in_backward)
          graph_break("a tensor resized outside the dispatcher");
      }
      if (in_backward) {
        auto s = by_storage.find(storage_key(t));
        if (s != by_storage.end()) return s->second;
        if (backward_break.empty())
          backward_break = "the backward reads a tensor the trace did not see";
      }
    }
    ValueInfo info;
    info.kind = impl->is_wrapped_number() ? ValueKind::Literal : ValueKind::Captured;
    info.constant = t;
    return define(t, std::move(info));
  }
  int32_t define(const Tensor& t, ValueInfo info, bool view = false) {
    info.dtype = t.dtype();
    info.sizes = t.sizes().vec();
    info.strides = t.strides().vec();
    info.contiguous = t.is_contiguous();
    info.cpu = t.is_cpu();
    int32_t id = graph.add_value(std::move(info));
    ids[t.unsafeGetTensorImpl()] = {id, t.data_ptr(), view};
    by_storage[storage_key(t)] = id;
    if (t.nbytes() <= kKeepAliveBytes) keep_alive.push_back(t);
    return id;
  }
  void graph_break(const std::string& reason) {
    if (in_backward) {
      if (backward_break.empty()) backward_break = "the backward needs data: " + reason;
      return;
    }
    if (!break_reason.empty()) return;
    break_reason = reason;
    BRASA_CHECK_TYPED(RuntimeError, !fullgraph, "compile(fullgraph=true): graph break at ", reason,
                      " in ", name,
                      "; a fullgraph function must not read tensor values or call ops whose "
                      "result shape depends on the data");
  }
};

thread_local Tracer* t_tracer = nullptr;

bool data_dependent(const std::string& name) {
  return name == "nonzero" || name == "masked_select" || name == "_unique2";
}

void record_arguments(Tracer& t, const OperatorHandle& op, Node& n) {
  const SchemaInfo& schema = op.schema_info();
  for (size_t i = 0; i < n.args.size(); ++i) {
    Value& v = n.args[i];
    const bool written = i < schema.arguments.size() && schema.arguments[i].written;
    if (v.is_tensor() && v.tensor().defined()) {
      n.refs.push_back({static_cast<int32_t>(i), -1, t.value_of(v.tensor())});
      n.mutates |= written;
      v = Value();
    } else if (v.is_tensor_list()) {
      auto& list = v.get<std::vector<Tensor>>();
      for (size_t j = 0; j < list.size(); ++j) {
        if (!list[j].defined()) continue;
        n.refs.push_back({static_cast<int32_t>(i), static_cast<int32_t>(j), t.value_of(list[j])});
        list[j] = Tensor();
        n.mutates |= written;
      }
    } else if (v.is<Generator>() || (v.is_none() && i < schema.arguments.size() &&
                                     schema.arguments[i].type.find("Generator") == 0)) {
      n.is_random = true;
    }
  }
  n.is_view = schema.returns_view;
}

void record_results(Tracer& t, Node& n, const Stack& stack) {
  n.num_results = static_cast<int32_t>(stack.size());
  for (size_t i = 0; i < stack.size(); ++i) {
    const Value& v = stack[i];
    if (v.is_tensor() && v.tensor().defined()) {
      n.results.push_back(
          {static_cast<int32_t>(i), -1, t.define(v.tensor(), ValueInfo{}, n.is_view)});
    } else if (v.is_tensor_list()) {
      const auto& list = v.get<std::vector<Tensor>>();
      for (size_t j = 0; j < list.size(); ++j)
        n.results.push_back({static_cast<int32_t>(i), static_cast<int32_t>(j),
                             t.define(list[j], ValueInfo{}, n.is_view)});
    } else if (!v.is_none() && !v.is_tensor()) {
      t.graph_break(n.op->name() + " (it returns a value to C++: " + value_key(v) + ")");
    }
  }
}

void trace_kernel(const OperatorHandle& op, DispatchKeySet keys, Stack& stack) {
  Tracer* t = t_tracer;
  const DispatchKeySet next = keys.remove(DispatchKey::Trace);
  if (t == nullptr || t->stopped()) {
    if (t == nullptr && fused_eager_kernel(op, stack)) return;  // Note [Fused eager]
    ExcludeDispatchKeyGuard no_trace(DispatchKey::Trace);
    op.call_boxed(next, stack);
    return;
  }
  if (data_dependent(op.name()))
    t->graph_break(op.name() + " (its result's shape depends on the data)");
  Node n;
  n.op = &op;
  n.args.reserve(stack.size());
  for (const Value& v : stack)
    n.args.push_back(v);  // (Value's converting constructor takes Value&)
  record_arguments(*t, op, n);
  {
    ExcludeDispatchKeyGuard no_trace(DispatchKey::Trace);
    op.call_boxed(next, stack);
  }
  record_results(*t, n, stack);
  if (!t->stopped()) t->graph.nodes.push_back(std::move(n));
}

void observe_data(const char* what) {
  Tracer* t = t_tracer;
  if (t == nullptr || tls_dispatch_keys.excluded.has(DispatchKey::Trace)) return;
  t->graph_break(std::string(what) + "() (it reads a tensor's values)");
}

const bool registered = [] {
  set_backend_fallback(DispatchKey::Trace, &trace_kernel);
  detail::set_observe_data_hook(&observe_data);
  return true;
}();

struct ActiveTracer {
  explicit ActiveTracer(Tracer* t) : saved_(t_tracer), include_(DispatchKey::Trace) {
    t_tracer = t;
  }
  ~ActiveTracer() { t_tracer = saved_; }
  Tracer* saved_;
  IncludeDispatchKeyGuard include_;
};

}  // namespace

namespace {

void trace_backward(Tracer& t, const std::vector<Tensor>& inputs, TraceResult& r) {
  BackwardTrace& b = r.backward;
  std::vector<Tensor> roots, targets, grad_outputs;
  for (size_t i = 0; i < r.outputs.size(); ++i)
    if (r.outputs[i].requires_grad() && r.outputs[i].is_floating_point()) {
      b.roots.push_back(static_cast<int32_t>(i));
      roots.push_back(r.outputs[i]);
    }
  if (roots.empty()) return;
  r.has_backward = true;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].requires_grad()) {
      b.targets.push_back(static_cast<int32_t>(i));
      targets.push_back(inputs[i]);
    }
  for (size_t v = inputs.size(); v < t.graph.values.size(); ++v)
    if (t.graph.values[v].kind == ValueKind::Captured &&
        t.graph.values[v].constant.requires_grad()) {
      b.targets.push_back(static_cast<int32_t>(v));
      targets.push_back(t.graph.values[v].constant);
    }
  if (t.hooks_registered) {
    b.fallback = "the function registers a tensor hook";
    b.hooks = true;
    return;
  }
  b.first_node = static_cast<int32_t>(t.graph.nodes.size());
  for (const Tensor& root : roots) {
    Tensor g;
    {
      ExcludeDispatchKeyGuard no_trace(DispatchKey::Trace);
      NoGradGuard no_grad;
      g = ones_like(root);
    }
    ValueInfo info;
    info.kind = ValueKind::Input;
    b.grad_outputs.push_back(t.define(g, std::move(info)));
    grad_outputs.push_back(g);
  }
  t.in_backward = true;
  std::vector<Tensor> grads;
  try {
    grads = autograd::grad(roots, targets, grad_outputs, /*retain_graph=*/true,
                           /*create_graph=*/false, /*allow_unused=*/true);
  } catch (const std::exception& e) {
    b.fallback = std::string("tracing the backward failed: ") + e.what();
  }
  for (const Tensor& g : grads) b.gradients.push_back(g.defined() ? t.value_of(g) : -1);
  t.in_backward = false;
  if (b.fallback.empty()) b.fallback = t.backward_break;
}

}  // namespace

TraceResult trace(const std::vector<Tensor>& inputs, compile_detail::Runner run, const void* fn,
                  bool fullgraph, const std::string& name, bool joint) {
  (void)registered;
  Tracer t;
  t.fullgraph = fullgraph;
  t.name = name;
  t.graph.num_inputs = static_cast<int32_t>(inputs.size());
  for (const Tensor& x : inputs) {
    ValueInfo info;
    info.kind = ValueKind::Input;
    t.define(x, std::move(info));
  }
  TraceResult r;
  {
    ActiveTracer active(&t);
    // Every tensor hook takes an id: ids taken while fn runs mean it registers hooks, which a
    // replay (that does not run fn's C++) would lose (Note [Joint capture]).
    const unsigned hook_id = autograd::next_hook_id();
    run(fn, inputs, r.outputs);
    t.hooks_registered = autograd::next_hook_id() != hook_id + 1;
    for (const Tensor& o : r.outputs) t.graph.outputs.push_back(t.value_of(o));
    if (joint && t.break_reason.empty() && GradMode::is_enabled()) trace_backward(t, inputs, r);
  }
  r.graph = std::move(t.graph);
  r.break_reason = std::move(t.break_reason);
  return r;
}

}  // namespace brasa::compiler
