// Fused eager: pointwise ops of plain eager code deferred and fused on the fly (Note [Fused
// eager]).
#include "compile/fused_eager.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "brasa/dispatch/grad_mode.h"
#include "compile/codegen.h"
#include "compile/fusion.h"
#include "compile/kernel_cache.h"
#include "compile/log.h"
#include "compile/passes.h"
#include "compile/runner.h"
#include "compile/stats.h"
#include "core/device_hooks.h"

namespace brasa::compiler {

// Note [Fused eager]
// With fused eager on (BRASA_FUSED_EAGER=1 on the thread that loads libbrasa_compile, or
// set_fused_eager / FusedEagerGuard on any thread), the thread's key set includes Trace, so every
// op it calls reaches the tracer's fallback, which (with no trace active) lands here. A pointwise
// op of the generated-code table (add, mul, exp, gelu, ...; in-place forms on a pending tensor too)
// whose arguments need no autograd is not run: it is recorded into the thread's pending graph and
// returns a *pending* tensor, made by running the op on meta twins of its arguments (sizes, strides
// and dtype are the op's own rules) and moved to the CPU without memory. Anything else -- any other
// op, an argument that requires grad, autocast, an out= form, an in-place op on a tensor that is
// not pending -- first *flushes*: the pending graph (its inputs the real tensors it read, its
// outputs the pending tensors someone still holds) goes through compile's passes, fusion and code
// generation (planned once per structure and sizes, kernels from the same disk cache as compile),
// runs, and each pending tensor takes its result's storage. Then the op runs as eager does.
//
// So no kernel ever sees a pending tensor: a kernel runs only after a flush. Reads outside the
// dispatcher flush too: typed data_ptr<T>() (accessors, printing), item(), autograd hooks and
// saving call detail::flush_pending() (Note [Core hooks]); the chain flushes at 64 ops; turning the
// mode off (or the guard's scope ending, or the thread ending) flushes; compile's calls flush first
// and suspend the mode while they run. A pending tensor has no memory: an untyped data_ptr() of
// it flushes too (Note [Raw reads of pending tensors] in src/core/tensor.cpp); a read from
// another thread cannot see stale values, it faults (null). The one thing a flush cannot fix is a
// raw write through the untyped data_ptr() of a tensor that is not pending but that a pending op
// reads: call brasa::fused_eager_flush() before writing through raw pointers. Results are
// compile's: bitwise eager's for exact ops, within compile's ulp bounds for transcendentals.
// Without a working compiler the first flush warns (once) and the mode stops recording in this
// process until it is enabled again; the flush runs its ops through the dispatcher, so results stay
// eager's.

namespace {

constexpr size_t kMaxPendingOps = 64;

/// Per op id: 0 unknown, 1 not fusible, 2 pointwise, 3 an in-place pointwise form; and the
/// functional form of kinds 2 and 3. Written once per op (racing writers write the same values).
constexpr size_t kMaxOps = 1 << 14;
std::atomic<uint8_t> g_kinds[kMaxOps];
std::atomic<const OperatorHandle*> g_functional[kMaxOps];

std::atomic<bool> g_compiler_broken{false};

struct Prepared {
  Graph graph;
  Plan plan;
};
std::mutex g_plans_mutex;
// Never destroyed: its graphs hold tensors, which must not outlive libbrasa's object pools at exit.
auto& g_plans = *new std::unordered_map<std::string, std::shared_ptr<Prepared>>();

struct Pending {
  std::string key;              // what the plan depends on, appended op by op (Note [Plan key])
  Graph graph;                  // values in the order met; Input values are real tensors
  std::vector<Tensor> tensors;  // per value: the real tensor (Input) or the pending one (Node)
  std::unordered_map<const TensorImpl*, int32_t> ids;  // the current value of each tensor
};

void flush(struct State& s);

struct State {
  Pending pending;
  bool enabled = false;
  bool added_key = false;  // this state put Trace into the thread's included keys
  int suspended = 0;
  bool flushing = false;
  ~State() {
    try {
      flush(*this);
    } catch (...) {
    }
  }
};
thread_local State t_state;

bool active(const State& s) {
  return s.enabled && s.suspended == 0 && !s.flushing &&
         !g_compiler_broken.load(std::memory_order_relaxed);
}

/// The kind of `op` (computed once per op).
uint8_t kind_of(const OperatorHandle& op, const OperatorHandle** functional) {
  const size_t id = static_cast<size_t>(op.id());
  if (id >= kMaxOps) return 1;
  uint8_t kind = g_kinds[id].load(std::memory_order_acquire);
  if (kind == 0) {
    const std::string& name = op.name();
    kind = 1;
    const OperatorHandle* fn = nullptr;
    if (fusible_op_name(name)) {
      kind = 2;
      fn = &op;
    } else if (name.size() > 1 && name.back() == '_' &&
               fusible_op_name(name.substr(0, name.size() - 1))) {
      const OperatorHandle* f = find_op(name.substr(0, name.size() - 1));
      const auto& in_place = op.schema_info().arguments;
      if (f != nullptr && f->schema_info().arguments.size() >= in_place.size()) {
        bool same = true;  // the functional form takes the in-place one's arguments, then out=
        for (size_t i = 0; i < in_place.size(); ++i)
          same = same && f->schema_info().arguments[i].name == in_place[i].name;
        for (size_t i = in_place.size(); i < f->schema_info().arguments.size(); ++i)
          same = same && f->schema_info().arguments[i].written;
        if (same) {
          kind = 3;
          fn = f;
        }
      }
    }
    g_functional[id].store(fn, std::memory_order_relaxed);
    g_kinds[id].store(kind, std::memory_order_release);
  }
  *functional = g_functional[id].load(std::memory_order_relaxed);
  return kind;
}

/// A CPU tensor shaped like `meta` whose storage has no memory yet (the flush gives it some).
Tensor pending_like(const Tensor& meta) {
  Storage storage(make_intrusive<StorageImpl>(DataPtr(), meta.storage().nbytes(), Device(kCPU),
                                              get_allocator(kCPU)));
  auto impl = make_intrusive<TensorImpl>(std::move(storage), meta.scalar_type(), Device(kCPU));
  impl->set_sizes_and_strides(meta.sizes(), meta.strides(), 0);
  return Tensor(std::move(impl));
}

/// Moves the memory of `from` (a tensor nothing else uses) into `to`'s storage, so that every
/// tensor sharing that storage (an alias made outside the dispatcher) sees the values.
void give_memory(const Tensor& from, StorageImpl& to) {
  auto& data = const_cast<DataPtr&>(from.storage()->data_ptr());
  to.set_data(std::move(data), from.storage().nbytes());
}

Tensor meta_twin(const Tensor& t) {
  Tensor m = detail::empty_strided_generic(t.sizes(), t.strides(), t.scalar_type(), Device(kMeta));
  m.unsafeGetTensorImpl()->set_wrapped_number(t.unsafeGetTensorImpl()->is_wrapped_number());
  return m;
}

// Note [Plan key]
// A flush looks its plan up by a key that record() builds as it goes, cheaply (no streams): per op
// its id and non-tensor arguments, per operand its value id, per new value its kind, dtype, sizes
// and strides (a literal's bytes too); the flush appends the outputs. Equal keys mean equal pending
// graphs, so a hit needs neither the renumbered graph nor compile's structure key.
void key_number(std::string& k, int64_t x) {
  char buf[24];
  int n = 0;
  uint64_t u = x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
  do {
    buf[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u);
  if (x < 0) k += '-';
  while (n) k += buf[--n];
  k += ',';
}

void key_argument(std::string& k, const Value& v) {
  if (v.is_none() || v.is_tensor()) {
    k += '_';
  } else if (v.is<Scalar>() && !v.get<Scalar>().isComplex()) {
    const Scalar& s = v.get<Scalar>();
    if (s.isFloatingPoint()) {
      const double d = s.to<double>();
      int64_t bits;
      std::memcpy(&bits, &d, sizeof bits);
      k += 'd';
      key_number(k, bits);
    } else {
      k += s.isBoolean() ? 'b' : 'i';
      key_number(k, s.to<int64_t>());
    }
  } else if (v.is<int64_t>()) {
    k += 'i';
    key_number(k, v.get<int64_t>());
  } else if (v.is<bool>()) {
    k += v.get<bool>() ? "T," : "F,";
  } else if (v.is<std::string>()) {
    k += '"' + v.get<std::string>() + "\",";
  } else {
    k += value_key(v) + ";";
  }
}

void key_value(std::string& k, char kind, const Tensor& t) {
  k += kind;
  key_number(k, static_cast<int64_t>(t.scalar_type()));
  for (int64_t s : t.sizes()) key_number(k, s);
  k += '/';
  for (int64_t s : t.strides()) key_number(k, s);
  if (kind == 'L') {  // a wrapped number: its bytes
    const auto* p = static_cast<const unsigned char*>(t.data_ptr());
    for (size_t i = 0; i < t.nbytes(); ++i) key_number(k, p[i]);
  }
}

ValueInfo info_of(const Tensor& t, ValueKind kind) {
  ValueInfo info;
  info.kind = kind;
  info.dtype = t.scalar_type();
  info.sizes = t.sizes().vec();
  info.strides = t.strides().vec();
  info.contiguous = t.is_contiguous();
  info.cpu = true;
  return info;
}

/// Records `op` on `stack` into the pending graph and leaves its pending result on the stack;
/// false (nothing recorded) when the op must run eagerly.
bool record(State& s, const OperatorHandle& op, Stack& stack) {
  if (tls_dispatch_keys.included.has(DispatchKey::Autocast)) return false;
  const OperatorHandle* functional = nullptr;
  const uint8_t kind = kind_of(op, &functional);
  if (kind < 2) return false;
  const auto& schema = op.schema_info().arguments;
  const bool grad = GradMode::is_enabled();
  Pending& p = s.pending;
  for (size_t i = 0; i < stack.size(); ++i) {
    const Value& v = stack[i];
    if (v.is_tensor_list()) return false;
    if (!v.is_tensor()) continue;
    const Tensor& t = v.tensor();
    if (!t.defined()) continue;
    if (i < schema.size() && schema[i].written && (kind == 2 || i != 0)) return false;  // out=
    if (!t.is_cpu() || t.numel() == 0 || c_type(t.scalar_type()) == nullptr) return false;
    if (grad && t.requires_grad()) return false;
  }
  Tensor self;
  int32_t self_value = -1;
  if (kind == 3) {  // in place: only on a pending tensor
    if (stack.empty() || !stack[0].is_tensor()) return false;
    self = stack[0].tensor();
    auto it = p.ids.find(self.unsafeGetTensorImpl());
    if (it == p.ids.end() || p.graph.values[it->second].kind != ValueKind::Node) return false;
    self_value = it->second;
  }
  // The result's metadata: the op on meta twins.
  Stack meta;
  meta.reserve(functional->schema_info().arguments.size());
  for (const Value& v : stack)
    meta.push_back(v.is_tensor() && v.tensor().defined() ? Value(meta_twin(v.tensor())) : v);
  while (meta.size() < functional->schema_info().arguments.size()) meta.push_back(Value());
  Stack args = meta;  // the node's arguments (tensor slots cleared below)
  try {
    ExcludeDispatchKeyGuard no_trace(DispatchKey::Trace);
    functional->call_boxed(meta);
  } catch (const std::exception&) {
    return false;  // eager raises the error
  }
  if (meta.size() != 1 || !meta[0].is_tensor() || !meta[0].tensor().defined()) return false;
  Tensor result = meta[0].tensor();
  if (kind == 3 && (result.sizes() != self.sizes() || result.scalar_type() != self.scalar_type()))
    return false;
  // The node, its operands as values (new values are dropped again if the node does not fuse).
  const size_t num_values = p.graph.values.size();
  std::string key = "(";
  key_number(key, functional->id());
  for (size_t i = 0; i < stack.size(); ++i) key_argument(key, stack[i]);
  Node n;
  n.op = functional;
  std::vector<std::pair<const TensorImpl*, int32_t>> new_inputs;
  for (size_t i = 0; i < stack.size(); ++i) {
    if (!stack[i].is_tensor() || !stack[i].tensor().defined()) continue;
    const Tensor& t = stack[i].tensor();
    TensorImpl* impl = t.unsafeGetTensorImpl();
    int32_t id;
    if (impl->is_wrapped_number()) {
      ValueInfo info = info_of(t, ValueKind::Literal);
      info.constant = t;
      id = p.graph.add_value(std::move(info));
      p.tensors.emplace_back();
      key_value(key, 'L', t);
    } else if (auto it = p.ids.find(impl); it != p.ids.end()) {
      id = it->second;
      const ValueInfo& known = p.graph.values[id];
      if (t.sizes() != IntArrayRef(known.sizes) || t.strides() != IntArrayRef(known.strides)) {
        p.graph.values.resize(num_values);  // resized outside the dispatcher: computed first
        p.tensors.resize(num_values);
        return false;
      }
    } else if (t.storage().data() == nullptr && t.nbytes() != 0) {
      // Shares a pending tensor's storage: compute it first (a data_ptr() here would flush while
      // recording, Note [Raw reads of pending tensors]).
      p.graph.values.resize(num_values);
      p.tensors.resize(num_values);
      return false;
    } else {
      auto dup = std::find_if(new_inputs.begin(), new_inputs.end(),
                              [&](const auto& e) { return e.first == impl; });
      if (dup != new_inputs.end()) {
        id = dup->second;
      } else {
        id = p.graph.add_value(info_of(t, ValueKind::Input));
        p.tensors.push_back(t);
        new_inputs.emplace_back(impl, id);
        key_value(key, 'I', t);
      }
    }
    n.refs.push_back({static_cast<int32_t>(i), -1, id});
    args[i] = Value();
    key += 'v';
    key_number(key, id);
  }
  n.args = std::move(args);
  n.num_results = 1;
  const Tensor& shape_of = kind == 3 ? self : result;
  const int32_t out = p.graph.add_value(info_of(shape_of, ValueKind::Node));
  p.tensors.emplace_back();
  n.results.push_back({0, -1, out});
  if (!fusible_pointwise(p.graph, n)) {
    p.graph.values.resize(num_values);
    p.tensors.resize(num_values);
    return false;
  }
  p.graph.nodes.push_back(std::move(n));
  key_value(key, 'R', shape_of);
  p.key += key;
  for (const auto& [impl, id] : new_inputs) p.ids[impl] = id;
  if (kind == 3) {
    self.unsafeGetTensorImpl()->bump_version();
    p.tensors[self_value] = Tensor();
    p.tensors[out] = self;
    p.ids[self.unsafeGetTensorImpl()] = out;
  } else {
    result = pending_like(result);
    p.tensors[out] = result;
    p.ids[result.unsafeGetTensorImpl()] = out;
  }
  stack.clear();
  stack.push_back(Value(kind == 3 ? self : result));
  return true;
}

/// `g` with its Input values first (value ids renumbered) and `outputs` as its outputs.
Graph inputs_first(const Graph& g, const std::vector<int32_t>& outputs,
                   std::vector<int32_t>* input_ids) {
  std::vector<int32_t> renumber(g.values.size());
  Graph r;
  for (int pass = 0; pass < 2; ++pass)
    for (size_t v = 0; v < g.values.size(); ++v)
      if ((g.values[v].kind == ValueKind::Input) == (pass == 0)) {
        renumber[v] = r.add_value(g.values[v]);
        if (pass == 0) input_ids->push_back(static_cast<int32_t>(v));
      }
  r.num_inputs = static_cast<int32_t>(input_ids->size());
  for (const Node& n : g.nodes) {
    Node c = clone(n);
    for (ArgRef& a : c.refs) a.value = renumber[a.value];
    for (ArgRef& a : c.results) a.value = renumber[a.value];
    r.nodes.push_back(std::move(c));
  }
  for (int32_t o : outputs) r.outputs.push_back(renumber[o]);
  return r;
}

std::shared_ptr<Prepared> find_plan(const std::string& key) {
  std::lock_guard<std::mutex> lock(g_plans_mutex);
  auto it = g_plans.find(key);
  return it == g_plans.end() ? nullptr : it->second;
}

/// The passes and the plan of `g` (kernels loaded), kept under `key`; without a compiler, the
/// op-by-op plan (not kept).
std::shared_ptr<Prepared> prepare(Graph g, const std::string& key) {
  auto prep = std::make_shared<Prepared>();
  eliminate_dead_code(g);
  eliminate_common_subexpressions(g);
  fold_constants(g);
  eliminate_dead_code(g);
  prep->plan = plan(g, true);
  if (!prep->plan.kernels.empty()) {
    std::string path;
    void* lib = load_kernels(prep->plan.source, &path);
    if (lib == nullptr) {
      if (!g_compiler_broken.exchange(true))
        warn(
            "fused eager: no working C++ compiler; pending ops run one by one and fused eager "
            "stops recording in this process (set_fused_eager(true) tries again)");
      prep->plan = plan(g, false);
      prep->graph = std::move(g);
      return prep;  // not memoised: a later compiler may work
    }
    for (Kernel& k : prep->plan.kernels) {
      k.fn = reinterpret_cast<KernelFn>(::dlsym(lib, k.symbol.c_str()));
      BRASA_INTERNAL_ASSERT(k.fn != nullptr, "fused eager: ", k.symbol, " missing from ", path);
      bump(&CompileStats::fused_kernels);
      if (log_enabled("fusion")) {
        std::string ops;
        for (const std::string& op : k.ops) ops += (ops.empty() ? "" : " ") + op;
        log("fusion", "fused eager: " + k.symbol + " fuses " + std::to_string(k.ops.size()) +
                          " ops (" + ops + "); source " + path);
      }
    }
  }
  prep->graph = std::move(g);
  std::lock_guard<std::mutex> lock(g_plans_mutex);
  if (g_plans.size() >= 4096) g_plans.clear();
  g_plans.emplace(key, prep);
  return prep;
}

void flush(State& s) {
  if (s.flushing || s.pending.graph.nodes.empty()) return;
  struct Flushing {
    State& s;
    explicit Flushing(State& st) : s(st) { s.flushing = true; }
    ~Flushing() { s.flushing = false; }
  } flushing(s);
  Pending p = std::move(s.pending);
  s.pending = Pending();
  // Outputs: the pending tensors someone other than this graph still holds, or whose storage
  // another tensor shares.
  std::vector<int32_t> outputs;
  for (size_t v = 0; v < p.graph.values.size(); ++v) {
    const Tensor& t = p.tensors[v];
    if (p.graph.values[v].kind == ValueKind::Node && t.defined() &&
        (t.use_count() > 1 || t.storage().use_count() > 1))
      outputs.push_back(static_cast<int32_t>(v));
  }
  bump(&CompileStats::fused_eager_flushes);
  add(&CompileStats::fused_eager_ops, static_cast<int64_t>(p.graph.nodes.size()));
  if (outputs.empty()) return;
  p.key += "->";
  for (int32_t o : outputs) key_number(p.key, o);
  std::shared_ptr<Prepared> prep = find_plan(p.key);
  std::vector<int32_t> input_ids;
  if (prep == nullptr) {
    prep = prepare(inputs_first(p.graph, outputs, &input_ids), p.key);
  } else {  // (inputs_first keeps the Input values' order)
    for (size_t v = 0; v < p.graph.values.size(); ++v)
      if (p.graph.values[v].kind == ValueKind::Input) input_ids.push_back(static_cast<int32_t>(v));
  }
  std::vector<Tensor> inputs;
  inputs.reserve(input_ids.size());
  for (int32_t v : input_ids) inputs.push_back(p.tensors[v]);
  std::vector<Tensor> results = run_graph(prep->graph, prep->plan, inputs);
  std::unordered_map<const StorageImpl*, Tensor> taken;  // results whose memory was given
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& owner = p.tensors[outputs[i]];
    TensorImpl* pending = owner.unsafeGetTensorImpl();
    const Tensor& r = results[i];
    const StorageImpl* storage = r.storage().get();
    // A result's memory becomes the pending tensor's when it is laid out as promised and nothing
    // else (an input, another output) uses it; otherwise the values are copied. (The promise is
    // the value's layout: a tensor resized outside the dispatcher reads the memory as eager's.)
    StorageImpl& target = *pending->storage().get();
    const ValueInfo& promised = p.graph.values[outputs[i]];
    const IntArrayRef sizes(promised.sizes), strides(promised.strides);
    if (r.storage().use_count() == 1 && !taken.count(storage) && r.storage_offset() == 0 &&
        r.sizes() == sizes && r.strides() == strides && r.scalar_type() == pending->dtype() &&
        r.storage().nbytes() == target.nbytes()) {
      taken.emplace(storage, owner);
      give_memory(r, target);
    } else {
      auto given = taken.find(storage);  // (CSE merged two outputs: the values moved there)
      Tensor e = detail::empty_strided_generic(sizes, strides, pending->dtype(), Device(kCPU));
      e.copy_(given != taken.end() ? given->second : r);
      give_memory(e, target);
    }
  }
}

void flush_this_thread() { flush(t_state); }

}  // namespace

bool fused_eager_kernel(const OperatorHandle& op, Stack& stack) {
  State& s = t_state;
  if (!active(s)) return false;
  if (record(s, op, stack)) {
    if (s.pending.graph.nodes.size() >= kMaxPendingOps) flush(s);
    return true;
  }
  flush(s);
  return false;
}

SuspendFusedEager::SuspendFusedEager() {
  flush(t_state);
  ++t_state.suspended;
}
SuspendFusedEager::~SuspendFusedEager() { --t_state.suspended; }

namespace {
const bool env_enabled = [] {
  const char* v = std::getenv("BRASA_FUSED_EAGER");
  if (v != nullptr && std::string(v) == "1") set_fused_eager(true);
  return true;
}();
}  // namespace

}  // namespace brasa::compiler

namespace brasa {

void set_fused_eager(bool enabled) {
  using namespace compiler;
  (void)env_enabled;
  State& s = t_state;
  if (enabled) {
    detail::set_flush_pending_hook(&flush_this_thread);
    g_compiler_broken = false;
    if (!tls_dispatch_keys.included.has(DispatchKey::Trace)) {
      tls_dispatch_keys.included = tls_dispatch_keys.included.add(DispatchKey::Trace);
      s.added_key = true;
    }
    s.enabled = true;
    return;
  }
  flush(s);
  s.enabled = false;
  if (s.added_key) {
    tls_dispatch_keys.included = tls_dispatch_keys.included.remove(DispatchKey::Trace);
    s.added_key = false;
  }
}

bool fused_eager_enabled() { return compiler::t_state.enabled; }

void fused_eager_flush() { compiler::flush(compiler::t_state); }

FusedEagerGuard::FusedEagerGuard(bool enabled) : previous_(fused_eager_enabled()) {
  set_fused_eager(enabled);
}
FusedEagerGuard::~FusedEagerGuard() { set_fused_eager(previous_); }

}  // namespace brasa
