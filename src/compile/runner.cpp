// Running a plan: fused kernels (sizes and strides from the current operands) and nodes through
// the dispatcher.
#include "compile/runner.h"

#include <algorithm>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "compile/fused_eager.h"

namespace brasa::compiler {
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
    if (!k.output_stat.empty() && k.output_stat[j] != 0) {  // one value per row or column
      const uint8_t stat = k.output_stat[j];
      const size_t rank = stat == 1 || stat == 3 ? R : stat == 4 ? 1 : R - 1;
      int64_t sizes[16];
      for (size_t i = 0; i < rank; ++i) {
        const bool last = i + 1 == rank;
        sizes[i] = stat >= 3 ? (last ? shape[R - 1] : 1) : (last && stat == 1 ? 1 : shape[i]);
      }
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

void run_step(const Graph& g, const Plan& plan, const Step& s, std::vector<Tensor>& env) {
  if (s.kernel >= 0) return run_kernel(plan.kernels[s.kernel], g, env);
  if (s.matmul >= 0) return run_matmul_epilogue(g, plan.matmuls[s.matmul], env);
  if (s.attention >= 0) return run_attention_slices(g, plan.attentions[s.attention], env);
  if (s.head_merge >= 0) return run_head_merge(g, plan.head_merges[s.head_merge], s.node, env);
  if (s.pool_relu >= 0) return run_pool_relu(g, plan.pool_relus[s.pool_relu], env);
  const Node& n = g.nodes[s.node];
  Stack stack = bind_arguments(n, env);
  n.op->call_boxed(stack);
  for (const ArgRef& r : n.results)
    env[r.value] = r.element < 0 ? std::move(stack[r.slot].tensor())
                                 : stack[r.slot].get<std::vector<Tensor>>()[r.element];
}

}  // namespace

void run_steps(const Graph& g, const Plan& plan, std::vector<Tensor>& env) {
  // Kernels read the operands' memory: pending fused-eager values are computed first, and the
  // steps' own ops run plainly (a compiled backward runs here from the autograd engine).
  SuspendFusedEager no_fused_eager;
  for (size_t v = 0; v < g.values.size(); ++v)
    if (g.values[v].kind == ValueKind::Literal || g.values[v].kind == ValueKind::Captured)
      env[v] = g.values[v].constant;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    run_step(g, plan, plan.steps[i], env);
    for (int32_t v : plan.releases[i]) env[v] = Tensor();  // Note [Values released after ...]
  }
}

std::vector<Tensor> run_graph(const Graph& g, const Plan& plan, const std::vector<Tensor>& inputs,
                              size_t num_outputs) {
  std::vector<Tensor> env(g.values.size());
  for (size_t i = 0; i < inputs.size(); ++i) env[i] = inputs[i];
  run_steps(g, plan, env);
  std::vector<Tensor> out;
  num_outputs = std::min(num_outputs, g.outputs.size());
  out.reserve(num_outputs);
  for (size_t i = 0; i < num_outputs; ++i) out.push_back(env[g.outputs[i]]);
  return out;
}

}  // namespace brasa::compiler
