#include "compile/matmul_epilogue.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <utility>

#include "backends/cpu/onednn.h"
#include "brasa/core/empty.h"
#include "brasa/core/parallel.h"
#include "compile/codegen.h"
#include "compile/log.h"
#include "compile/row_fusion.h"
#include "ops/conv/conv_params.h"

namespace brasa::compiler {

// Note [Matmul epilogues]
// A Float mm or addmm (alpha 1; addmm's self a [N] bias or a result-shaped tensor, beta 1) whose
// result goes, each value read by nothing else, through
//   - a view that keeps the last dim (linear over [B, T, C] is view, mm, view),
//   - add of a [N] vector (a bias), of a tensor of the result's shape (a residual) or of a single
//     element; mul by a single element; div by a literal power of two (x / 2^k is x * 2^-k
//     exactly);
//   - relu,
// runs as one oneDNN matmul primitive whose bias and post-ops (binary add / mul, eltwise relu)
// apply those ops to the product in registers, instead of a product written to memory and read
// back by the pointwise ops. Each post-op is one IEEE operation on Float values after the same
// conversions as eager (single elements are converted to Float first), so the epilogue itself is
// eager's bit for bit; the product may round differently from eager's `dnnl_sgemm` (another
// summation order once K is blocked: agreement within the reduction tolerance, 1e-5 relative to
// sum |a||b|; at K = 128 the two agree bit for bit on this machine). GELU stays in generated code:
// oneDNN's gelu_erf and gelu_tanh are off by up to 5e-7 absolute, which for x < -5 is every bit
// of the result (measured over [-10, 10]), against the 2-ulp rule for transcendentals.
// A chain of a bias alone is not taken when a reader of its result could fuse the bias add into a
// generated kernel (a pointwise op, a reduction): measured on the GPT and MLP steps of
// bench/compile_gpt_bench and compile_compositions_bench it gained nothing over eager's sgemm
// followed by a generated kernel that adds the bias (within the machine's noise), and eager's
// product is kept bit for bit. When its readers are views and library calls (the GPT's QKV
// projection, read by attention through views; a classifier's logits, read by cross-entropy), the
// bias add would run alone, as one more pass over the result: it is taken. The step runs where the
// chain's last node ran; nothing between the mm and it may write (no mutating node), so reading the
// operands later reads what eager read. When the runtime operands do not fit (a matrix with no unit
// stride, an operand of another layout, an empty product), the step runs its nodes through the
// dispatcher, as eager does.

// Note [Conv epilogues]
// A Float convolution (not transposed) whose result only a relu reads runs as one oneDNN
// convolution primitive with a relu post-op (ops::conv::convolution_relu: eager's primitive, the
// same formats and reorders, plus the post-op), instead of a convolution written to memory and read
// back by relu: the CNN's two conv + relu pairs. The convolution's sums are eager's; relu is
// applied to them in oneDNN's blocked format before the reorder to the result's layout (negative
// sums may become -0 where eager's relu writes +0: equal values). When oneDNN cannot run the
// geometry, the two nodes run through the dispatcher. BRASA_COMPILE_EPILOGUES=0 turns these off
// with the matmul ones.

namespace {

using dnnl::memory;

bool is_op(const Node& n, const char* name) { return n.op->name() == name; }

double scalar_arg(const Node& n, size_t slot) {
  const Value& v = n.args[slot];
  if (v.is<Scalar>()) return v.get<Scalar>().to<double>();
  if (v.is<double>()) return v.get<double>();
  if (v.is<int64_t>()) return static_cast<double>(v.get<int64_t>());
  return std::nan("");
}

int64_t numel(const ValueInfo& v) {
  int64_t n = 1;
  for (int64_t s : v.sizes) n *= s;
  return n;
}

bool float_cpu(const ValueInfo& v) { return v.cpu && v.dtype == ScalarType::Float; }

/// A literal single element as the Float eager converts it to, or NaN when not one.
bool literal_value(const ValueInfo& v, float* out) {
  if (v.kind != ValueKind::Literal || numel(v) != 1 || !v.constant.defined()) return false;
  const ScalarType t = v.dtype;
  if (t != ScalarType::Float && t != ScalarType::Double && t != ScalarType::Long &&
      t != ScalarType::Int)
    return false;
  const double d = v.constant.item<double>();
  if ((t == ScalarType::Long || t == ScalarType::Int) && std::fabs(d) > 16777216.0) return false;
  *out = static_cast<float>(d);
  return true;
}

/// The [N] vector test: sizes, leading ones aside, are [n].
bool is_vector_of(const ValueInfo& v, int64_t n) {
  if (v.sizes.empty() || v.sizes.back() != n) return false;
  for (size_t i = 0; i + 1 < v.sizes.size(); ++i)
    if (v.sizes[i] != 1) return false;
  return true;
}

struct Finder {
  const Graph& g;
  std::vector<int> uses;
  std::vector<bool> output;

  explicit Finder(const Graph& graph)
      : g(graph), uses(graph.values.size(), 0), output(graph.values.size(), false) {
    for (const Node& n : g.nodes)
      for (const ArgRef& r : n.refs) ++uses[r.value];
    for (int32_t o : g.outputs) output[o] = true;
  }

  /// The node that reads `v` (its only reader), after `from`, with no writer in between.
  int32_t single_reader(int32_t v, int32_t from) const {
    if (uses[v] != 1 || output[v]) return -1;
    for (int32_t i = from + 1; i < static_cast<int32_t>(g.nodes.size()); ++i) {
      const Node& n = g.nodes[i];
      for (const ArgRef& r : n.refs)
        if (r.value == v) return n.mutates || n.is_random ? -1 : i;
      if (n.mutates) return -1;
    }
    return -1;
  }

  /// Whether a node that reads `v` (or a view of it) could fuse into a generated kernel (a graph
  /// output's later readers cannot: they are in another graph).
  bool fusible_reader(int32_t v) const {
    for (const Node& n : g.nodes) {
      bool reads = false;
      for (const ArgRef& r : n.refs) reads = reads || r.value == v;
      if (!reads) continue;
      if (n.is_view && !n.mutates && n.results.size() == 1) {
        if (fusible_reader(n.results[0].value)) return true;
        continue;
      }
      const std::string& name = n.op->name();
      if (n.mutates || fusible_pointwise(g, n) || row_reduction(g, n) != RowReduction::None ||
          name == "sum" || name == "mean")
        return true;
    }
    return false;
  }

  /// The epilogue op node `i` applies to `cur` (false when it is none).
  bool classify(int32_t i, int32_t cur, EpilogueOp* op) const {
    const Node& n = g.nodes[i];
    if (n.results.size() != 1 || n.num_results != 1) return false;
    const int32_t out = n.results[0].value;
    const ValueInfo& cv = g.values[cur];
    const ValueInfo& ov = g.values[out];
    op->node = i;
    if (is_op(n, "view") || is_op(n, "_unsafe_view") || is_op(n, "reshape")) {
      if (n.refs.size() != 1 || n.refs[0].value != cur || ov.sizes.empty() ||
          ov.sizes.back() != cv.sizes.back() || numel(ov) != numel(cv))
        return false;
      op->kind = EpilogueOp::View;
      return true;
    }
    if (!float_cpu(ov) || ov.sizes != cv.sizes) return false;
    if (is_op(n, "relu")) {
      if (n.refs.size() != 1 || n.refs[0].slot != 0) return false;
      op->kind = EpilogueOp::Relu;
      return true;
    }
    const bool add = is_op(n, "add"), mul = is_op(n, "mul"), div = is_op(n, "div");
    if (!(add || mul || div) || n.refs.size() != 2 || n.refs[0].element >= 0 ||
        n.refs[1].element >= 0 || n.args.size() < 3 || scalar_arg(n, 2) != 1.0)
      return false;
    // The other operand (add and mul commute bit for bit; div only as self / other).
    const int which = n.refs[0].value == cur ? 1 : 0;
    if (n.refs[1 - which].value != cur || n.refs[which].value == cur) return false;
    if (div && which != 1) return false;
    const int32_t other = n.refs[which].value;
    const ValueInfo& w = g.values[other];
    float c = 0;
    if (literal_value(w, &c)) {
      if (div) {  // x / 2^k == x * 2^-k exactly
        int e = 0;
        if (!(std::frexp(static_cast<double>(c), &e) == 0.5) || e < -120 || e > 120) return false;
        c = 1.0f / c;
      }
      op->kind = EpilogueOp::Scalar;
      op->multiply = !add;
      op->alpha = c;
      return true;
    }
    if (div || !w.cpu || w.dtype != ScalarType::Float) return false;
    op->operand = other;
    if (numel(w) == 1) {
      op->kind = EpilogueOp::Scalar;
      op->multiply = mul;
      return true;
    }
    if (!add) return false;
    if (is_vector_of(w, cv.sizes.back())) {
      op->kind = EpilogueOp::Bias;
      return true;
    }
    if (w.sizes == cv.sizes) {
      op->kind = EpilogueOp::Full;
      return true;
    }
    return false;
  }

  /// A convolution whose one reader is a relu (Note [Conv epilogues]).
  bool conv_relu(int32_t i, MatmulEpilogue* e) const {
    const Node& n = g.nodes[i];
    if (!is_op(n, "convolution") || n.mutates || n.results.size() != 1 || n.args.size() != 9 ||
        !n.args[6].is<bool>() || n.args[6].get<bool>())
      return false;
    const int32_t out = n.results[0].value;
    for (const ArgRef& r : n.refs)
      if (r.element >= 0 || !float_cpu(g.values[r.value])) return false;
    const int32_t next = single_reader(out, i);
    if (!float_cpu(g.values[out]) || next < 0 || !is_op(g.nodes[next], "relu") ||
        g.nodes[next].refs.size() != 1 || g.nodes[next].results.size() != 1)
      return false;
    e->mm = i;
    e->conv = true;
    e->ops = {EpilogueOp{}};
    e->ops[0].node = next;
    e->nodes = {i, next};
    e->names = {"convolution", "relu"};
    e->output = g.nodes[next].results[0].value;
    e->last_node = next;
    return true;
  }

  bool start(int32_t i, MatmulEpilogue* e) const {
    const Node& n = g.nodes[i];
    if (!is_op(n, "addmm") || n.mutates || n.results.size() != 1 || n.args.size() != 5)
      return false;
    const int32_t out = n.results[0].value;
    if (!float_cpu(g.values[out]) || g.values[out].sizes.size() != 2) return false;
    if (scalar_arg(n, 4) != 1.0) return false;  // alpha
    int32_t self = -1;
    for (const ArgRef& r : n.refs) {
      if (r.element >= 0 || !float_cpu(g.values[r.value])) return false;
      if (r.slot == 0) self = r.value;
    }
    e->mm = i;
    e->nodes = {i};
    e->names = {"mm"};
    if (self >= 0) {
      if (scalar_arg(n, 3) != 1.0) return false;  // beta
      const ValueInfo& s = g.values[self];
      EpilogueOp op;
      op.operand = self;
      if (is_vector_of(s, g.values[out].sizes[1]))
        op.kind = EpilogueOp::Bias;
      else if (s.sizes == g.values[out].sizes)
        op.kind = EpilogueOp::Full;
      else
        return false;
      e->ops.push_back(op);
      e->names = {"addmm"};
      e->output = out;
      e->last_node = i;
    }
    return true;
  }

  void extend(MatmulEpilogue* e) const {
    int32_t cur = g.nodes[e->mm].results[0].value, at = e->mm;
    std::vector<EpilogueOp> ops = e->ops;
    std::vector<int32_t> nodes = e->nodes;
    std::vector<std::string> names = e->names;
    for (;;) {
      const int32_t next = single_reader(cur, at);
      EpilogueOp op;
      if (next < 0 || !classify(next, cur, &op)) break;
      ops.push_back(op);
      nodes.push_back(next);
      names.push_back(g.nodes[next].op->name());
      cur = g.nodes[next].results[0].value;
      at = next;
      if (op.kind != EpilogueOp::View) {  // keep the chain up to its last pointwise op
        e->ops = ops;
        e->nodes = nodes;
        e->names = names;
        e->output = cur;
        e->last_node = next;
      }
    }
  }
};

// ----- running -----

struct MatrixLayout {
  int64_t s0 = 0, s1 = 0;
  bool ok = false;
};

/// oneDNN strides of a 2-D matrix (one of its dims must have stride 1; size-1 dims normalized).
MatrixLayout layout(const Tensor& t) {
  const int64_t r = t.size(0), c = t.size(1);
  int64_t s0 = t.stride(0), s1 = t.stride(1);
  if (r == 1) s0 = s1 == 1 ? c : 1;
  if (c == 1) s1 = s0 == 1 ? r : 1;
  if (r == 1 && c == 1) s0 = s1 = 1;
  return {s0, s1, s1 == 1 || s0 == 1};
}

cpu::PrimitiveCache<dnnl::matmul>& primitives() {
  static cpu::PrimitiveCache<dnnl::matmul> c;
  return c;
}

void store_results(const Node& n, Stack& stack, std::vector<Tensor>& env) {
  for (const ArgRef& r : n.results)
    env[r.value] = r.element < 0 ? std::move(stack[r.slot].tensor())
                                 : stack[r.slot].get<std::vector<Tensor>>()[r.element];
}

/// The step's nodes through the dispatcher, as eager runs them.
void run_nodes(const Graph& g, const MatmulEpilogue& e, std::vector<Tensor>& env) {
  for (int32_t i : e.nodes) {
    const Node& n = g.nodes[i];
    Stack stack = bind_arguments(n, env);
    n.op->call_boxed(stack);
    store_results(n, stack, env);
  }
}

template <typename T>
void append_bytes(std::string& key, const T& v) {
  key.append(reinterpret_cast<const char*>(&v), sizeof v);
}

const Tensor* argument(const Node& n, int32_t slot, const std::vector<Tensor>& env) {
  for (const ArgRef& r : n.refs)
    if (r.slot == slot && r.element < 0) return &env[r.value];
  return nullptr;
}

/// Runs a convolution with its relu through ops::conv::convolution_relu; false when oneDNN
/// cannot.
bool run_conv(const Graph& g, const MatmulEpilogue& e, std::vector<Tensor>& env) {
  const Node& n = g.nodes[e.mm];
  Stack a = bind_arguments(n, env);
  auto ints = [&](size_t i) { return IntArrayRef(a[i].get<std::vector<int64_t>>()); };
  const Tensor bias = a[2].is_tensor() ? a[2].tensor() : Tensor();
  Tensor y = ops::conv::convolution_relu(a[0].tensor(), a[1].tensor(), bias, ints(3), ints(4),
                                         ints(5), ints(7), a[8].get<int64_t>());
  if (!y.defined()) return false;
  env[e.output] = std::move(y);
  return true;
}

/// Runs `e` through oneDNN; false (nothing written to env but scratch) when the operands do not
/// suit it.
bool run_fused(const Graph& g, const MatmulEpilogue& e, std::vector<Tensor>& env) {
  const Node& mm = g.nodes[e.mm];
  const Tensor* pa = argument(mm, 1, env);
  const Tensor* pb = argument(mm, 2, env);
  if (pa == nullptr || pb == nullptr) return false;
  Tensor a = *pa, b = *pb;
  if (a.dim() != 2 || b.dim() != 2 || a.scalar_type() != kFloat || b.scalar_type() != kFloat ||
      !a.device().is_cpu() || !b.device().is_cpu())
    return false;
  const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  if (M == 0 || K == 0 || N == 0 || b.size(0) != K) return false;
  MatrixLayout la = layout(a), lb = layout(b);
  if (!la.ok) a = a.contiguous(), la = layout(a);
  if (!lb.ok) b = b.contiguous(), lb = layout(b);

  const memory::data_type f32 = memory::data_type::f32;
  const memory::desc a_md({M, K}, f32, {la.s0, la.s1}), b_md({K, N}, f32, {lb.s0, lb.s1}),
      c_md({M, N}, f32, {N, 1}), vec_md({1, N}, f32, {N, 1}), one_md({1, 1}, f32, {1, 1});
  Tensor out = detail::empty_generic({M, N}, kFloat, Device(kCPU));
  Tensor cur = out;
  std::string key;
  for (int64_t v : {M, K, N, la.s0, la.s1, lb.s0, lb.s1}) append_bytes(key, v);
  append_bytes(key, get_num_threads());
  dnnl::post_ops po;
  int posts = 0;
  Tensor bias;
  std::vector<std::pair<int, Tensor>> binary;  // post-op index, operand
  std::vector<float> literals(e.ops.size());
  std::vector<std::pair<int, size_t>> literal_args;  // post-op index, literals[i]
  for (size_t k = 0; k < e.ops.size(); ++k) {
    const EpilogueOp& op = e.ops[k];
    key += static_cast<char>('a' + op.kind);
    switch (op.kind) {
      case EpilogueOp::View: {
        const Node& n = g.nodes[op.node];
        env[n.refs[0].value] = cur;
        Stack stack = bind_arguments(n, env);
        n.op->call_boxed(stack);
        cur = stack[0].tensor();
        if (!cur.is_contiguous() || cur.numel() != M * N || cur.size(-1) != N) return false;
        break;
      }
      case EpilogueOp::Relu:
        po.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
        ++posts;
        break;
      case EpilogueOp::Scalar: {
        const auto alg = op.multiply ? dnnl::algorithm::binary_mul : dnnl::algorithm::binary_add;
        key += op.multiply ? '*' : '+';
        po.append_binary(alg, one_md);
        if (op.operand < 0) {
          literals[k] = op.alpha;
          literal_args.emplace_back(posts, k);
        } else {
          const Tensor& t = env[op.operand];
          if (t.scalar_type() != kFloat || t.numel() != 1 || !t.device().is_cpu()) return false;
          binary.emplace_back(posts, t);
        }
        ++posts;
        break;
      }
      case EpilogueOp::Bias: {
        const Tensor& t = env[op.operand];
        if (t.scalar_type() != kFloat || !t.device().is_cpu() || t.numel() != N || t.dim() == 0 ||
            t.size(-1) != N || (N > 1 && t.stride(-1) != 1))
          return false;
        if (posts == 0 && !bias.defined()) {  // oneDNN's own bias: added before any post-op
          bias = t;
          key += 'n';
          break;
        }
        po.append_binary(dnnl::algorithm::binary_add, vec_md);
        binary.emplace_back(posts++, t);
        break;
      }
      case EpilogueOp::Full: {
        const Tensor& t = env[op.operand];
        if (t.scalar_type() != kFloat || !t.device().is_cpu() || !t.is_contiguous() ||
            t.sizes() != cur.sizes())
          return false;
        po.append_binary(dnnl::algorithm::binary_add, c_md);
        binary.emplace_back(posts++, t);
        break;
      }
    }
  }
  dnnl::matmul prim;
  try {
    prim = primitives().get(key, [&] {
      dnnl::primitive_attr attr;
      attr.set_post_ops(po);
      const dnnl::matmul::desc desc = bias.defined() ? dnnl::matmul::desc(a_md, b_md, vec_md, c_md)
                                                     : dnnl::matmul::desc(a_md, b_md, c_md);
      return dnnl::matmul(dnnl::matmul::primitive_desc(desc, attr, cpu::onednn_engine()));
    });
  } catch (const dnnl::error&) {
    return false;
  }
  dnnl::engine& eng = cpu::onednn_engine();
  std::unordered_map<int, memory> args;
  args.emplace(DNNL_ARG_SRC, memory(a_md, eng, a.data_ptr()));
  args.emplace(DNNL_ARG_WEIGHTS, memory(b_md, eng, b.data_ptr()));
  args.emplace(DNNL_ARG_DST, memory(c_md, eng, out.data_ptr()));
  if (bias.defined()) args.emplace(DNNL_ARG_BIAS, memory(vec_md, eng, bias.data_ptr()));
  for (auto& [index, t] : binary) {
    const memory::desc& md = t.numel() == 1 ? one_md : t.numel() == N ? vec_md : c_md;
    args.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(index) | DNNL_ARG_SRC_1,
                 memory(md, eng, t.data_ptr()));
  }
  for (auto& [index, k] : literal_args)
    args.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(index) | DNNL_ARG_SRC_1,
                 memory(one_md, eng, &literals[k]));
  dnnl::stream& stream = cpu::onednn_stream();
  prim.execute(stream, args);
  stream.wait();
  env[e.output] = std::move(cur);
  return true;
}

}  // namespace

std::vector<MatmulEpilogue> find_matmul_epilogues(const Graph& g) {
  std::vector<MatmulEpilogue> found;
  // BRASA_COMPILE_EPILOGUES=0: none (the comparison of docs/benchmarks.md).
  static const bool off = [] {
    const char* v = std::getenv("BRASA_COMPILE_EPILOGUES");
    return v != nullptr && std::string(v) == "0";
  }();
  if (off) return found;
  Finder f(g);
  for (int32_t i = 0; i < static_cast<int32_t>(g.nodes.size()); ++i) {
    MatmulEpilogue e;
    if (f.conv_relu(i, &e)) {
      found.push_back(std::move(e));
      continue;
    }
    if (!f.start(i, &e)) continue;
    f.extend(&e);
    // A bias alone stays eager's product when the add can fuse into a generated kernel after it.
    bool only_bias = true;
    for (const EpilogueOp& op : e.ops)
      only_bias = only_bias && (op.kind == EpilogueOp::Bias || op.kind == EpilogueOp::View);
    if (e.output >= 0 && (!only_bias || !f.fusible_reader(e.output))) found.push_back(std::move(e));
  }
  return found;
}

void run_matmul_epilogue(const Graph& g, const MatmulEpilogue& e, std::vector<Tensor>& env) {
  if (e.conv ? run_conv(g, e, env) : run_fused(g, e, env)) return;
  if (log_enabled("fusion"))
    log("fusion", "a matmul epilogue (node " + std::to_string(e.mm) +
                      ") runs op by op: its operands at this call do not suit oneDNN");
  run_nodes(g, e, env);
}

}  // namespace brasa::compiler
