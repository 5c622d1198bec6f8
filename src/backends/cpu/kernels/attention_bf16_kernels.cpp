// Loops of scaled_dot_product_attention for BFloat16 inputs on AVX-512 BF16 (Note [BFloat16
// attention] in attention_kernels.h). Only the AVX-512 build has them; the tile products are
// vdpbf16ps micro-kernels (functions with the avx512bf16 target, called only when the CPU has it).
#include "backends/cpu/kernels/attention_kernels.h"

#if defined(BRASA_CPU_CAPABILITY_AVX512)

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "backends/cpu/fast_exp.h"
#include "backends/cpu/kernels/attention_dropout.h"
#include "brasa/core/half.h"
#include "brasa/core/parallel.h"

#define BRASA_BF16_TARGET __attribute__((target("avx512bf16")))

namespace brasa::cpu {
namespace {

using ops::AttentionGeometry;
using Bits = uint16_t;
constexpr int64_t kBQ = ops::kQueryTile;
constexpr int64_t kBK = ops::kKeyTile;
constexpr float kNegInf = -std::numeric_limits<float>::infinity();

int64_t even(int64_t n) { return (n + 1) / 2 * 2; }
int64_t pad32(int64_t n) { return (n + 31) / 32 * 32; }
float to_float(Bits b) {
  const uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
Bits to_bits(float f) { return BFloat16(f).x; }

// c[R rows x 32] (+)= a[R x 2kp] @ b: a BFloat16 row-major (lda elements), b in pair layout, word
// b[p * ldb + j] = (b[2p][j] low half, b[2p + 1][j] high half).
template <int R>
BRASA_BF16_TARGET inline void dot_block(float* c, int64_t ldc, const Bits* a, int64_t lda,
                                        const uint32_t* b, int64_t ldb, int64_t kp, bool acc) {
  __m512 c0[R], c1[R];
  for (int r = 0; r < R; ++r) {
    c0[r] = acc ? _mm512_loadu_ps(c + r * ldc) : _mm512_setzero_ps();
    c1[r] = acc ? _mm512_loadu_ps(c + r * ldc + 16) : _mm512_setzero_ps();
  }
  for (int64_t p = 0; p < kp; ++p) {
    const __m512bh b0 = (__m512bh)_mm512_loadu_si512(b + p * ldb);
    const __m512bh b1 = (__m512bh)_mm512_loadu_si512(b + p * ldb + 16);
    for (int r = 0; r < R; ++r) {
      int32_t pair;
      std::memcpy(&pair, a + r * lda + 2 * p, 4);
      const __m512bh x = (__m512bh)_mm512_set1_epi32(pair);
      c0[r] = _mm512_dpbf16_ps(c0[r], x, b0);
      c1[r] = _mm512_dpbf16_ps(c1[r], x, b1);
    }
  }
  for (int r = 0; r < R; ++r) {
    _mm512_storeu_ps(c + r * ldc, c0[r]);
    _mm512_storeu_ps(c + r * ldc + 16, c1[r]);
  }
}

// c[m x n] (+)= a[m x 2kp] @ b (layouts of dot_block); n a multiple of 32.
BRASA_BF16_TARGET void dot_tile(float* c, int64_t ldc, const Bits* a, int64_t lda,
                                const uint32_t* b, int64_t ldb, int64_t m, int64_t n, int64_t kp,
                                bool acc) {
  for (int64_t j = 0; j < n; j += 32) {
    int64_t i = 0;
    for (; i + 8 <= m; i += 8)
      dot_block<8>(c + i * ldc + j, ldc, a + i * lda, lda, b + j, ldb, kp, acc);
    for (; i < m; ++i) dot_block<1>(c + i * ldc + j, ldc, a + i * lda, lda, b + j, ldb, kp, acc);
  }
}

// dst[i] = src[i] rounded to BFloat16 (to nearest even), i < n.
BRASA_BF16_TARGET __attribute__((noinline)) void round_row(Bits* dst, const float* src, int64_t n) {
  const int64_t vectors = n / 16;
  for (int64_t v = 0; v < vectors; ++v)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 16 * v),
                        (__m256i)_mm512_cvtneps_pbh(_mm512_loadu_ps(src + 16 * v)));
  for (int64_t i = 16 * vectors; i < n; ++i) dst[i] = to_bits(src[i]);
}

// Max and sum of a score row of kBK entries, in vector lanes (GCC vector types: GCC 12 warns
// about the undefined lanes inside the _mm512_reduce_* intrinsics).
typedef float Lanes __attribute__((vector_size(64)));
Lanes lanes_at(const float* x) {
  Lanes v;
  std::memcpy(&v, x, sizeof(v));
  return v;
}
float row_max(const float* x) {
  Lanes acc = lanes_at(x);
  for (int64_t j = 16; j < kBK; j += 16) {
    const Lanes y = lanes_at(x + j);
    acc = acc > y ? acc : y;
  }
  float r = acc[0];
  for (int l = 1; l < 16; ++l) r = std::max(r, float(acc[l]));
  return r;
}
float row_sum(const float* x) {
  Lanes acc = lanes_at(x);
  for (int64_t j = 16; j < kBK; j += 16) acc += lanes_at(x + j);
  float r = 0;
  for (int l = 0; l < 16; ++l) r += acc[l];
  return r;
}

// dst [rows x ldd] = src rows x cols (row stride ld), columns cols..ldd zero.
void copy_padded(Bits* dst, int64_t ldd, const Bits* src, int64_t ld, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    std::memcpy(dst + r * ldd, src + r * ld, size_t(cols) * 2);
    std::fill(dst + r * ldd + cols, dst + (r + 1) * ldd, Bits(0));
  }
}

// Pair layout of X [rows x cols] (row stride ld) as the right operand of X: word [p][c] =
// (X[2p][c], X[2p + 1][c]) for p < pairs, c < width; zero outside X.
void pair_rows(uint32_t* dst, int64_t ldd, const Bits* src, int64_t ld, int64_t rows, int64_t cols,
               int64_t pairs, int64_t width) {
  for (int64_t p = 0; p < pairs; ++p) {
    uint32_t* d = dst + p * ldd;
    const int64_t r0 = 2 * p, r1 = 2 * p + 1;
    if (r0 >= rows) {
      std::fill(d, d + width, 0u);
      continue;
    }
    const Bits* s0 = src + r0 * ld;
    const Bits* s1 = src + r1 * ld;
    if (r1 < rows)
      for (int64_t c = 0; c < cols; ++c) d[c] = uint32_t(s0[c]) | uint32_t(s1[c]) << 16;
    else
      for (int64_t c = 0; c < cols; ++c) d[c] = s0[c];
    std::fill(d + cols, d + width, 0u);
  }
}

// Pair layout of X^T for X [rows x cols] (row stride ld): word [p][j] = (X[j][2p], X[j][2p + 1])
// for p < (cols + 1) / 2, j < width; zero outside X.
void pair_transposed(uint32_t* dst, int64_t ldd, const Bits* src, int64_t ld, int64_t rows,
                     int64_t cols, int64_t width) {
  const int64_t pairs = (cols + 1) / 2;
  for (int64_t p = 0; p < pairs; ++p) std::fill(dst + p * ldd + rows, dst + p * ldd + width, 0u);
  for (int64_t j = 0; j < rows; ++j) {
    const Bits* s = src + j * ld;
    for (int64_t p = 0; p < cols / 2; ++p) {
      uint32_t w;
      std::memcpy(&w, s + 2 * p, 4);
      dst[p * ldd + j] = w;
    }
    if (cols % 2) dst[(pairs - 1) * ldd + j] = s[cols - 1];
  }
}

// dst [cols x ldd] = transpose of src rows x cols; columns rows..ldd of dst zero.
void transpose_padded(Bits* dst, int64_t ldd, const Bits* src, int64_t ld, int64_t rows,
                      int64_t cols) {
  for (int64_t c = 0; c < cols; ++c) std::fill(dst + c * ldd + rows, dst + (c + 1) * ldd, Bits(0));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) dst[c * ldd + r] = src[r * ld + c];
}

// Scores of a (query tile, key tile) pair in float: s = (q . k) * scale + mask, -inf where
// causally masked and in the padding columns jk..kBK.
struct Scores {
  const AttentionGeometry& g;
  std::vector<uint32_t> kb;  // pair layout of the key tile's transpose [E / 2 x kBK]
  explicit Scores(const AttentionGeometry& geo) : g(geo), kb(size_t((geo.E + 1) / 2 * kBK)) {}
  void load_keys(const Bits* k, int64_t n, int64_t j0, int64_t jk) {
    pair_transposed(kb.data(), kBK, k + g.k_off[n] + j0 * g.k_row, g.k_row, jk, g.E, kBK);
  }
  // qa: the query tile's rows [iq x even(E)].
  void compute(float* s, const Bits* qa, const float* mask, int64_t n, int64_t i0, int64_t iq,
               int64_t j0, int64_t jk) const {
    dot_tile(s, kBK, qa, even(g.E), kb.data(), kBK, iq, kBK, (g.E + 1) / 2, false);
    const float scale = float(g.scale);
    for (int64_t r = 0; r < iq; ++r) {
      float* sr = s + r * kBK;
      for (int64_t j = 0; j < jk; ++j) sr[j] *= scale;
      if (g.mask_off) {
        const float* m = mask + g.mask_off[n] + (i0 + r) * g.mask_row + j0 * g.mask_col;
        for (int64_t j = 0; j < jk; ++j) sr[j] += m[j * g.mask_col];
      }
      const int64_t end = g.causal ? std::clamp<int64_t>(i0 + r + 1 - j0, 0, jk) : jk;
      std::fill(sr + end, sr + kBK, kNegInf);
    }
  }
};

void forward(const AttentionGeometry& g, const Bits* q, const Bits* k, const Bits* v,
             const float* mask, Bits* out, float* lse) {
  const int64_t nq = (g.L + kBQ - 1) / kBQ, Ep = even(g.E), ldv = pad32(g.Ev);
  parallel_for(0, g.batch * nq, 1, [&](int64_t w0, int64_t w1) {
    Scores scores(g);
    std::vector<Bits> qa(size_t(kBQ * Ep)), pa(size_t(kBQ * kBK));
    std::vector<uint32_t> vb(size_t(kBK / 2 * ldv));
    std::vector<float> s(size_t(kBQ * kBK)), acc(size_t(kBQ * ldv));
    float m[kBQ], l[kBQ];
    for (int64_t w = w0; w < w1; ++w) {
      const int64_t n = w / nq, i0 = (w % nq) * kBQ, iq = std::min(kBQ, g.L - i0);
      copy_padded(qa.data(), Ep, q + g.q_off[n] + i0 * g.q_row, g.q_row, iq, g.E);
      std::fill(acc.begin(), acc.end(), 0.f);
      std::fill(m, m + kBQ, kNegInf);
      std::fill(l, l + kBQ, 0.f);
      const int64_t kend = g.causal ? std::min(g.S, i0 + iq) : g.S;
      for (int64_t j0 = 0; j0 < kend; j0 += kBK) {
        const int64_t jk = std::min(kBK, kend - j0);
        scores.load_keys(k, n, j0, jk);
        scores.compute(s.data(), qa.data(), mask, n, i0, iq, j0, jk);
        for (int64_t r = 0; r < iq; ++r) {
          float* sr = s.data() + r * kBK;
          const float mx = std::max(m[r], row_max(sr));
          if (mx == kNegInf) {
            std::fill(sr, sr + kBK, 0.f);
            continue;
          }
          const float corr = exp_of(m[r] - mx);
          for (int64_t j = 0; j < kBK; ++j) sr[j] = exp_of(sr[j] - mx);
          l[r] = l[r] * corr + row_sum(sr);
          m[r] = mx;
          if (corr != 1.f)
            for (int64_t c = 0; c < g.Ev; ++c) acc[size_t(r * ldv + c)] *= corr;
        }
        if (g.dropout_p > 0) apply_dropout(s.data(), kBK, g, n, i0, iq, j0, jk);
        for (int64_t r = 0; r < iq; ++r) round_row(pa.data() + r * kBK, s.data() + r * kBK, kBK);
        const int64_t pairs = (jk + 1) / 2;
        pair_rows(vb.data(), ldv, v + g.v_off[n] + j0 * g.v_row, g.v_row, jk, g.Ev, pairs, ldv);
        dot_tile(acc.data(), ldv, pa.data(), kBK, vb.data(), ldv, iq, ldv, pairs, true);
      }
      for (int64_t r = 0; r < iq; ++r) {
        Bits* o = out + (n * g.L + i0 + r) * g.Ev;
        const float inv = 1.f / l[r];  // l == 0 (every key masked): NaN, as softmax gives
        for (int64_t c = 0; c < g.Ev; ++c)
          o[c] = to_bits(l[r] == 0.f ? NAN : acc[size_t(r * ldv + c)] * inv);
        lse[n * g.L + i0 + r] = m[r] + std::log(l[r]);
      }
    }
  });
}

// One batch element's operands of the backward in BFloat16 layouts.
struct ItemOperands {
  int64_t Ep, Evp, Lp;
  std::vector<Bits> qa, goa, qt, got;  // q, grad_out rows; their transposes (pairs along rows)
  std::vector<float> d;                // D_i = grad_out_i . out_i
  ItemOperands(const AttentionGeometry& g)
      : Ep(even(g.E)),
        Evp(even(g.Ev)),
        Lp(even(g.L)),
        qa(size_t(g.L * Ep)),
        goa(size_t(g.L * Evp)),
        qt(size_t(g.E * Lp)),
        got(size_t(g.Ev * Lp)),
        d(size_t(g.L)) {}
  void load(const AttentionGeometry& g, const Bits* q, const Bits* out, const Bits* gout,
            int64_t n) {
    const Bits* qn = q + g.q_off[n];
    const Bits* gn = gout + n * g.L * g.Ev;
    const Bits* on = out + n * g.L * g.Ev;
    copy_padded(qa.data(), Ep, qn, g.q_row, g.L, g.E);
    copy_padded(goa.data(), Evp, gn, g.Ev, g.L, g.Ev);
    transpose_padded(qt.data(), Lp, qn, g.q_row, g.L, g.E);
    transpose_padded(got.data(), Lp, gn, g.Ev, g.L, g.Ev);
    for (int64_t i = 0; i < g.L; ++i) {
      float sum = 0;
      for (int64_t c = 0; c < g.Ev; ++c)
        sum += to_float(on[i * g.Ev + c]) * to_float(gn[i * g.Ev + c]);
      d[size_t(i)] = sum;
    }
  }
};

void backward(const AttentionGeometry& g, const Bits* q, const Bits* k, const Bits* v,
              const float* mask, const Bits* out, const Bits* gout, const float* lse, Bits* gq,
              Bits* gk, Bits* gv) {
  const int64_t lde = pad32(g.E), Evp = even(g.Ev);
  const float scale = float(g.scale);
  parallel_for(0, g.batch, 1, [&](int64_t n0, int64_t n1) {
    Scores scores(g);
    ItemOperands item(g);
    std::vector<uint32_t> vb(size_t(Evp / 2 * kBK)), kc(size_t(kBK / 2 * lde)),
        tile_pairs(size_t(kBQ / 2 * kBK));
    std::vector<Bits> rows(size_t(kBQ * kBK));
    std::vector<float> p(size_t(kBQ * kBK)), pd(p.size()), ds(p.size()), dkt(size_t(g.E * kBK)),
        dvt(size_t(g.Ev * kBK)), dq(size_t(g.L * lde));
    std::vector<char> dead(static_cast<size_t>(kBQ));
    // Pair layout along the query rows of a float tile [iq x kBK], after rounding it.
    auto pair_tile = [&](const float* t, int64_t iq) {
      for (int64_t r = 0; r < iq; ++r) round_row(rows.data() + r * kBK, t + r * kBK, kBK);
      pair_rows(tile_pairs.data(), kBK, rows.data(), kBK, iq, kBK, (iq + 1) / 2, kBK);
    };
    for (int64_t n = n0; n < n1; ++n) {
      item.load(g, q, out, gout, n);
      std::fill(dq.begin(), dq.end(), 0.f);
      for (int64_t j0 = 0; j0 < g.S; j0 += kBK) {
        const int64_t jk = std::min(kBK, g.S - j0);
        scores.load_keys(k, n, j0, jk);
        pair_transposed(vb.data(), kBK, v + g.v_off[n] + j0 * g.v_row, g.v_row, jk, g.Ev, kBK);
        pair_rows(kc.data(), lde, k + g.k_off[n] + j0 * g.k_row, g.k_row, jk, g.E, kBK / 2, lde);
        std::fill(dkt.begin(), dkt.end(), 0.f);
        std::fill(dvt.begin(), dvt.end(), 0.f);
        for (int64_t i0 = g.causal ? j0 / kBQ * kBQ : 0; i0 < g.L; i0 += kBQ) {
          const int64_t iq = std::min(kBQ, g.L - i0), pairs = (iq + 1) / 2;
          scores.compute(p.data(), item.qa.data() + i0 * item.Ep, mask, n, i0, iq, j0, jk);
          // A row whose keys are all masked has NaN probabilities (as softmax gives, so grad_v
          // is NaN) but, like a masked_fill, passes no gradient to its scores.
          for (int64_t r = 0; r < iq; ++r) {
            const float ls = lse[n * g.L + i0 + r];
            dead[size_t(r)] = ls == kNegInf;
            float* pr = p.data() + r * kBK;
            for (int64_t j = 0; j < jk; ++j)
              pr[j] = pr[j] == kNegInf ? (ls == kNegInf ? NAN : 0.f) : exp_of(pr[j] - ls);
            std::fill(pr + jk, pr + kBK, 0.f);
          }
          dot_tile(ds.data(), kBK, item.goa.data() + i0 * Evp, Evp, vb.data(), kBK, iq, kBK,
                   Evp / 2, false);  // dp = grad_out @ v^T
          std::copy(p.begin(), p.begin() + iq * kBK, pd.begin());
          if (g.dropout_p > 0) {
            apply_dropout(pd.data(), kBK, g, n, i0, iq, j0, jk);
            apply_dropout(ds.data(), kBK, g, n, i0, iq, j0, jk);
          }
          for (int64_t r = 0; r < iq; ++r) {
            const float dr = item.d[size_t(i0 + r)];
            for (int64_t j = 0; j < kBK; ++j) {
              const size_t x = size_t(r * kBK + j);
              ds[x] = dead[size_t(r)] || j >= jk ? 0.f : p[x] * (ds[x] - dr);
            }
          }
          pair_tile(pd.data(), iq);  // grad_v^T += grad_out^T @ p
          dot_tile(dvt.data(), kBK, item.got.data() + i0, item.Lp, tile_pairs.data(), kBK, g.Ev,
                   kBK, pairs, true);
          pair_tile(ds.data(), iq);  // grad_k^T += q^T @ ds (times scale below)
          dot_tile(dkt.data(), kBK, item.qt.data() + i0, item.Lp, tile_pairs.data(), kBK, g.E, kBK,
                   pairs, true);
          // grad_q += ds @ k (times scale below); rows holds ds rounded from pair_tile.
          dot_tile(dq.data() + i0 * lde, lde, rows.data(), kBK, kc.data(), lde, iq, lde,
                   (jk + 1) / 2, true);
        }
        for (int64_t j = 0; j < jk; ++j) {
          Bits* dk = gk + (n * g.S + j0 + j) * g.E;
          Bits* dv = gv + (n * g.S + j0 + j) * g.Ev;
          for (int64_t c = 0; c < g.E; ++c) dk[c] = to_bits(dkt[size_t(c * kBK + j)] * scale);
          for (int64_t c = 0; c < g.Ev; ++c) dv[c] = to_bits(dvt[size_t(c * kBK + j)]);
        }
      }
      for (int64_t i = 0; i < g.L; ++i)
        for (int64_t c = 0; c < g.E; ++c)
          gq[(n * g.L + i) * g.E + c] = to_bits(dq[size_t(i * lde + c)] * scale);
    }
  });
}

void attention_bf16_forward(ScalarType, const AttentionGeometry& g, const void* q, const void* k,
                            const void* v, const void* mask, void* out, void* lse) {
  forward(g, static_cast<const Bits*>(q), static_cast<const Bits*>(k), static_cast<const Bits*>(v),
          static_cast<const float*>(mask), static_cast<Bits*>(out), static_cast<float*>(lse));
}

void attention_bf16_backward(ScalarType, const AttentionGeometry& g, const void* q, const void* k,
                             const void* v, const void* mask, const void* out, const void* gout,
                             const void* lse, void* gq, void* gk, void* gv) {
  backward(g, static_cast<const Bits*>(q), static_cast<const Bits*>(k), static_cast<const Bits*>(v),
           static_cast<const float*>(mask), static_cast<const Bits*>(out),
           static_cast<const Bits*>(gout), static_cast<const float*>(lse), static_cast<Bits*>(gq),
           static_cast<Bits*>(gk), static_cast<Bits*>(gv));
}

}  // namespace

BRASA_REGISTER_STUB(ops::attention_bf16_forward_stub, attention_bf16_forward);
BRASA_REGISTER_STUB(ops::attention_bf16_backward_stub, attention_bf16_backward);

}  // namespace brasa::cpu

#endif  // BRASA_CPU_CAPABILITY_AVX512
