// brasa::compile's runtime: the guard entries of a compiled function, tracing on a miss, and
// running a plan (fused kernels and dispatched nodes).
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "brasa/compile.h"
#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "brasa/dispatch/grad_mode.h"
#include "compile/compiled_backward.h"
#include "compile/fused_eager.h"
#include "compile/fusion.h"
#include "compile/guards.h"
#include "compile/kernel_cache.h"
#include "compile/log.h"
#include "compile/partition.h"
#include "compile/passes.h"
#include "compile/runner.h"
#include "compile/size_arguments.h"
#include "compile/stats.h"
#include "compile/trace.h"
#include "compile/zero_slices.h"

namespace brasa::compiler {

struct Entry {
  Guards guards;
  std::string structure;     ///< of the traced graph, before the passes
  std::string break_reason;  ///< non-empty: this signature runs eagerly
  Graph graph;
  Graph traced;           ///< the graph before the passes (size merges start from it)
  bool autograd = false;  ///< replayed op by op with autograd (no fusion)
  Plan plan;
  std::shared_ptr<CompiledBackward>
      backward;  ///< null: no compiled backward (Note [Compiled backward])
};

namespace {

bool needs_grad(const Graph& g) {
  if (!GradMode::is_enabled()) return false;
  for (const ValueInfo& v : g.values)
    if (v.kind == ValueKind::Captured && v.constant.requires_grad()) return true;
  return false;
}

/// Runs the passes over `g` and plans it (fused when `fuse`), loading the kernels' shared object;
/// without a working compiler the plan runs every node through the dispatcher.
void run_passes(Graph& g, const CompileOptions& options, bool autograd) {
  if (options.mode == CompileMode::Interpret) return;
  if (!autograd && options.mode == CompileMode::Default) {
    merge_zero_slices(g);      // Note [Zero slices]
    write_slices_in_place(g);  // Note [Slices written in place]
  }
  eliminate_dead_code(g);
  // Replayed with autograd, a merged node would merge its backward nodes too, and sum their
  // gradients in another order than eager.
  if (!autograd) eliminate_common_subexpressions(g);
  fold_constants(g);
  eliminate_dead_code(g);
}

Plan build_plan(Graph& g, const CompileOptions& options, bool fuse, const char* what,
                bool autograd = false) {
  run_passes(g, options, autograd);
  log("graph", options.name + what + ":\n" + g.dump());
  Plan p = plan(g, fuse && options.mode == CompileMode::Default);
  for (const MatmulEpilogue& m : p.matmuls) {
    bump(&CompileStats::matmul_epilogues);
    std::string ops;
    for (const std::string& op : m.names) ops += (ops.empty() ? "" : " ") + op;
    log("fusion", options.name + what + ": a oneDNN " + (m.conv ? "convolution" : "matmul") +
                      " with its epilogue (" + ops + ")");
  }
  if (p.kernels.empty()) return p;
  std::string path;
  void* lib = load_kernels(p.source, &path);
  if (lib == nullptr) return plan(g, false);
  for (Kernel& k : p.kernels) {
    k.fn = reinterpret_cast<KernelFn>(::dlsym(lib, k.symbol.c_str()));
    BRASA_INTERNAL_ASSERT(k.fn != nullptr, "compile: ", k.symbol, " missing from ", path);
    bump(&CompileStats::fused_kernels);
    if (k.rows) bump(&CompileStats::row_kernels);
    if (std::any_of(k.output_stat.begin(), k.output_stat.end(), [](uint8_t s) { return s >= 3; }))
      bump(&CompileStats::column_kernels);
    std::string ops;
    for (const std::string& op : k.ops) ops += (ops.empty() ? "" : " ") + op;
    log("fusion", options.name + what + ": " + k.symbol + " fuses " + std::to_string(k.ops.size()) +
                      " ops (" + ops + "), " + std::to_string(k.inputs.size()) + " inputs, " +
                      std::to_string(k.outputs.size()) + " outputs; source " + path);
  }
  return p;
}

/// The compiled backward of a joint trace (Note [Compiled backward]); null, with a log line, when
/// the backward runs eagerly.
std::shared_ptr<CompiledBackward> build_backward(TraceResult& r, const CompileOptions& options) {
  std::string why = r.backward.fallback;
  if (why.empty()) why = backward_unsupported(r.graph, r.backward);
  if (!why.empty()) {
    log("backward", options.name + ": the backward runs eagerly (graph replayed op by op): " + why);
    return nullptr;
  }
  auto cb = std::make_shared<CompiledBackward>();
  cb->name = options.name;
  cb->trace = r.backward;
  cb->num_outputs = static_cast<int32_t>(r.graph.outputs.size());
  cb->part = partition(r.graph, r.backward);
  cb->forward_plan = build_plan(cb->part.forward, options, true, " (forward)");
  cb->forward_eager = plan(cb->part.forward, false);
  cb->backward_plan = build_plan(cb->part.backward, options, true, " (backward)");
  bump(&CompileStats::backward_graphs);
  add(&CompileStats::saved_for_backward, static_cast<int64_t>(cb->part.saved.size()));
  add(&CompileStats::saved_by_eager, cb->part.eager_saved);
  log("backward",
      options.name + ": backward compiled; it keeps " + std::to_string(cb->part.saved.size()) +
          " forward values (eager's nodes keep " + std::to_string(cb->part.eager_saved) + ")");
  return cb;
}

int dynamic_dims(const Entry& e) {
  int n = 0;
  for (const InputGuard& g : e.guards.inputs)
    for (bool d : g.dynamic) n += d ? 1 : 0;
  return n;
}

/// Whether two plans run the same steps with the same kernels (same generated source).
bool same_plan(const Plan& a, const Plan& b) {
  if (a.source != b.source || a.steps.size() != b.steps.size() ||
      a.kernels.size() != b.kernels.size())
    return false;
  for (size_t i = 0; i < a.steps.size(); ++i)
    if (!(a.steps[i] == b.steps[i])) return false;
  if (a.matmuls.size() != b.matmuls.size() || a.attentions != b.attentions ||
      a.pool_relus != b.pool_relus || a.head_merges != b.head_merges)
    return false;
  for (size_t i = 0; i < a.matmuls.size(); ++i)
    if (a.matmuls[i].nodes != b.matmuls[i].nodes) return false;
  for (size_t i = 0; i < a.kernels.size(); ++i) {
    const Kernel &x = a.kernels[i], &y = b.kernels[i];
    if (x.inputs != y.inputs || x.outputs != y.outputs || x.scalar_inputs != y.scalar_inputs ||
        x.output_orders != y.output_orders || x.output_stat != y.output_stat)
      return false;
  }
  return true;
}

/// A copy of `old` whose graph also serves the sizes of `inputs`, traced as `fresh` (Note [Size
/// arguments]); null, with the reason in `why`, when the traces differ in more than sizes.
std::unique_ptr<Entry> merge_sizes(const CompileOptions& options, const Entry& old,
                                   const Entry& fresh, const std::vector<Tensor>& inputs,
                                   std::string* why) {
  if (old.backward || fresh.backward || old.autograd || fresh.autograd ||
      old.traced.nodes.empty()) {
    *why = "a graph with autograd keeps its sizes";
    return nullptr;
  }
  auto e = std::make_unique<Entry>();
  e->guards = old.guards;
  if (!e->guards.generalise(inputs)) {
    *why = "a size is 0 or 1";
    return nullptr;
  }
  std::vector<std::vector<int64_t>> sizes;
  for (const InputGuard& g : old.guards.inputs) sizes.push_back(g.sizes);
  Graph merged = clone(old.traced);
  *why = merge_size_arguments(merged, fresh.traced, sizes, inputs);
  if (!why->empty()) return nullptr;
  // The plan at the new sizes must be the plan at the old ones (no fusion decided by sizes that
  // were equal by coincidence).
  Graph at_new = clone(merged);
  for (size_t v = 0; v < at_new.values.size(); ++v) {
    at_new.values[v].sizes = fresh.traced.values[v].sizes;
    at_new.values[v].strides = fresh.traced.values[v].strides;
    at_new.values[v].contiguous = fresh.traced.values[v].contiguous;
  }
  run_passes(at_new, options, false);
  const Plan new_plan = plan(at_new, options.mode == CompileMode::Default);
  e->traced = clone(merged);
  e->graph = std::move(merged);
  e->plan = build_plan(e->graph, options, true, " (size arguments)");
  if (!same_plan(e->plan, new_plan)) {
    *why = "the fused kernels differ at the new sizes";
    return nullptr;
  }
  e->structure = old.structure;
  return e;
}

}  // namespace
}  // namespace brasa::compiler

namespace brasa::compile_detail {

using namespace brasa::compiler;

class CompiledFunction {
 public:
  explicit CompiledFunction(CompileOptions o) : options(std::move(o)) {}
  CompileOptions options;
  std::mutex mutex;
  std::vector<std::unique_ptr<Entry>> entries;
  bool limit_warned = false;
};

std::shared_ptr<CompiledFunction> make_compiled(CompileOptions options) {
  const char* env = std::getenv("BRASA_COMPILE");
  if (env && std::string(env) == "0") return nullptr;
  return std::make_shared<CompiledFunction>(std::move(options));
}

namespace {

/// Traces `inputs` into a new entry; `out` gets the (eager) results of the traced call.
std::unique_ptr<Entry> trace_entry(CompiledFunction& f, const std::vector<Tensor>& inputs,
                                   Runner run, const void* fn, std::vector<Tensor>& out) {
  auto e = std::make_unique<Entry>();
  e->guards = Guards::of(inputs, f.options.dynamic == Dynamic::All);
  const auto t0 = std::chrono::steady_clock::now();
  TraceResult r = trace(inputs, run, fn, f.options.fullgraph, f.options.name, /*joint=*/true);
  const auto t1 = std::chrono::steady_clock::now();
  bump(&CompileStats::traces);
  out = std::move(r.outputs);
  e->break_reason = std::move(r.break_reason);
  if (!e->break_reason.empty()) {
    bump(&CompileStats::graph_breaks);
    log("graph",
        f.options.name + ": graph break at " + e->break_reason + "; this signature runs eagerly");
    return e;
  }
  if (r.has_backward &&
      r.backward.hooks) {  // the hooks must run: fn runs eagerly (its C++ registers them)
    e->break_reason = r.backward.fallback;
    log("backward", f.options.name + ": " + r.backward.fallback + "; this signature runs eagerly");
    return e;
  }
  e->structure = r.graph.structure_key();
  bool grad = needs_grad(r.graph);
  for (const Tensor& t : inputs) grad = grad || (GradMode::is_enabled() && t.requires_grad());
  if (r.has_backward) e->backward = build_backward(r, f.options);
  if (e->backward) {
    // The traced backward holds sizes as arguments (expand, sum_to_size, mean's 1/N): its dims are
    // specialised; Dynamic::Automatic generalises them only when a retrace at the new sizes has the
    // same joint structure (backward included).
    for (InputGuard& g : e->guards.inputs) g.dynamic.assign(g.dynamic.size(), false);
  }
  if (!e->backward && r.has_backward) {  // the joint trace's forward, replayed op by op
    r.graph.nodes.resize(r.backward.first_node);
  }
  if (!e->backward && !r.has_backward) e->traced = clone(r.graph);
  e->autograd = grad;
  e->graph = std::move(r.graph);
  if (!e->backward) e->plan = build_plan(e->graph, f.options, !grad, "", grad);
  bump(&CompileStats::graphs);
  const auto t2 = std::chrono::steady_clock::now();
  log("codegen", f.options.name + ": traced " + std::to_string(e->graph.nodes.size()) + " ops in " +
                     std::to_string(std::chrono::duration<double, std::milli>(t1 - t0).count()) +
                     " ms; passes, codegen and build took " +
                     std::to_string(std::chrono::duration<double, std::milli>(t2 - t1).count()) +
                     " ms");
  return e;
}

}  // namespace

void call(CompiledFunction& f, const std::vector<Tensor>& inputs, Runner run, const void* fn,
          std::vector<Tensor>& outputs) {
  SuspendFusedEager no_fused_eager;  // Note [Fused eager]: the trace and the replay run plainly
  for (size_t i = 0; i < inputs.size(); ++i)
    BRASA_CHECK(inputs[i].defined(), "compile: input ", i, " of ", f.options.name,
                " is an undefined tensor");
  std::unique_lock<std::mutex> lock(f.mutex);
  std::string failure;
  Entry* size_only_match = nullptr;
  for (const auto& e : f.entries) {
    bool size_only = false;
    std::string why = e->guards.check(inputs, &size_only);
    if (why.empty()) {
      Entry* hit = e.get();
      lock.unlock();
      if (!hit->break_reason.empty()) {
        bump(&CompileStats::eager_calls);
        run(fn, inputs, outputs);
        return;
      }
      bump(&CompileStats::compiled_calls);
      if (hit->backward && !hit->backward->eager)
        outputs = run_with_backward(hit->backward, inputs);
      else if (hit->backward)
        outputs = run_graph(hit->backward->part.forward, hit->backward->forward_eager, inputs,
                            hit->backward->num_outputs);
      else
        outputs = run_graph(hit->graph, hit->plan, inputs);
      return;
    }
    if (failure.empty()) failure = why;
    // Of the entries that differ only in sizes, the most general one.
    if (size_only && e->break_reason.empty() &&
        (!size_only_match || dynamic_dims(*e) > dynamic_dims(*size_only_match)))
      size_only_match = e.get();
    log("guards", f.options.name + ": guard failed: " + why);
  }
  if (!f.entries.empty() && static_cast<int>(f.entries.size()) >= f.options.recompile_limit) {
    if (!f.limit_warned) {
      f.limit_warned = true;
      warn("compile: " + f.options.name + " reached its recompile limit (" +
           std::to_string(f.options.recompile_limit) + " graphs); new signatures run eagerly. " +
           "Last failing guard: " + failure);
    }
    lock.unlock();
    bump(&CompileStats::eager_calls);
    run(fn, inputs, outputs);
    return;
  }
  if (!f.entries.empty()) {
    add_recompile_reason(failure);
    log("recompiles", f.options.name + ": recompiling because " + failure);
  }
  std::unique_ptr<Entry> e = trace_entry(f, inputs, run, fn, outputs);
  if (size_only_match && f.options.dynamic == Dynamic::Automatic && e->break_reason.empty() &&
      e->structure == size_only_match->structure && size_only_match->guards.generalise(inputs)) {
    log("recompiles", f.options.name + ": same graph at new sizes; those dims are now dynamic");
    return;  // the existing entry now accepts these sizes; the traced call gave the results
  }
  if (size_only_match && f.options.dynamic == Dynamic::Automatic && e->break_reason.empty()) {
    std::string why;
    if (auto merged = merge_sizes(f.options, *size_only_match, *e, inputs, &why)) {
      log("recompiles", f.options.name + ": same graph with size arguments at new sizes; those " +
                            "dims are now dynamic (Note [Size arguments])");
      f.entries.insert(f.entries.begin(), std::move(merged));  // checked first from now on
      return;
    }
    log("recompiles", f.options.name + ": not the same graph at new sizes: " + why);
  }
  f.entries.push_back(std::move(e));
}

}  // namespace brasa::compile_detail
