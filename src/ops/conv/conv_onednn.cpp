// Float and BFloat16 convolutions on oneDNN: forward (with a relu post-op for compiled graphs),
// backward-data and backward-weights primitives. oneDNN chooses the memory formats
// (format_tag::any); tensors are reordered in and out of them. Created primitives (convolutions and
// reorders) live in a bounded LRU cache keyed by their geometry.
#include <string>

#include "backends/cpu/onednn.h"
#include "brasa/core/empty.h"
#include "brasa/core/parallel.h"
#include "ops/conv/conv_params.h"

namespace brasa::ops::conv {
namespace {

using dnnl::memory;
using Dt = memory::data_type;

enum class Kind : int64_t { kForward, kBackwardData, kBackwardWeight };

struct Prim {
  dnnl::primitive prim;
  memory::desc x, w, y;  // the formats the primitive uses for its three tensors
};

cpu::PrimitiveCache<Prim>& cache() {
  static cpu::PrimitiveCache<Prim> c;
  return c;
}

dnnl::engine& engine() { return cpu::onednn_engine(); }
dnnl::stream& stream() { return cpu::onednn_stream(); }

template <typename T>
void append_bytes(std::string& key, const T& v) {
  key.append(reinterpret_cast<const char*>(&v), sizeof(v));
}

Dt onednn_dtype(const Tensor& t) { return t.dtype() == kBFloat16 ? Dt::bf16 : Dt::f32; }

// The tensor's own layout; the weight [OC, C/g, *k] of a grouped convolution as [g, OC/g, C/g, *k].
memory::desc user_desc(const Tensor& t, int64_t groups, bool is_weight) {
  memory::dims d(t.sizes().begin(), t.sizes().end()), s(t.strides().begin(), t.strides().end());
  if (is_weight && groups > 1) {
    d[0] /= groups;
    d.insert(d.begin(), groups);
    s.insert(s.begin(), s[0] * d[1]);
  }
  return memory::desc(d, onednn_dtype(t), s);
}

memory::desc any_desc(const memory::desc& user) {
  return memory::desc(user.dims(), user.data_type(), memory::format_tag::any);
}

void reorder(const memory& from, const memory& to) {
  std::string key("R");
  append_bytes(key, from.get_desc().data);
  append_bytes(key, to.get_desc().data);
  append_bytes(key, get_num_threads());
  Prim r = cache().get(key, [&] { return Prim{dnnl::reorder(from, to), {}, {}, {}}; });
  r.prim.execute(stream(), {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}});
}

// A memory in format `want` holding t: t's own storage when the formats agree, else a scratch
// tensor (kept alive by `keep`), filled from t when `fill`.
memory bind(const Tensor& t, const memory::desc& user, const memory::desc& want, bool fill,
            Tensor& keep) {
  memory um(user, engine(), t.data_ptr());
  if (user == want) return um;
  keep = detail::empty_generic({static_cast<int64_t>(want.get_size() / sizeof(float)) + 1}, kFloat,
                               t.device());
  memory wm(want, engine(), keep.data_ptr());
  if (fill) reorder(um, wm);
  return wm;
}

Prim make_prim(Kind kind, const memory::desc& xu, const memory::desc& wu, const memory::desc& yu,
               bool has_bias, Dt bias_dt, const memory::dims& st, const memory::dims& dil,
               const memory::dims& pl, const memory::dims& pr, bool relu) {
  const auto alg = dnnl::algorithm::convolution_direct;
  const memory::desc x = any_desc(xu), w = any_desc(wu), y = any_desc(yu);
  const memory::desc b =
      has_bias ? memory::desc({yu.dims()[1]}, bias_dt, memory::format_tag::a) : memory::desc();
  const auto prop = kind == Kind::kForward ? dnnl::prop_kind::forward_inference
                                           : dnnl::prop_kind::forward_training;
  dnnl::primitive_attr attr;
  if (relu) {  // Note [Conv epilogues] in src/compile/matmul_epilogue.cpp
    dnnl::post_ops po;
    po.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
    attr.set_post_ops(po);
  }
  dnnl::convolution_forward::primitive_desc fwd(
      has_bias ? dnnl::convolution_forward::desc(prop, alg, x, w, b, y, st, dil, pl, pr)
               : dnnl::convolution_forward::desc(prop, alg, x, w, y, st, dil, pl, pr),
      attr, engine());
  if (kind == Kind::kForward)
    return {dnnl::convolution_forward(fwd), fwd.src_desc(), fwd.weights_desc(), fwd.dst_desc()};
  if (kind == Kind::kBackwardData) {
    dnnl::convolution_backward_data::primitive_desc bd(
        dnnl::convolution_backward_data::desc(alg, x, w, y, st, dil, pl, pr), engine(), fwd);
    return {dnnl::convolution_backward_data(bd), bd.diff_src_desc(), bd.weights_desc(),
            bd.diff_dst_desc()};
  }
  dnnl::convolution_backward_weights::primitive_desc bw(
      dnnl::convolution_backward_weights::desc(alg, x, w, y, st, dil, pl, pr), engine(), fwd);
  return {dnnl::convolution_backward_weights(bw), bw.src_desc(), bw.diff_weights_desc(),
          bw.diff_dst_desc()};
}

// t itself when oneDNN can describe its strides (all positive), else a contiguous copy.
Tensor dense(const Tensor& t) {
  for (int64_t i = 0; i < t.dim(); ++i)
    if (t.stride(i) <= 0 && t.size(i) > 1) return t.contiguous();
  return t;
}

// x [N, C, *in], w [OC, C/g, *k], y [N, OC, *out] in the roles of a regular convolution; the
// output of `kind` (y, x or w) is contiguous and fully written.
bool run(Kind kind, const Tensor& x_in, const Tensor& w_in, const Tensor& y_in, const Tensor& bias,
         const ConvParams& p, bool relu = false) {
  const Tensor x = kind == Kind::kBackwardData ? x_in : dense(x_in);
  const Tensor w = kind == Kind::kBackwardWeight ? w_in : dense(w_in);
  const Tensor y = kind == Kind::kForward ? y_in : dense(y_in);
  if (x.numel() == 0 || w.numel() == 0 || y.numel() == 0) return false;
  memory::dims st, dil, pl, pr;
  for (int64_t i = 0; i < p.nsp; ++i) {
    const int64_t in = x.size(i + 2), out = y.size(i + 2);
    const int64_t ext = p.dilation[i] * (w.size(i + 2) - 1) + 1;
    const int64_t span = in - ext + 2 * p.padding[i];
    if (span < 0 || span / p.stride[i] + 1 != out) return false;
    st.push_back(p.stride[i]);
    dil.push_back(p.dilation[i] - 1);
    pl.push_back(p.padding[i]);
    pr.push_back(p.padding[i]);
  }
  const memory::desc xu = user_desc(x, p.groups, false), wu = user_desc(w, p.groups, true),
                     yu = user_desc(y, p.groups, false);
  const bool has_bias = kind == Kind::kForward && bias.defined();
  std::string key("C");
  append_bytes(key, kind);
  for (const Tensor* t : {&x, &w, &y})
    for (int64_t s : t->sizes()) append_bytes(key, s);
  for (const auto* v : {&st, &dil, &pl})
    for (int64_t s : *v) append_bytes(key, s);
  append_bytes(key, p.groups);
  append_bytes(key, has_bias);
  append_bytes(key, relu);
  const Dt bias_dt = has_bias ? onednn_dtype(bias) : Dt::f32;
  append_bytes(key, x.dtype());
  append_bytes(key, bias_dt);
  append_bytes(key, get_num_threads());
  Prim prim;
  try {
    prim = cache().get(
        key, [&] { return make_prim(kind, xu, wu, yu, has_bias, bias_dt, st, dil, pl, pr, relu); });
  } catch (const dnnl::error&) {
    return false;  // geometry oneDNN has no implementation for: the direct loop handles it
  }

  Tensor kx, kw, ky;
  memory xm = bind(x, xu, prim.x, kind != Kind::kBackwardData, kx);
  memory wm = bind(w, wu, prim.w, kind != Kind::kBackwardWeight, kw);
  memory ym = bind(y, yu, prim.y, kind != Kind::kForward, ky);
  std::unordered_map<int, memory> args;
  Tensor b = has_bias ? bias.contiguous() : Tensor();
  if (kind == Kind::kForward) {
    args = {{DNNL_ARG_SRC, xm}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, ym}};
    if (has_bias)
      args.emplace(DNNL_ARG_BIAS, memory(memory::desc({b.size(0)}, bias_dt, memory::format_tag::a),
                                         engine(), b.data_ptr()));
  } else if (kind == Kind::kBackwardData) {
    args = {{DNNL_ARG_DIFF_SRC, xm}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DIFF_DST, ym}};
  } else {
    args = {{DNNL_ARG_SRC, xm}, {DNNL_ARG_DIFF_WEIGHTS, wm}, {DNNL_ARG_DIFF_DST, ym}};
  }
  prim.prim.execute(stream(), args);
  const Tensor& out = kind == Kind::kForward ? y : kind == Kind::kBackwardData ? x : w;
  const Tensor& scratch = kind == Kind::kForward ? ky : kind == Kind::kBackwardData ? kx : kw;
  if (scratch.defined()) {
    const memory& from = kind == Kind::kForward ? ym : kind == Kind::kBackwardData ? xm : wm;
    reorder(from, memory(kind == Kind::kForward        ? yu
                         : kind == Kind::kBackwardData ? xu
                                                       : wu,
                         engine(), out.data_ptr()));
  }
  stream().wait();
  return true;
}

}  // namespace

bool onednn_conv_forward(const Tensor& y, const Tensor& x, const Tensor& w, const Tensor& bias,
                         const ConvParams& p) {
  return run(Kind::kForward, x, w, y, bias, p);
}

Tensor convolution_relu(const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                        IntArrayRef output_padding, int64_t groups) {
  if (input.dtype() != kFloat || !input.is_cpu()) return Tensor();
  const ConvParams p = check_conv("convolution", input, weight, bias, stride, padding, dilation,
                                  false, output_padding, groups);
  Tensor y = detail::empty_generic(conv_output_shape(p, input.sizes(), weight.sizes()), kFloat,
                                   input.device());
  return run(Kind::kForward, input, weight, y, bias, p, true) ? y : Tensor();
}

bool onednn_conv_backward_data(const Tensor& gx, const Tensor& gy, const Tensor& w,
                               const ConvParams& p) {
  return run(Kind::kBackwardData, gx, w, gy, Tensor(), p);
}

bool onednn_conv_backward_weight(const Tensor& gw, const Tensor& gy, const Tensor& x,
                                 const ConvParams& p) {
  return run(Kind::kBackwardWeight, x, gw, gy, Tensor(), p);
}

}  // namespace brasa::ops::conv
