// brasa::compile's runtime: the guard entries of a compiled function, tracing on a miss, and
// running a plan (fused kernels and dispatched nodes).
#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "brasa/compile.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "brasa/dispatch/grad_mode.h"
#include "compile/fusion.h"
#include "compile/guards.h"
#include "compile/kernel_cache.h"
#include "compile/log.h"
#include "compile/passes.h"
#include "compile/stats.h"
#include "compile/trace.h"

namespace brasa::compiler {

struct Entry {
  Guards guards;
  std::string structure;     ///< of the traced graph, before the passes
  std::string break_reason;  ///< non-empty: this signature runs eagerly
  Graph graph;
  Plan plan;
};

namespace {

void run_kernel(const Kernel& k, const Graph& g, std::vector<Tensor>& env) {
  const int R = k.rank;
  int64_t shape[16];
  BRASA_CHECK_NOT_IMPLEMENTED(R <= 16, "compile: rank ", R, " kernels are not supported");
  for (int d = 0; d < R; ++d) shape[d] = 1;
  for (int32_t v : k.inputs) {
    const Tensor& t = env[v];
    const int off = R - static_cast<int>(t.dim());
    for (int d = 0; d < t.dim(); ++d) {
      const int64_t s = t.sizes()[d];
      if (s != 1) {
        BRASA_CHECK(shape[off + d] == 1 || shape[off + d] == s,
                    "compile: operands of a fused kernel do not broadcast (", k.symbol, ")");
        shape[off + d] = s;
      }
    }
  }
  int64_t n = 1;
  for (int d = 0; d < R; ++d) n *= shape[d];
  const size_t ni = k.inputs.size(), no = k.outputs.size();
  std::vector<char*> in(ni), out(no);
  std::vector<long long> strides((ni + no) * R, 0);
  bool flat = true;
  for (size_t j = 0; j < ni; ++j) {
    const Tensor& t = env[k.inputs[j]];
    in[j] = static_cast<char*>(t.data_ptr());
    const int off = R - static_cast<int>(t.dim());
    for (int d = 0; d < t.dim(); ++d)
      strides[j * R + off + d] = t.sizes()[d] == 1 ? 0 : t.strides()[d];
    flat = flat && (k.scalar_inputs[j] ? t.numel() == 1 : t.is_contiguous() && t.numel() == n);
  }
  for (size_t j = 0; j < no; ++j) {
    // Eager's layout: row-major, or the trace's dim order (Kernel::output_orders).
    if (!k.output_stat.empty() && k.output_stat[j] != 0) {  // one value per row
      const size_t rank = k.output_stat[j] == 1 ? R : R - 1;
      int64_t sizes[16];
      for (size_t i = 0; i < rank; ++i) sizes[i] = i + 1 < static_cast<size_t>(R) ? shape[i] : 1;
      Tensor t = detail::empty_generic(IntArrayRef(sizes, rank), k.output_dtypes[j], Device(kCPU));
      out[j] = static_cast<char*>(t.data_ptr());
      env[k.outputs[j]] = std::move(t);
      continue;
    }
    const size_t rank = g.values[k.outputs[j]].sizes.size();
    const int64_t* sizes = shape + (R - rank);
    int64_t st[16];
    int64_t s = 1;
    const std::vector<int>& order = k.output_orders[j];
    for (size_t i = 0; i < rank; ++i) {
      const int d = order.empty() ? static_cast<int>(rank - 1 - i) : order[i];
      st[d] = s;
      s *= sizes[d];
    }
    Tensor t =
        order.empty()
            ? detail::empty_generic(IntArrayRef(sizes, rank), k.output_dtypes[j], Device(kCPU))
            : detail::empty_strided_generic(IntArrayRef(sizes, rank), IntArrayRef(st, rank),
                                            k.output_dtypes[j], Device(kCPU));
    flat = flat && order.empty();
    out[j] = static_cast<char*>(t.data_ptr());
    for (size_t i = 0; i < rank; ++i) strides[(ni + j) * R + (R - rank) + i] = st[i];
    env[k.outputs[j]] = std::move(t);
  }
  std::vector<long long> sizes(shape, shape + R);
  k.fn(in.data(), out.data(), sizes.data(), strides.data(), flat && !k.rows ? 1 : 0);
}

std::vector<Tensor> run_plan(const Entry& e, const std::vector<Tensor>& inputs) {
  const Graph& g = e.graph;
  std::vector<Tensor> env(g.values.size());
  for (size_t i = 0; i < inputs.size(); ++i) env[i] = inputs[i];
  for (size_t v = inputs.size(); v < g.values.size(); ++v)
    if (g.values[v].kind != ValueKind::Node) env[v] = g.values[v].constant;
  for (const Step& s : e.plan.steps) {
    if (s.kernel >= 0) {
      run_kernel(e.plan.kernels[s.kernel], g, env);
      continue;
    }
    const Node& n = g.nodes[s.node];
    Stack stack = bind_arguments(n, env);
    n.op->call_boxed(stack);
    for (const ArgRef& r : n.results)
      env[r.value] = r.element < 0 ? std::move(stack[r.slot].tensor())
                                   : stack[r.slot].get<std::vector<Tensor>>()[r.element];
  }
  std::vector<Tensor> out;
  out.reserve(g.outputs.size());
  for (int32_t o : g.outputs) out.push_back(env[o]);
  return out;
}

bool needs_grad(const Graph& g) {
  if (!GradMode::is_enabled()) return false;
  for (const ValueInfo& v : g.values)
    if (v.kind == ValueKind::Captured && v.constant.requires_grad()) return true;
  return false;
}

void build_plan(Entry& e, const CompileOptions& options, bool grad) {
  Graph& g = e.graph;
  if (options.mode != CompileMode::Interpret) {
    eliminate_dead_code(g);
    eliminate_common_subexpressions(g);
    fold_constants(g);
    eliminate_dead_code(g);
  }
  log("graph", options.name + ":\n" + g.dump());
  const bool fuse = options.mode == CompileMode::Default && !grad;
  e.plan = plan(g, fuse);
  if (e.plan.kernels.empty()) return;
  std::string path;
  void* lib = load_kernels(e.plan.source, &path);
  if (lib == nullptr) {
    e.plan = plan(g, false);
    return;
  }
  for (Kernel& k : e.plan.kernels) {
    k.fn = reinterpret_cast<KernelFn>(::dlsym(lib, k.symbol.c_str()));
    BRASA_INTERNAL_ASSERT(k.fn != nullptr, "compile: ", k.symbol, " missing from ", path);
    bump(&CompileStats::fused_kernels);
    if (k.rows) bump(&CompileStats::row_kernels);
    std::string ops;
    for (const std::string& op : k.ops) ops += (ops.empty() ? "" : " ") + op;
    log("fusion", options.name + ": " + k.symbol + " fuses " + std::to_string(k.ops.size()) +
                      " ops (" + ops + "), " + std::to_string(k.inputs.size()) + " inputs, " +
                      std::to_string(k.outputs.size()) + " outputs; source " + path);
  }
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
  TraceResult r = trace(inputs, run, fn, f.options.fullgraph, f.options.name);
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
  e->structure = r.graph.structure_key();
  e->graph = std::move(r.graph);
  bool grad = needs_grad(e->graph);
  for (const Tensor& t : inputs) grad = grad || (GradMode::is_enabled() && t.requires_grad());
  build_plan(*e, f.options, grad);
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
      outputs = run_plan(*hit, inputs);
      return;
    }
    if (failure.empty()) failure = why;
    if (size_only && !size_only_match && e->break_reason.empty()) size_only_match = e.get();
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
  f.entries.push_back(std::move(e));
}

}  // namespace brasa::compile_detail
