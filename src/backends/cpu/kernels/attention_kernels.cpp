// Loops of scaled_dot_product_attention (compiled once per CPU capability): Note [Blockwise
// attention] in attention_kernels.h. Tile products use a 4-row x 2-vector register-blocked
// micro-kernel on GCC vector types, so each capability gets its widest registers.
#include "backends/cpu/kernels/attention_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "backends/cpu/fast_exp.h"
#include "backends/cpu/kernels/attention_dropout.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

using ops::AttentionGeometry;
constexpr int64_t kBQ = ops::kQueryTile;
constexpr int64_t kBK = ops::kKeyTile;

#if defined(__AVX512F__)
constexpr int kVecBytes = 64;
#elif defined(__AVX__)
constexpr int kVecBytes = 32;
#else
constexpr int kVecBytes = 16;
#endif

template <typename T>
struct VecOf {
  typedef T type __attribute__((vector_size(kVecBytes)));
  static constexpr int64_t lanes = kVecBytes / int64_t(sizeof(T));
};

template <typename T, typename V>
inline V load(const T* p) {
  V v;
  std::memcpy(&v, p, sizeof(V));
  return v;
}
template <typename T, typename V>
inline void store(T* p, V v) {
  std::memcpy(p, &v, sizeof(V));
}

// Columns are processed two vectors at a time: every B and C buffer is padded to this width.
template <typename T>
constexpr int64_t col_chunk() {
  return 2 * VecOf<T>::lanes;
}
template <typename T>
int64_t padded(int64_t n) {
  return (n + col_chunk<T>() - 1) / col_chunk<T>() * col_chunk<T>();
}

// c[m x n] (+)= a[m x k] @ b[k x n]; b and c rows hold padded(n) readable columns.
template <typename T>
void gemm_tile(T* __restrict c, int64_t ldc, const T* __restrict a, int64_t lda,
               const T* __restrict b, int64_t ldb, int64_t m, int64_t n, int64_t k, bool acc) {
  using V = typename VecOf<T>::type;
  constexpr int64_t W = VecOf<T>::lanes;
  for (int64_t j = 0; j < n; j += 2 * W) {
    int64_t i = 0;
    for (; i + 4 <= m; i += 4) {
      V c0[4], c1[4];
      for (int r = 0; r < 4; ++r) {
        c0[r] = acc ? load<T, V>(c + (i + r) * ldc + j) : V{};
        c1[r] = acc ? load<T, V>(c + (i + r) * ldc + j + W) : V{};
      }
      const T* ar = a + i * lda;
      for (int64_t p = 0; p < k; ++p) {
        const V b0 = load<T, V>(b + p * ldb + j), b1 = load<T, V>(b + p * ldb + j + W);
        for (int r = 0; r < 4; ++r) {
          const T x = ar[r * lda + p];
          c0[r] += x * b0;
          c1[r] += x * b1;
        }
      }
      for (int r = 0; r < 4; ++r) {
        store<T, V>(c + (i + r) * ldc + j, c0[r]);
        store<T, V>(c + (i + r) * ldc + j + W, c1[r]);
      }
    }
    for (; i < m; ++i) {
      V c0 = acc ? load<T, V>(c + i * ldc + j) : V{};
      V c1 = acc ? load<T, V>(c + i * ldc + j + W) : V{};
      for (int64_t p = 0; p < k; ++p) {
        const T x = a[i * lda + p];
        c0 += x * load<T, V>(b + p * ldb + j);
        c1 += x * load<T, V>(b + p * ldb + j + W);
      }
      store<T, V>(c + i * ldc + j, c0);
      store<T, V>(c + i * ldc + j + W, c1);
    }
  }
}

// Max and sum of a score row of kBK entries, in vector lanes (the compiler does not reorder float
// reductions itself).
template <typename T>
T row_max(const T* x) {
  using V = typename VecOf<T>::type;
  constexpr int64_t W = VecOf<T>::lanes;
  V acc = load<T, V>(x);
  for (int64_t j = W; j < kBK; j += W) {
    const V y = load<T, V>(x + j);
    acc = acc > y ? acc : y;
  }
  T r = acc[0];
  for (int64_t l = 1; l < W; ++l) r = std::max(r, T(acc[l]));
  return r;
}
template <typename T>
T row_sum(const T* x) {
  using V = typename VecOf<T>::type;
  constexpr int64_t W = VecOf<T>::lanes;
  V acc = load<T, V>(x);
  for (int64_t j = W; j < kBK; j += W) acc += load<T, V>(x + j);
  T r = 0;
  for (int64_t l = 0; l < W; ++l) r += acc[l];
  return r;
}

// Copies rows x cols of src (row stride ld, unit column stride) into dst [rows x ldd], times s.
template <typename T>
void copy_rows(T* dst, int64_t ldd, const T* src, int64_t ld, int64_t rows, int64_t cols, T s) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) dst[r * ldd + c] = src[r * ld + c] * s;
}
// dst[cols x ldd] = transpose of src rows x cols.
template <typename T>
void transpose_rows(T* dst, int64_t ldd, const T* src, int64_t ld, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) dst[c * ldd + r] = src[r * ld + c];
}

// Scores of one tile: s[r][j] = (q_i . k_j) * scale + mask, -inf where causally masked.
template <typename T>
struct ScoreTile {
  const AttentionGeometry& g;
  std::vector<T> qs, kt;  // scaled query tile [kBQ x E], key tile transposed [E x kBK]

  explicit ScoreTile(const AttentionGeometry& geo)
      : g(geo), qs(size_t(kBQ * geo.E)), kt(size_t(geo.E * kBK)) {}

  void load_queries(const T* q, int64_t n, int64_t i0, int64_t iq) {
    copy_rows(qs.data(), g.E, q + g.q_off[n] + i0 * g.q_row, g.q_row, iq, g.E, T(g.scale));
  }
  void compute(T* s, const T* k, const T* mask, int64_t n, int64_t i0, int64_t iq, int64_t j0,
               int64_t jk) {
    transpose_rows(kt.data(), kBK, k + g.k_off[n] + j0 * g.k_row, g.k_row, jk, g.E);
    gemm_tile(s, kBK, qs.data(), g.E, kt.data(), kBK, iq, jk, g.E, false);
    if (g.mask_off) {
      const T* m = mask + g.mask_off[n] + i0 * g.mask_row + j0 * g.mask_col;
      for (int64_t r = 0; r < iq; ++r)
        for (int64_t j = 0; j < jk; ++j) s[r * kBK + j] += m[r * g.mask_row + j * g.mask_col];
    }
    if (g.causal)
      for (int64_t r = 0; r < iq; ++r)
        for (int64_t j = std::max<int64_t>(0, i0 + r + 1 - j0); j < jk; ++j)
          s[r * kBK + j] = -std::numeric_limits<T>::infinity();
  }
  // Last key (exclusive) that query rows [i0, i0 + iq) may see.
  int64_t key_end(int64_t i0, int64_t iq) const { return g.causal ? std::min(g.S, i0 + iq) : g.S; }
};

template <typename T>
void forward_impl(const AttentionGeometry& g, const T* q, const T* k, const T* v, const T* mask,
                  T* out, T* lse) {
  const int64_t nq = (g.L + kBQ - 1) / kBQ, ldv = padded<T>(g.Ev);
  parallel_for(0, g.batch * nq, 1, [&](int64_t w0, int64_t w1) {
    ScoreTile<T> tile(g);
    std::vector<T> s(size_t(kBQ * kBK)), vt(size_t(kBK * ldv)), acc(size_t(kBQ * ldv));
    T m[kBQ], l[kBQ];
    for (int64_t w = w0; w < w1; ++w) {
      const int64_t n = w / nq, i0 = (w % nq) * kBQ, iq = std::min(kBQ, g.L - i0);
      tile.load_queries(q, n, i0, iq);
      std::fill(acc.begin(), acc.end(), T(0));
      std::fill(m, m + kBQ, -std::numeric_limits<T>::infinity());
      std::fill(l, l + kBQ, T(0));
      const int64_t kend = tile.key_end(i0, iq);
      for (int64_t j0 = 0; j0 < kend; j0 += kBK) {
        const int64_t jk = std::min(kBK, kend - j0);
        tile.compute(s.data(), k, mask, n, i0, iq, j0, jk);
        for (int64_t r = 0; r < iq; ++r) {
          T* sr = s.data() + r * kBK;
          std::fill(sr + jk, sr + kBK, -std::numeric_limits<T>::infinity());
          const T mx = std::max(m[r], row_max(sr));
          if (mx == -std::numeric_limits<T>::infinity()) {
            std::fill(sr, sr + kBK, T(0));
            continue;
          }
          const T corr = exp_of(m[r] - mx);
          for (int64_t j = 0; j < kBK; ++j) sr[j] = exp_of(sr[j] - mx);
          l[r] = l[r] * corr + row_sum(sr);
          m[r] = mx;
          if (corr != T(1))
            for (int64_t c = 0; c < g.Ev; ++c) acc[size_t(r * ldv + c)] *= corr;
        }
        if (g.dropout_p > 0) apply_dropout(s.data(), kBK, g, n, i0, iq, j0, jk);
        copy_rows(vt.data(), ldv, v + g.v_off[n] + j0 * g.v_row, g.v_row, jk, g.Ev, T(1));
        gemm_tile(acc.data(), ldv, s.data(), kBK, vt.data(), ldv, iq, g.Ev, jk, true);
      }
      for (int64_t r = 0; r < iq; ++r) {
        T* o = out + (n * g.L + i0 + r) * g.Ev;
        const T inv = T(1) / l[r];  // l == 0 (every key masked): NaN, as softmax gives
        for (int64_t c = 0; c < g.Ev; ++c)
          o[c] = l[r] == T(0) ? T(NAN) : acc[size_t(r * ldv + c)] * inv;
        lse[n * g.L + i0 + r] = m[r] + std::log(l[r]);
      }
    }
  });
}

// Backward state of one (query tile, key tile) pair: probabilities p (dropout applied in pd) and
// the score gradient ds = p * (dp - D).
template <typename T>
struct BackwardTile {
  const AttentionGeometry& g;
  ScoreTile<T> scores;
  std::vector<T> p, pd, dp, vt, d;
  std::vector<char> dead;
  BackwardTile(const AttentionGeometry& geo)
      : g(geo),
        scores(geo),
        p(size_t(kBQ * kBK)),
        pd(size_t(kBQ * kBK)),
        dp(size_t(kBQ * kBK)),
        vt(size_t(geo.Ev * kBK)),
        d(size_t(kBQ)),
        dead(size_t(kBQ)) {}

  // D_r = sum_c grad_out[r][c] * out[r][c] for the query tile.
  void load_queries(const T* q, const T* out, const T* gout, int64_t n, int64_t i0, int64_t iq) {
    scores.load_queries(q, n, i0, iq);
    for (int64_t r = 0; r < iq; ++r) {
      const T* o = out + (n * g.L + i0 + r) * g.Ev;
      const T* go = gout + (n * g.L + i0 + r) * g.Ev;
      T sum = 0;
      for (int64_t c = 0; c < g.Ev; ++c) sum += o[c] * go[c];
      d[size_t(r)] = sum;
    }
  }
  void compute(const T* k, const T* v, const T* mask, const T* gout, const T* lse, int64_t n,
               int64_t i0, int64_t iq, int64_t j0, int64_t jk) {
    scores.compute(p.data(), k, mask, n, i0, iq, j0, jk);
    // A row whose keys are all masked has NaN probabilities (as softmax gives, so grad_v is NaN)
    // but, like a masked_fill, passes no gradient to its scores.
    constexpr T kNegInf = -std::numeric_limits<T>::infinity();
    for (int64_t r = 0; r < iq; ++r) {
      const T ls = lse[n * g.L + i0 + r];
      dead[size_t(r)] = ls == kNegInf;
      T* pr = p.data() + r * kBK;
      for (int64_t j = 0; j < jk; ++j)
        pr[j] = pr[j] == kNegInf ? (ls == kNegInf ? T(NAN) : T(0)) : exp_of(pr[j] - ls);
    }
    pd = p;
    transpose_rows(vt.data(), kBK, v + g.v_off[n] + j0 * g.v_row, g.v_row, jk, g.Ev);
    gemm_tile(dp.data(), kBK, gout + (n * g.L + i0) * g.Ev, g.Ev, vt.data(), kBK, iq, jk, g.Ev,
              false);
    if (g.dropout_p > 0) {
      apply_dropout(pd.data(), kBK, g, n, i0, iq, j0, jk);
      apply_dropout(dp.data(), kBK, g, n, i0, iq, j0, jk);
    }
    for (int64_t r = 0; r < iq; ++r)
      for (int64_t j = 0; j < jk; ++j) {
        const size_t x = size_t(r * kBK + j);
        dp[x] = dead[size_t(r)] ? T(0) : p[x] * (dp[x] - d[size_t(r)]);  // now ds
      }
  }
};

// The backward in one pass per batch element (Note [Blockwise attention]): each (query tile, key
// tile) pair's probabilities and score gradient are computed once and feed grad_v, grad_k and
// grad_q, whose rows for the whole sequence stay in a per-item buffer. The products and their
// order are the two-pass backward's, so the results are bit for bit the same.
template <typename T>
void backward_fused(const AttentionGeometry& g, const T* q, const T* k, const T* v, const T* mask,
                    const T* out, const T* gout, const T* lse, T* gq, T* gk, T* gv) {
  const int64_t lde = padded<T>(g.E), ldv = padded<T>(g.Ev);
  const T scale = T(g.scale);
  parallel_for(0, g.batch, 1, [&](int64_t n0, int64_t n1) {
    BackwardTile<T> t(g);
    std::vector<T> tr(size_t(kBK * kBQ)), qt(size_t(kBQ * lde)), got(size_t(kBQ * ldv)),
        kc(size_t(kBK * lde)), dk(size_t(kBK * lde)), dv(size_t(kBK * ldv)), dq(size_t(g.L * lde));
    for (int64_t n = n0; n < n1; ++n) {
      std::fill(dq.begin(), dq.end(), T(0));
      for (int64_t j0 = 0; j0 < g.S; j0 += kBK) {
        const int64_t jk = std::min(kBK, g.S - j0);
        std::fill(dk.begin(), dk.end(), T(0));
        std::fill(dv.begin(), dv.end(), T(0));
        copy_rows(kc.data(), lde, k + g.k_off[n] + j0 * g.k_row, g.k_row, jk, g.E, scale);
        for (int64_t i0 = g.causal ? j0 / kBQ * kBQ : 0; i0 < g.L; i0 += kBQ) {
          const int64_t iq = std::min(kBQ, g.L - i0);
          t.load_queries(q, out, gout, n, i0, iq);
          t.compute(k, v, mask, gout, lse, n, i0, iq, j0, jk);
          transpose_rows(tr.data(), kBQ, t.pd.data(), kBK, iq, jk);
          copy_rows(got.data(), ldv, gout + (n * g.L + i0) * g.Ev, g.Ev, iq, g.Ev, T(1));
          gemm_tile(dv.data(), ldv, tr.data(), kBQ, got.data(), ldv, jk, g.Ev, iq, true);
          transpose_rows(tr.data(), kBQ, t.dp.data(), kBK, iq, jk);
          copy_rows(qt.data(), lde, q + g.q_off[n] + i0 * g.q_row, g.q_row, iq, g.E, scale);
          gemm_tile(dk.data(), lde, tr.data(), kBQ, qt.data(), lde, jk, g.E, iq, true);
          gemm_tile(dq.data() + i0 * lde, lde, t.dp.data(), kBK, kc.data(), lde, iq, g.E, jk, true);
        }
        copy_rows(gk + (n * g.S + j0) * g.E, g.E, dk.data(), lde, jk, g.E, T(1));
        copy_rows(gv + (n * g.S + j0) * g.Ev, g.Ev, dv.data(), ldv, jk, g.Ev, T(1));
      }
      copy_rows(gq + n * g.L * g.E, g.E, dq.data(), lde, g.L, g.E, T(1));
    }
  });
}

template <typename T>
void backward_impl(const AttentionGeometry& g, const T* q, const T* k, const T* v, const T* mask,
                   const T* out, const T* gout, const T* lse, T* gq, T* gk, T* gv) {
  // With a batch element per thread or more, one pass; otherwise two, which split each batch
  // element's tiles between threads.
  if (g.batch >= get_num_threads())
    return backward_fused(g, q, k, v, mask, out, gout, lse, gq, gk, gv);
  const int64_t nq = (g.L + kBQ - 1) / kBQ, nk = (g.S + kBK - 1) / kBK;
  const int64_t lde = padded<T>(g.E), ldv = padded<T>(g.Ev);
  const T scale = T(g.scale);
  // grad_k, grad_v: one (batch, key tile) per work item.
  parallel_for(0, g.batch * nk, 1, [&](int64_t w0, int64_t w1) {
    BackwardTile<T> t(g);
    std::vector<T> tr(size_t(kBK * kBQ)), qt(size_t(kBQ * lde)), got(size_t(kBQ * ldv)),
        dk(size_t(kBK * lde)), dv(size_t(kBK * ldv));
    for (int64_t w = w0; w < w1; ++w) {
      const int64_t n = w / nk, j0 = (w % nk) * kBK, jk = std::min(kBK, g.S - j0);
      std::fill(dk.begin(), dk.end(), T(0));
      std::fill(dv.begin(), dv.end(), T(0));
      for (int64_t i0 = g.causal ? j0 / kBQ * kBQ : 0; i0 < g.L; i0 += kBQ) {
        const int64_t iq = std::min(kBQ, g.L - i0);
        t.load_queries(q, out, gout, n, i0, iq);
        t.compute(k, v, mask, gout, lse, n, i0, iq, j0, jk);
        transpose_rows(tr.data(), kBQ, t.pd.data(), kBK, iq, jk);
        copy_rows(got.data(), ldv, gout + (n * g.L + i0) * g.Ev, g.Ev, iq, g.Ev, T(1));
        gemm_tile(dv.data(), ldv, tr.data(), kBQ, got.data(), ldv, jk, g.Ev, iq, true);
        transpose_rows(tr.data(), kBQ, t.dp.data(), kBK, iq, jk);
        copy_rows(qt.data(), lde, q + g.q_off[n] + i0 * g.q_row, g.q_row, iq, g.E, scale);
        gemm_tile(dk.data(), lde, tr.data(), kBQ, qt.data(), lde, jk, g.E, iq, true);
      }
      copy_rows(gk + (n * g.S + j0) * g.E, g.E, dk.data(), lde, jk, g.E, T(1));
      copy_rows(gv + (n * g.S + j0) * g.Ev, g.Ev, dv.data(), ldv, jk, g.Ev, T(1));
    }
  });
  // grad_q: one (batch, query tile) per work item.
  parallel_for(0, g.batch * nq, 1, [&](int64_t w0, int64_t w1) {
    BackwardTile<T> t(g);
    std::vector<T> kc(size_t(kBK * lde)), dq(size_t(kBQ * lde));
    for (int64_t w = w0; w < w1; ++w) {
      const int64_t n = w / nq, i0 = (w % nq) * kBQ, iq = std::min(kBQ, g.L - i0);
      std::fill(dq.begin(), dq.end(), T(0));
      t.load_queries(q, out, gout, n, i0, iq);
      const int64_t kend = t.scores.key_end(i0, iq);
      for (int64_t j0 = 0; j0 < kend; j0 += kBK) {
        const int64_t jk = std::min(kBK, kend - j0);
        t.compute(k, v, mask, gout, lse, n, i0, iq, j0, jk);
        copy_rows(kc.data(), lde, k + g.k_off[n] + j0 * g.k_row, g.k_row, jk, g.E, scale);
        gemm_tile(dq.data(), lde, t.dp.data(), kBK, kc.data(), lde, iq, g.E, jk, true);
      }
      copy_rows(gq + (n * g.L + i0) * g.E, g.E, dq.data(), lde, iq, g.E, T(1));
    }
  });
}

void attention_forward(ScalarType dt, const AttentionGeometry& g, const void* q, const void* k,
                       const void* v, const void* mask, void* out, void* lse) {
  if (dt == kDouble)
    forward_impl(g, static_cast<const double*>(q), static_cast<const double*>(k),
                 static_cast<const double*>(v), static_cast<const double*>(mask),
                 static_cast<double*>(out), static_cast<double*>(lse));
  else
    forward_impl(g, static_cast<const float*>(q), static_cast<const float*>(k),
                 static_cast<const float*>(v), static_cast<const float*>(mask),
                 static_cast<float*>(out), static_cast<float*>(lse));
}

template <typename T>
void backward_typed(const AttentionGeometry& g, const void* q, const void* k, const void* v,
                    const void* mask, const void* out, const void* gout, const void* lse, void* gq,
                    void* gk, void* gv) {
  backward_impl(g, static_cast<const T*>(q), static_cast<const T*>(k), static_cast<const T*>(v),
                static_cast<const T*>(mask), static_cast<const T*>(out),
                static_cast<const T*>(gout), static_cast<const T*>(lse), static_cast<T*>(gq),
                static_cast<T*>(gk), static_cast<T*>(gv));
}

void attention_backward(ScalarType dt, const AttentionGeometry& g, const void* q, const void* k,
                        const void* v, const void* mask, const void* out, const void* gout,
                        const void* lse, void* gq, void* gk, void* gv) {
  if (dt == kDouble)
    backward_typed<double>(g, q, k, v, mask, out, gout, lse, gq, gk, gv);
  else
    backward_typed<float>(g, q, k, v, mask, out, gout, lse, gq, gk, gv);
}

}  // namespace

BRASA_REGISTER_STUB(ops::attention_forward_stub, attention_forward);
BRASA_REGISTER_STUB(ops::attention_backward_stub, attention_backward);

}  // namespace brasa::cpu
