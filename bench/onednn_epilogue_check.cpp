// What Note [Matmul epilogues] (src/compile/matmul_epilogue.cpp) rests on, measured on this
// machine: (1) oneDNN's eltwise GELU (erf and tanh forms) against a double-precision reference over
// [-10, 10], in ulps and absolute error (why GELU is not a post-op); (2) one thread's time of
// dnnl_sgemm (with the bias copied into C first, as eager's addmm does) against a matmul primitive
// with the bias as its own argument, for the GPT and MLP benchmarks' shapes; (3) dnnl_sgemm against
// a matmul primitive for the GPT step's bare products in its operand layouts. docs/benchmarks.md.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dnnl.hpp>
#include <random>
#include <vector>

namespace {

using dnnl::memory;

int64_t ulps(float a, float b) {
  int32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  const int64_t ox = x < 0 ? INT64_C(0x80000000) - x : x, oy = y < 0 ? INT64_C(0x80000000) - y : y;
  return ox > oy ? ox - oy : oy - ox;
}

template <typename F>
double best_ms(F f) {
  double best = 1e300;
  for (int r = 0; r < 20; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(
        best,
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main() {
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream s(eng);
  const int64_t n = 1 << 22;
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) x[i] = -10.0f + 20.0f * static_cast<float>(i) / n;
  const memory::desc md({n}, memory::data_type::f32, memory::dims{1});
  for (auto alg : {dnnl::algorithm::eltwise_gelu_erf, dnnl::algorithm::eltwise_gelu_tanh}) {
    dnnl::eltwise_forward p(dnnl::eltwise_forward::primitive_desc(
        dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference, alg, md, 0, 0), eng));
    memory xm(md, eng, x.data()), ym(md, eng, y.data());
    p.execute(s, {{DNNL_ARG_SRC, xm}, {DNNL_ARG_DST, ym}});
    s.wait();
    int64_t worst = 0;
    double worst_abs = 0, at = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double v = x[i];
      const double r =
          alg == dnnl::algorithm::eltwise_gelu_erf
              ? 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)))
              : 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
      const int64_t u = ulps(y[i], static_cast<float>(r));
      if (u > worst) worst = u, at = v;
      worst_abs = std::max(worst_abs, std::fabs(y[i] - r));
    }
    std::printf("oneDNN %s over [-10, 10]: worst %lld ulps (at x = %.4f), worst absolute %.3g\n",
                alg == dnnl::algorithm::eltwise_gelu_erf ? "gelu_erf " : "gelu_tanh",
                static_cast<long long>(worst), at, worst_abs);
  }
  std::mt19937 rng(0);
  std::normal_distribution<float> normal;
  const int64_t shapes[][3] = {{2048, 128, 384}, {2048, 128, 512}, {2048, 512, 128},
                               {256, 784, 512},  {256, 512, 512},  {256, 512, 10}};
  for (const auto& sh : shapes) {
    const int64_t M = sh[0], K = sh[1], N = sh[2];
    std::vector<float> a(M * K), w(N * K), c(M * N), c2(M * N), bias(N);
    for (float& v : a) v = normal(rng);
    for (float& v : w) v = normal(rng);
    for (float& v : bias) v = normal(rng);
    auto sgemm = [&] {  // eager's addmm: self copied into C, then C = A W^T + 1 * C
      for (int64_t i = 0; i < M; ++i) std::copy(bias.begin(), bias.end(), c.begin() + i * N);
      dnnl_sgemm('N', 'T', M, N, K, 1.0f, a.data(), K, w.data(), K, 1.0f, c.data(), N);
    };
    const memory::desc a_md({M, K}, memory::data_type::f32, memory::dims{K, 1}),
        w_md({K, N}, memory::data_type::f32, memory::dims{1, K}),
        c_md({M, N}, memory::data_type::f32, memory::dims{N, 1}),
        b_md({1, N}, memory::data_type::f32, memory::dims{N, 1});
    dnnl::matmul prim(
        dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, w_md, b_md, c_md), eng));
    memory am(a_md, eng, a.data()), wm(w_md, eng, w.data()), cm(c_md, eng, c2.data()),
        bm(b_md, eng, bias.data());
    auto primitive = [&] {
      prim.execute(
          s, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_BIAS, bm}, {DNNL_ARG_DST, cm}});
      s.wait();
    };
    double t_s = 1e300, t_p = 1e300;
    for (int round = 0; round < 3; ++round) {  // interleaved
      t_s = std::min(t_s, best_ms(sgemm));
      t_p = std::min(t_p, best_ms(primitive));
    }
    sgemm();
    int64_t differ = 0;
    for (int64_t i = 0; i < M * N; ++i) differ += c[i] != c2[i];
    std::printf(
        "M %4lld K %4lld N %4lld: sgemm + bias copy %.3f ms, primitive with bias %.3f ms "
        "(%.2fx); %lld of %lld results differ\n",
        static_cast<long long>(M), static_cast<long long>(K), static_cast<long long>(N), t_s, t_p,
        t_p / t_s, static_cast<long long>(differ), static_cast<long long>(M * N));
  }
  // (3) The GPT step's bare products with its graphs' operand layouts (ta: A stored as A^T, tb: B
  // stored as B^T): dnnl_sgemm (eager's mm) against a matmul primitive.
  struct Product {
    const char* name;
    int64_t M, K, N;
    bool ta, tb;
  };
  const Product products[] = {{"QKV", 2048, 128, 384, false, true},
                              {"attention proj", 2048, 128, 128, false, true},
                              {"fc", 2048, 128, 512, false, true},
                              {"MLP proj", 2048, 512, 128, false, true},
                              {"QKV dX", 2048, 384, 128, false, false},
                              {"fc dX", 2048, 512, 128, false, false},
                              {"MLP proj dX", 2048, 128, 512, false, false},
                              {"QKV dW", 384, 2048, 128, true, false},
                              {"fc dW", 512, 2048, 128, true, false},
                              {"MLP proj dW", 128, 2048, 512, true, false}};
  for (const Product& p : products) {
    std::vector<float> a(p.M * p.K, 0.5f), b(p.K * p.N, 0.25f), c(p.M * p.N);
    const memory::desc a_md({p.M, p.K}, memory::data_type::f32,
                            p.ta ? memory::dims{1, p.M} : memory::dims{p.K, 1}),
        b_md({p.K, p.N}, memory::data_type::f32,
             p.tb ? memory::dims{1, p.K} : memory::dims{p.N, 1}),
        c_md({p.M, p.N}, memory::data_type::f32, memory::dims{p.N, 1});
    dnnl::matmul prim(dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, b_md, c_md), eng));
    memory am(a_md, eng, a.data()), bm(b_md, eng, b.data()), cm(c_md, eng, c.data());
    const double ts = best_ms([&] {
      dnnl_sgemm(p.ta ? 'T' : 'N', p.tb ? 'T' : 'N', p.M, p.N, p.K, 1.0f, a.data(),
                 p.ta ? p.M : p.K, b.data(), p.tb ? p.K : p.N, 0.0f, c.data(), p.N);
    });
    const double tp = best_ms([&] {
      prim.execute(s, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}});
      s.wait();
    });
    const double mflop = 2e-6 * static_cast<double>(p.M * p.K * p.N);
    std::printf(
        "%-14s M %4lld K %4lld N %4lld: sgemm %.3f ms (%.0f GFLOP/s), primitive %.3f ms (%.0f)\n",
        p.name, static_cast<long long>(p.M), static_cast<long long>(p.K),
        static_cast<long long>(p.N), ts, mflop / ts, tp, mflop / tp);
  }
  return 0;
}
