// scaled_dot_product_attention: forward and backward as dispatched ops over the blockwise kernels
// (Note [Blockwise attention] in attention.h); this file checks shapes, broadcasts the batch dims
// and converts masks and reduced-precision inputs.
#include "brasa/ops/attention.h"

#include <cmath>
#include <limits>
#include <vector>

#include "backends/cpu/kernels/attention_kernels.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"
#include "ops/attention/attention_ops.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(attention_forward_stub, AttentionForwardKernel);
BRASA_DEFINE_STUB(attention_backward_stub, AttentionBackwardKernel);
BRASA_DEFINE_STUB(attention_bf16_forward_stub, AttentionForwardKernel);
BRASA_DEFINE_STUB(attention_bf16_backward_stub, AttentionBackwardKernel);

bool attention_bf16_native() {
  static const bool native = [] {
    constexpr int kAvx512 = static_cast<int>(cpu::CpuCapability::AVX512);
    return cpu::cpu_capability() == cpu::CpuCapability::AVX512 &&
           __builtin_cpu_supports("avx512bf16") &&
           attention_bf16_forward_stub.impl[kAvx512] != nullptr &&
           attention_bf16_backward_stub.impl[kAvx512] != nullptr;
  }();
  return native;
}

using Triple = std::tuple<Tensor, Tensor, Tensor>;

BRASA_DEFINE_OP(sdpa_forward_op)
BRASA_DEFINE_OP(sdpa_backward_op)

namespace {

constexpr const char* kOp = "scaled_dot_product_attention";

std::vector<int64_t> broadcast_batch(std::vector<int64_t> a, IntArrayRef b, const char* what) {
  if (a.size() < b.size()) a.insert(a.begin(), b.size() - a.size(), 1);
  const size_t off = a.size() - b.size();
  for (size_t i = 0; i < b.size(); ++i) {
    int64_t& x = a[off + i];
    BRASA_CHECK(x == b[i] || x == 1 || b[i] == 1, kOp, ": the batch dims of ", what, " (", b,
                ") do not broadcast with ", IntArrayRef(a));
    if (x == 1) x = b[i];
  }
  return a;
}

IntArrayRef batch_of(const Tensor& t) { return t.sizes().slice(0, size_t(t.dim() - 2)); }

struct Prepared {
  ScalarType compute;  // of the scores, softmax and mask
  bool native_bf16;    // q, k, v (and out, the gradients) stay BFloat16: Note [BFloat16 attention]
  std::vector<int64_t> batch;
  int64_t N, L, S, E, Ev;
  Tensor q, k, v, mask;  // expanded to batch + [rows, cols], unit last stride, compute dtype
  std::vector<int64_t> q_off, k_off, v_off, mask_off, o_off;
  double scale;
};

std::vector<int64_t> batch_offsets(const Tensor& t, const std::vector<int64_t>& batch) {
  int64_t n = 1;
  for (int64_t b : batch) n *= b;
  std::vector<int64_t> off(size_t(n), t.storage_offset());
  const int64_t nd = int64_t(batch.size());
  for (int64_t i = 0; i < n; ++i) {
    int64_t rem = i, o = t.storage_offset();
    for (int64_t d = nd - 1; d >= 0; --d) {
      o += (rem % batch[size_t(d)]) * t.stride(d);
      rem /= batch[size_t(d)];
    }
    off[size_t(i)] = o;
  }
  return off;
}

Tensor to_compute(const Tensor& t, ScalarType dt, const std::vector<int64_t>& batch) {
  Tensor r = t.scalar_type() == dt ? t : t.to(dt);
  if (r.dim() > 0 && r.stride(-1) != 1 && r.size(-1) > 1) r = r.contiguous();
  std::vector<int64_t> shape = batch;
  shape.push_back(r.size(-2));
  shape.push_back(r.size(-1));
  return r.expand(shape);
}

Prepared prepare(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                 double dropout_p, bool is_causal, std::optional<double> scale) {
  BRASA_CHECK(q.dim() >= 2 && k.dim() >= 2 && v.dim() >= 2, kOp,
              ": expected query, key and value of at least 2 dims, got ", q.sizes(), ", ",
              k.sizes(), ", ", v.sizes());
  BRASA_CHECK_TYPE(is_floating_type(q.scalar_type()) && q.scalar_type() == k.scalar_type() &&
                       q.scalar_type() == v.scalar_type(),
                   kOp, ": expected query, key and value of one floating dtype, got ",
                   q.scalar_type(), ", ", k.scalar_type(), ", ", v.scalar_type());
  BRASA_CHECK(q.size(-1) == k.size(-1), kOp, ": query ", q.sizes(), " and key ", k.sizes(),
              " differ in their last dim");
  BRASA_CHECK(k.size(-2) == v.size(-2), kOp, ": key ", k.sizes(), " and value ", v.sizes(),
              " differ in their sequence dim");
  BRASA_CHECK(dropout_p >= 0 && dropout_p <= 1, kOp, ": dropout_p must be in [0, 1], got ",
              dropout_p);
  BRASA_CHECK(!(is_causal && mask.defined()), kOp,
              ": explicit attn_mask should not be set when is_causal=True");
  Prepared p;
  p.compute = q.scalar_type() == kDouble ? kDouble : kFloat;
  p.native_bf16 = q.scalar_type() == kBFloat16 && attention_bf16_native();
  p.L = q.size(-2), p.S = k.size(-2), p.E = q.size(-1), p.Ev = v.size(-1);
  p.batch =
      broadcast_batch(broadcast_batch(std::vector<int64_t>(batch_of(q).begin(), batch_of(q).end()),
                                      batch_of(k), "key"),
                      batch_of(v), "value");
  if (mask.defined()) {
    BRASA_CHECK_TYPE(mask.scalar_type() == kBool || mask.scalar_type() == q.scalar_type(), kOp,
                     ": expected a bool attn_mask or one of the query's dtype ", q.scalar_type(),
                     ", got ", mask.scalar_type());
    Tensor m = mask;
    while (m.dim() < 2) m = m.unsqueeze(0);
    BRASA_CHECK((m.size(-2) == p.L || m.size(-2) == 1) && (m.size(-1) == p.S || m.size(-1) == 1),
                kOp, ": attn_mask ", mask.sizes(), " does not broadcast to [", p.L, ", ", p.S, "]");
    p.batch = broadcast_batch(p.batch, batch_of(m), "attn_mask");
    if (m.scalar_type() == kBool)
      m = where(m, scalar_tensor(0.0, p.compute),
                scalar_tensor(-std::numeric_limits<double>::infinity(), p.compute));
    else if (m.scalar_type() != p.compute)
      m = m.to(p.compute);
    std::vector<int64_t> shape = p.batch;
    shape.push_back(p.L);
    shape.push_back(p.S);
    p.mask = m.expand(shape);
  }
  p.N = 1;
  for (int64_t b : p.batch) p.N *= b;
  p.scale = scale ? *scale : 1.0 / std::sqrt(double(p.E));
  const ScalarType operands = p.native_bf16 ? kBFloat16 : p.compute;
  p.q = to_compute(q, operands, p.batch);
  p.k = to_compute(k, operands, p.batch);
  p.v = to_compute(v, operands, p.batch);
  return p;
}

AttentionGeometry geometry(Prepared& p, bool is_causal, double dropout_p, PhiloxRange rng) {
  p.q_off = batch_offsets(p.q, p.batch);
  p.k_off = batch_offsets(p.k, p.batch);
  p.v_off = batch_offsets(p.v, p.batch);
  if (p.mask.defined()) p.mask_off = batch_offsets(p.mask, p.batch);
  const int64_t nd = int64_t(p.batch.size());
  AttentionGeometry g{};
  g.batch = p.N, g.L = p.L, g.S = p.S, g.E = p.E, g.Ev = p.Ev;
  g.q_off = p.q_off.data(), g.k_off = p.k_off.data(), g.v_off = p.v_off.data();
  g.mask_off = p.mask.defined() ? p.mask_off.data() : nullptr;
  g.q_row = p.q.stride(nd), g.k_row = p.k.stride(nd), g.v_row = p.v.stride(nd);
  if (p.mask.defined()) g.mask_row = p.mask.stride(nd), g.mask_col = p.mask.stride(nd + 1);
  g.causal = is_causal;
  g.scale = p.scale;
  g.dropout_p = dropout_p;
  g.rng = rng;
  return g;
}

std::vector<int64_t> with(std::vector<int64_t> shape, std::initializer_list<int64_t> tail) {
  shape.insert(shape.end(), tail);
  return shape;
}

const void* base(const Tensor& t) {
  return t.defined() ? t.unsafeGetTensorImpl()->storage()->data() : nullptr;
}

// The forward's shape rule: the checked inputs and the empty results (out in the compute dtype or
// BFloat16 when native, lse in the compute dtype).
struct Forward {
  Prepared p;
  Tensor out, lse, philox;
};
Forward forward_rule(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                     double dropout_p, bool is_causal, std::optional<double> scale) {
  Prepared p = prepare(q, k, v, mask, dropout_p, is_causal, scale);
  Tensor out = detail::empty_generic(with(p.batch, {p.L, p.Ev}),
                                     p.native_bf16 ? kBFloat16 : p.compute, q.device());
  Tensor lse = detail::empty_generic(with(p.batch, {p.L}), p.compute, q.device());
  return {std::move(p), out, lse, detail::empty_generic({2}, kLong, q.device())};
}

Tensor in_dtype(const Tensor& t, ScalarType dt) { return t.scalar_type() == dt ? t : t.to(dt); }

Triple forward_meta(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                    double dropout_p, bool is_causal, std::optional<double> scale,
                    std::optional<Generator>) {
  Forward f = forward_rule(q, k, v, mask, dropout_p, is_causal, scale);
  return {in_dtype(f.out, q.scalar_type()), f.lse, f.philox};
}

// Runs the kernel into out (f.out or a view of the same shape and dtype with unit last stride).
void run_forward(Forward& f, double dropout_p, bool is_causal, std::optional<Generator> gen,
                 const Tensor& out) {
  Prepared& p = f.p;
  const Tensor &lse = f.lse, &philox = f.philox;
  PhiloxRange rng{0, 0};
  if (dropout_p > 0 && p.N * p.L * p.S > 0)
    rng = reserve_philox(gen, uint64_t((p.N * p.L * p.S + 3) / 4));
  philox.data_ptr<int64_t>()[0] = int64_t(rng.seed);
  philox.data_ptr<int64_t>()[1] = int64_t(rng.offset);
  if (p.S == 0) {
    out.zero_();
    lse.fill_(-std::numeric_limits<double>::infinity());
  } else if (out.numel() > 0 || lse.numel() > 0) {
    AttentionGeometry g = geometry(p, is_causal, dropout_p, rng);
    p.o_off = batch_offsets(out, p.batch);
    g.o_off = p.o_off.data(), g.o_row = out.stride(int64_t(p.batch.size()));
    auto& stub = p.native_bf16 ? attention_bf16_forward_stub : attention_forward_stub;
    stub(p.native_bf16 ? kBFloat16 : p.compute, g, base(p.q), base(p.k), base(p.v), base(p.mask),
         const_cast<void*>(base(out)), lse.data_ptr());
  }
}

Triple forward_kernel(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                      double dropout_p, bool is_causal, std::optional<double> scale,
                      std::optional<Generator> gen) {
  Forward f = forward_rule(q, k, v, mask, dropout_p, is_causal, scale);
  run_forward(f, dropout_p, is_causal, std::move(gen), f.out);
  return {in_dtype(f.out, q.scalar_type()), f.lse, f.philox};
}

// grad of a broadcast input: summed over the batch dims the input was expanded along.
Tensor reduce_to(const Tensor& g, const Tensor& like) {
  const int64_t lead = g.dim() - like.dim();
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < g.dim() - 2; ++d)
    if (d < lead || like.size(d - lead) == 1) dims.push_back(d);
  Tensor r = dims.empty() ? g : g.sum(dims, true);
  if (lead > 0) r = r.reshape(like.sizes());
  return r.scalar_type() == like.scalar_type() ? r : r.to(like.scalar_type());
}

// The backward's shape rule: the checked inputs (the empty gradients are with(p.batch, ...) in
// grad_dtype(p)).
Prepared backward_check(const Tensor& grad_out, const Tensor& q, const Tensor& k, const Tensor& v,
                        const Tensor& mask, const Tensor& out, double dropout_p, bool is_causal,
                        std::optional<double> scale) {
  Prepared p = prepare(q, k, v, mask, dropout_p, is_causal, scale);
  const std::vector<int64_t> out_shape = with(p.batch, {p.L, p.Ev});
  BRASA_CHECK(grad_out.sizes() == IntArrayRef(out_shape) && out.sizes() == grad_out.sizes(),
              "scaled_dot_product_attention_backward: expected grad_out and out of shape ",
              IntArrayRef(out_shape), ", got ", grad_out.sizes(), " and ", out.sizes());
  return p;
}
ScalarType grad_dtype(const Prepared& p) { return p.native_bf16 ? kBFloat16 : p.compute; }
struct Backward {
  Prepared p;
  Tensor gq, gk, gv;
};
Backward backward_rule(const Tensor& grad_out, const Tensor& q, const Tensor& k, const Tensor& v,
                       const Tensor& mask, const Tensor& out, double dropout_p, bool is_causal,
                       std::optional<double> scale) {
  Prepared p = backward_check(grad_out, q, k, v, mask, out, dropout_p, is_causal, scale);
  auto empty = [&](int64_t rows, int64_t cols) {
    return detail::empty_generic(with(p.batch, {rows, cols}), grad_dtype(p), q.device());
  };
  Tensor gq = empty(p.L, p.E), gk = empty(p.S, p.E), gv = empty(p.S, p.Ev);
  return {std::move(p), gq, gk, gv};
}

Triple backward_meta(const Tensor& grad_out, const Tensor& q, const Tensor& k, const Tensor& v,
                     const Tensor& mask, const Tensor& out, const Tensor&, const Tensor&,
                     double dropout_p, bool is_causal, std::optional<double> scale) {
  Backward b = backward_rule(grad_out, q, k, v, mask, out, dropout_p, is_causal, scale);
  return {reduce_to(b.gq, q), reduce_to(b.gk, k), reduce_to(b.gv, v)};
}

// Runs the kernel into gq, gk, gv: with(p.batch, ...) of grad_dtype(p), unit last stride
// (contiguous when native BFloat16).
void run_backward(Prepared& p, const Tensor& grad_out, const Tensor& out, const Tensor& lse,
                  const Tensor& philox, double dropout_p, bool is_causal, const Tensor& gq,
                  const Tensor& gk, const Tensor& gv) {
  if (p.N * p.L * p.S == 0) {
    gq.zero_(), gk.zero_(), gv.zero_();
    return;
  }
  // the kernels write every element of the gradients
  const ScalarType dt = grad_dtype(p);
  // grad_out as it comes (the head merge's backward gives it strided) when its rows have unit
  // stride; the BFloat16 kernels take it contiguous.
  Tensor go = grad_out.to(dt), o = out.to(dt);
  if (p.native_bf16 || (go.stride(-1) != 1 && go.size(-1) > 1)) go = go.contiguous();
  // out as it comes (merged heads: Note [Attention output in merged heads]) when its rows have
  // unit stride.
  if (p.native_bf16 || (o.stride(-1) != 1 && o.size(-1) > 1)) o = o.contiguous();
  Tensor l = lse.to(p.compute).contiguous();
  Tensor ph = philox.contiguous();
  PhiloxRange rng{uint64_t(ph.data_ptr<int64_t>()[0]), uint64_t(ph.data_ptr<int64_t>()[1])};
  AttentionGeometry g = geometry(p, is_causal, dropout_p, rng);
  const int64_t nd = int64_t(p.batch.size());
  const std::vector<int64_t> go_off = batch_offsets(go, p.batch),
                             gq_off = batch_offsets(gq, p.batch),
                             gk_off = batch_offsets(gk, p.batch),
                             gv_off = batch_offsets(gv, p.batch);
  g.go_off = go_off.data(), g.go_row = go.stride(nd);
  p.o_off = batch_offsets(o, p.batch);
  g.o_off = p.o_off.data(), g.o_row = o.stride(nd);
  g.gq_off = gq_off.data(), g.gk_off = gk_off.data(), g.gv_off = gv_off.data();
  g.gq_row = gq.stride(nd), g.gk_row = gk.stride(nd), g.gv_row = gv.stride(nd);
  auto& stub = p.native_bf16 ? attention_bf16_backward_stub : attention_backward_stub;
  stub(dt, g, base(p.q), base(p.k), base(p.v), base(p.mask), o.data_ptr(), go.data_ptr(),
       l.data_ptr(), const_cast<void*>(base(gq)), const_cast<void*>(base(gk)),
       const_cast<void*>(base(gv)));
}

Triple backward_kernel(const Tensor& grad_out, const Tensor& q, const Tensor& k, const Tensor& v,
                       const Tensor& mask, const Tensor& out, const Tensor& lse,
                       const Tensor& philox, double dropout_p, bool is_causal,
                       std::optional<double> scale) {
  auto [p, gq, gk, gv] = backward_rule(grad_out, q, k, v, mask, out, dropout_p, is_causal, scale);
  run_backward(p, grad_out, out, lse, philox, dropout_p, is_causal, gq, gk, gv);
  return {reduce_to(gq, q), reduce_to(gk, k), reduce_to(gv, v)};
}

}  // namespace

BRASA_REGISTER_KERNEL(sdpa_forward_op, forward_kernel, CPU)
BRASA_REGISTER_KERNEL(sdpa_forward_op, forward_meta, Meta)
BRASA_REGISTER_KERNEL(sdpa_backward_op, backward_kernel, CPU)
BRASA_REGISTER_KERNEL(sdpa_backward_op, backward_meta, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask, double dropout_p, bool is_causal,
                                    std::optional<double> scale,
                                    std::optional<Generator> generator) {
  return std::get<0>(ops::sdpa_forward_op().call(query, key, value, attn_mask, dropout_p, is_causal,
                                                 scale, std::move(generator)));
}

std::tuple<Tensor, Tensor, Tensor> _scaled_dot_product_attention_forward(
    const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& attn_mask,
    double dropout_p, bool is_causal, std::optional<double> scale,
    std::optional<Generator> generator) {
  return ops::sdpa_forward_op().call(query, key, value, attn_mask, dropout_p, is_causal, scale,
                                     std::move(generator));
}

// Note [Attention gradients into slices]
// A compiled backward copies attention's three gradients into the slices of one buffer, the
// gradient of the projection they were split from (Note [Slices written in place] in
// src/compile/zero_slices.cpp). Here the kernel writes them there itself: the accumulators of
// the blockwise kernel take a row stride and per-batch offsets, so the values are the op's own
// (the same products in the same order), with no copies. Where the kernel cannot
// (BFloat16 or Half operands, broadcast batch dims, destinations without unit last stride, or an
// input that requires grad under grad mode) the op runs and its results are copied.
void ops::scaled_dot_product_attention_backward_into(
    const Tensor& grad_out, const Tensor& query, const Tensor& key, const Tensor& value,
    const Tensor& attn_mask, const Tensor& out, const Tensor& logsumexp, const Tensor& philox,
    double dropout_p, bool is_causal, std::optional<double> scale, const Tensor& grad_query,
    const Tensor& grad_key, const Tensor& grad_value) {
  Prepared p =
      backward_check(grad_out, query, key, value, attn_mask, out, dropout_p, is_causal, scale);
  bool direct = !(GradMode::is_enabled() &&
                  (grad_out.requires_grad() || query.requires_grad() || key.requires_grad() ||
                   value.requires_grad() || (attn_mask.defined() && attn_mask.requires_grad())));
  const Tensor* in[3] = {&query, &key, &value};
  const Tensor* dst[3] = {&grad_query, &grad_key, &grad_value};
  for (int i = 0; i < 3; ++i)
    direct = direct && in[i]->scalar_type() == p.compute && dst[i]->scalar_type() == p.compute &&
             dst[i]->device() == query.device() && dst[i]->sizes() == in[i]->sizes() &&
             in[i]->sizes().slice(0, p.batch.size()) == IntArrayRef(p.batch) &&
             (dst[i]->stride(-1) == 1 || dst[i]->size(-1) <= 1);
  if (direct) {
    run_backward(p, grad_out, out, logsumexp, philox, dropout_p, is_causal, grad_query, grad_key,
                 grad_value);
    return;
  }
  auto [gq, gk, gv] = scaled_dot_product_attention_backward(
      grad_out, query, key, value, attn_mask, out, logsumexp, philox, dropout_p, is_causal, scale);
  grad_query.copy_(gq), grad_key.copy_(gk), grad_value.copy_(gv);
}

// Note [Attention output in merged heads]
// Attention's output [B, H, L, Ev] is mostly read as y.transpose(1, 2).reshape(B, L, H * Ev), the
// head merge, which copies it whole. The forward kernel writes each output row where the
// geometry says (o_off, o_row), so a compiled graph has it write the rows into a [B, L, H, Ev]
// buffer, which makes the merge a view (src/compile/attention_merge.cpp), and the backward reads
// `output` where it lies. The values are the op's bit for bit: the same loops, other row
// addresses.
std::tuple<Tensor, Tensor, Tensor> ops::scaled_dot_product_attention_forward_merged(
    const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& attn_mask,
    double dropout_p, bool is_causal, std::optional<double> scale,
    std::optional<Generator> generator) {
  const bool grad = GradMode::is_enabled() &&
                    (query.requires_grad() || key.requires_grad() || value.requires_grad() ||
                     (attn_mask.defined() && attn_mask.requires_grad()));
  if (query.dim() == 4 && !grad) {
    Forward f = forward_rule(query, key, value, attn_mask, dropout_p, is_causal, scale);
    if (!f.p.native_bf16 && query.scalar_type() == f.p.compute &&
        IntArrayRef(f.p.batch) == query.sizes().slice(0, 2)) {
      const int64_t B = f.p.batch[0], H = f.p.batch[1];
      Tensor out =
          detail::empty_generic({B, f.p.L, H, f.p.Ev}, f.p.compute, query.device()).transpose(1, 2);
      run_forward(f, dropout_p, is_causal, std::move(generator), out);
      return {out, f.lse, f.philox};
    }
  }
  return sdpa_forward_op().call(query, key, value, attn_mask, dropout_p, is_causal, scale,
                                std::move(generator));
}

std::tuple<Tensor, Tensor, Tensor> scaled_dot_product_attention_backward(
    const Tensor& grad_out, const Tensor& query, const Tensor& key, const Tensor& value,
    const Tensor& attn_mask, const Tensor& out, const Tensor& logsumexp, const Tensor& philox,
    double dropout_p, bool is_causal, std::optional<double> scale) {
  return ops::sdpa_backward_op().call(grad_out, query, key, value, attn_mask, out, logsumexp,
                                      philox, dropout_p, is_causal, scale);
}

}  // namespace brasa
