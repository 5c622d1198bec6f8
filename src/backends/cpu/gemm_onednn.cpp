// The oneDNN matmul wrapper: strided memory descriptors (no copies when one of the two matrix
// dims has stride 1) and a bounded cache of created primitives keyed by geometry and dtype.
#include <string>

#include "backends/cpu/gemm_internal.h"
#include "backends/cpu/onednn.h"
#include "brasa/core/error.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

using dnnl::memory;

struct Geometry {
  int64_t v[16];
  float alpha, beta;
  int dtype;
  int threads;
};

PrimitiveCache<dnnl::matmul>& cache() {
  static PrimitiveCache<dnnl::matmul> c;
  return c;
}

// A size-1 dim may carry any stride; give oneDNN a plain row- or column-major layout instead.
memory::dims normalized_strides(const memory::dims& sz, memory::dims st) {
  if (sz[1] == 1) st[1] = st[2] == 1 ? sz[2] : 1;
  if (sz[2] == 1) st[2] = st[1] == 1 ? sz[1] : 1;
  if (sz[1] == 1 && sz[2] == 1) st[1] = st[2] = 1;
  if (sz[0] == 1) st[0] = sz[1] * sz[2];
  return st;
}

// One Float matrix product through dnnl_sgemm (row-major BLAS): no primitive to create or look up,
// which matters for small matrices.
void sgemm(const MatmulArgs& g, const memory::dims& a_st, const memory::dims& w_st) {
  const bool ta = a_st[2] != 1, tw = w_st[2] != 1;
  const dnnl_status_t st = dnnl_sgemm(
      ta ? 'T' : 'N', tw ? 'T' : 'N', g.m, g.n, g.k, static_cast<float>(g.alpha),
      static_cast<const float*>(g.a), ta ? a_st[2] : a_st[1], static_cast<const float*>(g.w),
      tw ? w_st[2] : w_st[1], static_cast<float>(g.beta), static_cast<float*>(g.c), g.n);
  BRASA_CHECK_TYPED(InternalError, st == dnnl_success, "mm: dnnl_sgemm failed with status ",
                    static_cast<int>(st));
}

}  // namespace

bool onednn_has_bf16_matmul() {
  // oneDNN's bf16 matmul needs AVX-512 (or AVX2-VNNI-2); on plain AVX2 machines it has none, and
  // on AVX-512 without the BF16 instructions it emulates them, slower than Float.
  static const bool ok = [] {
    if (!__builtin_cpu_supports("avx512bf16")) return false;
    try {
      memory::desc md({1, 2, 2}, memory::data_type::bf16, memory::dims{4, 2, 1});
      dnnl::matmul::primitive_desc(dnnl::matmul::desc(md, md, md), onednn_engine());
      return true;
    } catch (const dnnl::error&) {
      return false;
    }
  }();
  return ok;
}

bool onednn_matmul(const MatmulArgs& g) {
  const memory::data_type dt =
      g.dtype == ScalarType::BFloat16 ? memory::data_type::bf16 : memory::data_type::f32;
  memory::dims a_sz{g.a_batch ? g.batch : 1, g.m, g.k}, w_sz{g.w_batch ? g.batch : 1, g.k, g.n};
  memory::dims c_sz{g.batch, g.m, g.n};
  memory::dims a_st = normalized_strides(a_sz, {g.a_strides[0], g.a_strides[1], g.a_strides[2]});
  memory::dims w_st = normalized_strides(w_sz, {g.w_strides[0], g.w_strides[1], g.w_strides[2]});
  memory::dims c_st{g.m * g.n, g.n, 1};
  if (g.dtype == kFloat && g.batch == 1) {
    sgemm(g, a_st, w_st);
    return true;
  }
  Geometry key{};
  int64_t* p = key.v;
  for (const auto* d : {&a_sz, &w_sz, &c_sz, &a_st, &w_st})
    for (int64_t x : *d) *p++ = x;
  key.alpha = static_cast<float>(g.alpha);
  key.beta = static_cast<float>(g.beta);
  key.dtype = static_cast<int>(dt);
  key.threads = get_num_threads();
  std::string skey(reinterpret_cast<const char*>(&key), sizeof(key));

  memory::desc a_md(a_sz, dt, a_st), w_md(w_sz, dt, w_st), c_md(c_sz, dt, c_st);
  dnnl::matmul prim = cache().get(skey, [&] {
    dnnl::primitive_attr attr;
    if (g.alpha != 1.0) attr.set_output_scales(0, {static_cast<float>(g.alpha)});
    if (g.beta != 0.0) {
      dnnl::post_ops po;
      po.append_sum(static_cast<float>(g.beta));
      attr.set_post_ops(po);
    }
    dnnl::matmul::desc desc(a_md, w_md, c_md);
    return dnnl::matmul(dnnl::matmul::primitive_desc(desc, attr, onednn_engine()));
  });
  dnnl::stream& stream = onednn_stream();
  memory a_mem(a_md, onednn_engine(), const_cast<void*>(g.a)),
      w_mem(w_md, onednn_engine(), const_cast<void*>(g.w));
  memory c_mem(c_md, onednn_engine(), g.c);
  prim.execute(stream, {{DNNL_ARG_SRC, a_mem}, {DNNL_ARG_WEIGHTS, w_mem}, {DNNL_ARG_DST, c_mem}});
  stream.wait();
  return true;
}

}  // namespace brasa::cpu
