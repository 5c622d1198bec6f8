#include "compile/trace.h"

#include <unordered_map>

#include "brasa/core/error.h"
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
// Wrapped numbers (`x * 2.0`) are never looked up: each is a new literal.

namespace {

constexpr size_t kKeepAliveBytes = 64 << 10;

struct Tracer {
  struct Known {
    int32_t id;
    const void* data;
  };
  Graph graph;
  std::unordered_map<const TensorImpl*, Known> ids;
  std::vector<Tensor> keep_alive;  // small results (Note [Tensor identity])
  std::string break_reason;
  bool fullgraph = false;
  std::string name;

  int32_t value_of(const Tensor& t) {
    TensorImpl* impl = t.unsafeGetTensorImpl();
    if (!impl->is_wrapped_number()) {
      auto it = ids.find(impl);
      if (it != ids.end() && it->second.data == t.data_ptr() &&
          graph.values[it->second.id].dtype == t.dtype() &&
          t.sizes() == IntArrayRef(graph.values[it->second.id].sizes))
        return it->second.id;
    }
    ValueInfo info;
    info.kind = impl->is_wrapped_number() ? ValueKind::Literal : ValueKind::Captured;
    info.constant = t;
    return define(t, std::move(info));
  }
  int32_t define(const Tensor& t, ValueInfo info) {
    info.dtype = t.dtype();
    info.sizes = t.sizes().vec();
    info.strides = t.strides().vec();
    info.contiguous = t.is_contiguous();
    info.cpu = t.is_cpu();
    int32_t id = graph.add_value(std::move(info));
    ids[t.unsafeGetTensorImpl()] = {id, t.data_ptr()};
    if (t.nbytes() <= kKeepAliveBytes) keep_alive.push_back(t);
    return id;
  }
  void graph_break(const std::string& reason) {
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
      n.results.push_back({static_cast<int32_t>(i), -1, t.define(v.tensor(), ValueInfo{})});
    } else if (v.is_tensor_list()) {
      const auto& list = v.get<std::vector<Tensor>>();
      for (size_t j = 0; j < list.size(); ++j)
        n.results.push_back(
            {static_cast<int32_t>(i), static_cast<int32_t>(j), t.define(list[j], ValueInfo{})});
    } else if (!v.is_none() && !v.is_tensor()) {
      t.graph_break(n.op->name() + " (it returns a value to C++: " + value_key(v) + ")");
    }
  }
}

void trace_kernel(const OperatorHandle& op, DispatchKeySet keys, Stack& stack) {
  Tracer* t = t_tracer;
  const DispatchKeySet next = keys.remove(DispatchKey::Trace);
  if (t == nullptr || !t->break_reason.empty()) {
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
  if (t->break_reason.empty()) t->graph.nodes.push_back(std::move(n));
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

TraceResult trace(const std::vector<Tensor>& inputs, compile_detail::Runner run, const void* fn,
                  bool fullgraph, const std::string& name) {
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
    run(fn, inputs, r.outputs);
  }
  for (const Tensor& o : r.outputs) t.graph.outputs.push_back(t.value_of(o));
  r.graph = std::move(t.graph);
  r.break_reason = std::move(t.break_reason);
  return r;
}

}  // namespace brasa::compiler
