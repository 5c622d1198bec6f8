// Loops of scaled_dot_product_attention (compiled once per CPU capability): Note [Blockwise
// attention] in attention_kernels.h. Tile products use a 4-row x 2-vector register-blocked
// micro-kernel on GCC vector types, so each capability gets its widest registers; operands whose
// rows fill whole column chunks are read in place, and the one transposed operand per product
// (the key tile for scores, the value tile for the probability gradient) is transposed once per
// key tile in registers (Note [Tile transposes]).
#include "backends/cpu/kernels/attention_kernels.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
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

constexpr int64_t round_up(int64_t n, int64_t m) { return (n + m - 1) / m * m; }

// Columns are processed two vectors at a time: every B and C buffer is padded to this width.
template <typename T>
constexpr int64_t col_chunk() {
  return 2 * VecOf<T>::lanes;
}
template <typename T>
int64_t padded(int64_t n) {
  return round_up(n, col_chunk<T>());
}
// Rows of the micro-kernel's C block; score rows are processed to a multiple of span() columns
// (Note [Causal tiles]).
constexpr int64_t kRows = 4;
template <typename T>
constexpr int64_t span() {
  return std::max<int64_t>(VecOf<T>::lanes, kRows);
}

// Note [Causal tiles]
// On a tile that the causal diagonal crosses, a product skips what the mask zeroes: for the C
// block of rows [r0, r1], columns past r1 + col, and terms p past r1 + hi or before r0 + lo. The
// rows of a block share its bounds, so the extra entries a block reads must be finite and the
// probabilities and score gradients among them zero: each score row r is kept to width(r), the
// last row of r's block's key count rounded up to span() (a multiple of both the vector width and
// kRows), masked to -inf past the row's own keys, so its probabilities are exp(-inf) = 0 there.
// A transposed product (rows are keys, terms queries) reads, for the key block [jb, jb + kRows),
// query rows that see key jb at least, whose width then reaches jb + kRows: written too.
constexpr int64_t kUnbounded = int64_t(1) << 40;
struct Band {
  int64_t col = kUnbounded, hi = kUnbounded, lo = -kUnbounded;
};

// One block of R rows of c (+)= a @ b: c's columns [0, n_end), terms [p0, p1). a(r, p) is
// a[r * lda + p], or a[p * lda + r] when TransA.
template <typename T, bool TransA, int R>
inline void gemm_block(T* __restrict c, int64_t ldc, const T* __restrict a, int64_t lda,
                       const T* __restrict b, int64_t ldb, int64_t n_end, int64_t p0, int64_t p1,
                       bool acc) {
  using V = typename VecOf<T>::type;
  constexpr int64_t W = VecOf<T>::lanes;
  for (int64_t j = 0; j < n_end; j += 2 * W) {
    V c0[R], c1[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      c0[r] = acc ? load<T, V>(c + r * ldc + j) : V{};
      c1[r] = acc ? load<T, V>(c + r * ldc + j + W) : V{};
    }
    for (int64_t p = p0; p < p1; ++p) {
      const V b0 = load<T, V>(b + p * ldb + j), b1 = load<T, V>(b + p * ldb + j + W);
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r) {
        const T x = TransA ? a[p * lda + r] : a[r * lda + p];
        c0[r] += x * b0;
        c1[r] += x * b1;
      }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      store<T, V>(c + r * ldc + j, c0[r]);
      store<T, V>(c + r * ldc + j + W, c1[r]);
    }
  }
}

// c[m x n] (+)= a[m x k] @ b[k x n] within the band; b and c rows hold padded(n) readable
// columns.
template <typename T, bool TransA = false>
void gemm_tile(T* c, int64_t ldc, const T* a, int64_t lda, const T* b, int64_t ldb, int64_t m,
               int64_t n, int64_t k, bool acc, Band band = {}) {
  constexpr int64_t C2 = col_chunk<T>();
  auto run = [&](auto rows, int64_t i) {
    constexpr int R = decltype(rows)::value;
    const int64_t last = i + R - 1;
    const int64_t n_end = std::min(n, std::max<int64_t>(0, last + band.col + 1));
    const int64_t p0 = std::max<int64_t>(0, i + band.lo), p1 = std::min(k, last + band.hi + 1);
    const T* ai = TransA ? a + i : a + i * lda;
    gemm_block<T, TransA, R>(c + i * ldc, ldc, ai, lda, b, ldb, round_up(n_end, C2), p0,
                             std::max(p0, p1), acc);
  };
  int64_t i = 0;
  for (; i + kRows <= m; i += kRows) run(std::integral_constant<int, int(kRows)>{}, i);
  for (; i < m; ++i) run(std::integral_constant<int, 1>{}, i);
}

// Shuffle masks as constants (an index sequence expanded into the vector's initialiser), so each
// shuffle compiles to one permute. M: the integer vector of V's shape.
template <typename V>
using MaskOf = decltype(V{} < V{});
template <typename V, int64_t H, int... L>
inline V swap_lanes(V v, std::integer_sequence<int, L...>) {  // lane l takes lane l ^ H
  return __builtin_shuffle(v, MaskOf<V>{(L ^ H)...});
}
// The lanes of v combined by op in a butterfly of log2(W) shuffles (the compiler does not reorder
// float reductions itself).
template <typename V, int64_t W, typename Op>
inline auto reduce_lanes(V v, Op op) {
  [&]<int64_t... H>(std::integer_sequence<int64_t, H...>) {
    ((v = op(v, swap_lanes<V, (W >> (H + 1))>(v, std::make_integer_sequence<int, int(W)>{}))), ...);
  }
  (std::make_integer_sequence<int64_t, std::countr_zero(uint64_t(W))>{});
  return v[0];
}
// Max and sum of the first w entries of a row (w a multiple of the vector width).
template <typename T>
T row_max(const T* x, int64_t w) {
  using V = typename VecOf<T>::type;
  constexpr int64_t W = VecOf<T>::lanes;
  V acc = load<T, V>(x);
  for (int64_t j = W; j < w; j += W) {
    const V y = load<T, V>(x + j);
    acc = acc > y ? acc : y;
  }
  return reduce_lanes<V, W>(acc, [](V a, V b) -> V { return a > b ? a : b; });
}
template <typename T>
T row_sum(const T* x, int64_t w) {
  using V = typename VecOf<T>::type;
  constexpr int64_t W = VecOf<T>::lanes;
  V acc = load<T, V>(x);
  for (int64_t j = W; j < w; j += W) acc += load<T, V>(x + j);
  return reduce_lanes<V, W>(acc, [](V a, V b) -> V { return a + b; });
}

// Copies rows x cols of src (row stride ld, unit column stride) into dst [rows x ldd], times s.
template <typename T>
void copy_rows(T* dst, int64_t ldd, const T* src, int64_t ld, int64_t rows, int64_t cols, T s) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) dst[r * ldd + c] = src[r * ld + c] * s;
}
// Note [Tile transposes]
// A square block of W x W (W the vector lanes) is transposed in registers by log2(W) butterfly
// stages: stage h swaps, in each pair of rows (i, i + h) with bit h of i clear, the lanes with bit
// h set of row i and those with bit h clear of row i + h, so element (i, l) moves to
// (i ^ d, l ^ d) with d the bits where i and l differ, i.e. to (l, i). Edges go element by element.
template <typename V, int64_t W, int64_t H, int... L>
inline void butterfly_stage(V (&r)[W], std::integer_sequence<int, L...>) {
  constexpr MaskOf<V> lo{((L & H) ? int(W + (L ^ H)) : int(L))...};
  constexpr MaskOf<V> hi{((L & H) ? int(W + L) : int(L | H))...};
  for (int64_t i = 0; i < W; ++i)
    if (!(i & H)) {
      const V a = r[i], b = r[i + H];
      r[i] = __builtin_shuffle(a, b, lo);
      r[i + H] = __builtin_shuffle(a, b, hi);
    }
}
template <typename V, int64_t W>
inline void transpose_block(V (&r)[W]) {
  [&]<int64_t... H>(std::integer_sequence<int64_t, H...>) {
    (butterfly_stage<V, W, (W >> (H + 1))>(r, std::make_integer_sequence<int, int(W)>{}), ...);
  }
  (std::make_integer_sequence<int64_t, std::countr_zero(uint64_t(W))>{});
}
// dst[cols x ldd] = transpose of src rows x cols, times s.
template <typename T>
void transpose_rows(T* dst, int64_t ldd, const T* src, int64_t ld, int64_t rows, int64_t cols,
                    T s) {
  using V = typename VecOf<T>::type;
  constexpr int64_t W = VecOf<T>::lanes;
  int64_t r0 = 0;
  for (; r0 + W <= rows; r0 += W) {
    int64_t c0 = 0;
    for (; c0 + W <= cols; c0 += W) {
      V x[W];
      for (int64_t i = 0; i < W; ++i) x[i] = load<T, V>(src + (r0 + i) * ld + c0) * s;
      transpose_block<V, W>(x);
      for (int64_t i = 0; i < W; ++i) store<T, V>(dst + (c0 + i) * ldd + r0, x[i]);
    }
    for (int64_t r = r0; r < r0 + W; ++r)
      for (int64_t c = c0; c < cols; ++c) dst[c * ldd + r] = src[r * ld + c] * s;
  }
  for (int64_t r = r0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) dst[c * ldd + r] = src[r * ld + c] * s;
}
// Rows of a B operand: src itself when its width fills whole column chunks, else a padded copy.
template <typename T>
const T* b_rows(const T* src, int64_t ld, int64_t rows, int64_t cols, std::vector<T>& buf,
                int64_t& ldb) {
  if (cols == padded<T>(cols)) {
    ldb = ld;
    return src;
  }
  ldb = padded<T>(cols);
  if (buf.size() < size_t(rows * ldb)) buf.assign(size_t(std::max(kBQ, kBK) * ldb), T(0));
  copy_rows(buf.data(), ldb, src, ld, rows, cols, T(1));
  return buf.data();
}

// Rows [rows x cols] that products accumulate into, zeroed: dst itself (row stride ld) when its
// rows need no padding, else buf, which acc_end copies to dst. acc_ld: the rows' stride.
template <typename T>
int64_t acc_ld(int64_t cols, int64_t ld) {
  return padded<T>(cols) == cols ? ld : padded<T>(cols);
}
template <typename T>
T* acc_begin(T* dst, int64_t ld, int64_t rows, int64_t cols, std::vector<T>& buf) {
  const int64_t la = acc_ld<T>(cols, ld);
  if (la != ld && buf.size() < size_t(rows * la)) buf.resize(size_t(rows * la));
  T* p = la == ld ? dst : buf.data();
  for (int64_t r = 0; r < rows; ++r) std::fill(p + r * la, p + r * la + cols, T(0));
  return p;
}
template <typename T>
void acc_end(T* dst, int64_t ld, const T* p, int64_t rows, int64_t cols) {
  if (p != dst) copy_rows(dst, ld, p, padded<T>(cols), rows, cols, T(1));
}

// sum_c a[c] * b[c], in vector lanes.
template <typename T>
T dot(const T* a, const T* b, int64_t n) {
  using V = typename VecOf<T>::type;
  constexpr int64_t W = VecOf<T>::lanes;
  V acc{};
  int64_t c = 0;
  for (; c + W <= n; c += W) acc += load<T, V>(a + c) * load<T, V>(b + c);
  T sum = reduce_lanes<V, W>(acc, [](V x, V y) -> V { return x + y; });
  for (; c < n; ++c) sum += a[c] * b[c];
  return sum;
}

// Scores of one tile: s[r][j] = q_i . (k_j * scale) + mask, -inf where masked, for j < width(r)
// (Note [Causal tiles]).
template <typename T>
struct ScoreTile {
  const AttentionGeometry& g;
  std::vector<T> kt;  // scaled key tile transposed [E x kBK]
  int64_t keys[kBQ], width[kBQ];

  explicit ScoreTile(const AttentionGeometry& geo) : g(geo), kt(size_t(geo.E * kBK)) {}

  void load_keys(const T* k, int64_t n, int64_t j0, int64_t jk) {
    transpose_rows(kt.data(), kBK, k + g.k_off[n] + j0 * g.k_row, g.k_row, jk, g.E, T(g.scale));
  }
  // Bounds of products whose columns (col) or terms (hi) are the tile's keys.
  Band band(int64_t i0, int64_t j0, bool keys_are_terms) const {
    Band b;
    if (g.causal) (keys_are_terms ? b.hi : b.col) = i0 - j0;
    return b;
  }
  void compute(T* s, const T* q, const T* mask, int64_t n, int64_t i0, int64_t iq, int64_t j0,
               int64_t jk) {
    gemm_tile(s, kBK, q + g.q_off[n] + i0 * g.q_row, g.q_row, kt.data(), kBK, iq, jk, g.E, false,
              band(i0, j0, false));
    for (int64_t r = 0; r < iq; ++r)
      keys[r] = g.causal ? std::clamp<int64_t>(i0 + r + 1 - j0, 0, jk) : jk;
    for (int64_t r = 0; r < iq; ++r)
      width[r] =
          std::min(kBK, round_up(keys[std::min(iq - 1, r / kRows * kRows + kRows - 1)], span<T>()));
    if (g.mask_off) {
      const T* m = mask + g.mask_off[n] + i0 * g.mask_row + j0 * g.mask_col;
      for (int64_t r = 0; r < iq; ++r)
        for (int64_t j = 0; j < keys[r]; ++j) s[r * kBK + j] += m[r * g.mask_row + j * g.mask_col];
    }
    for (int64_t r = 0; r < iq; ++r)
      std::fill(s + r * kBK + keys[r], s + r * kBK + width[r], -std::numeric_limits<T>::infinity());
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
    std::vector<T> s(size_t(kBQ * kBK)), vbuf, acc(size_t(kBQ * ldv));
    T m[kBQ], l[kBQ];
    for (int64_t w = w0; w < w1; ++w) {
      const int64_t n = w / nq, i0 = (w % nq) * kBQ, iq = std::min(kBQ, g.L - i0);
      std::fill(acc.begin(), acc.end(), T(0));
      std::fill(m, m + kBQ, -std::numeric_limits<T>::infinity());
      std::fill(l, l + kBQ, T(0));
      const int64_t kend = tile.key_end(i0, iq);
      for (int64_t j0 = 0; j0 < kend; j0 += kBK) {
        const int64_t jk = std::min(kBK, kend - j0);
        tile.load_keys(k, n, j0, jk);
        tile.compute(s.data(), q, mask, n, i0, iq, j0, jk);
        for (int64_t r = 0; r < iq; ++r) {
          T* sr = s.data() + r * kBK;
          const int64_t wr = tile.width[r];
          if (wr == 0) continue;
          const T mx = std::max(m[r], row_max(sr, wr));
          if (mx == -std::numeric_limits<T>::infinity()) {
            std::fill(sr, sr + wr, T(0));
            continue;
          }
          for (int64_t j = 0; j < wr; ++j) sr[j] = exp_of(sr[j] - mx);
          if (m[r] == -std::numeric_limits<T>::infinity()) {  // acc and l are still zero
            l[r] = row_sum(sr, wr);
          } else {
            const T corr = exp_of(m[r] - mx);
            l[r] = l[r] * corr + row_sum(sr, wr);
            if (corr != T(1))
              for (int64_t c = 0; c < g.Ev; ++c) acc[size_t(r * ldv + c)] *= corr;
          }
          m[r] = mx;
        }
        if (g.dropout_p > 0) apply_dropout(s.data(), kBK, g, n, i0, iq, j0, jk);
        int64_t ldb = 0;
        const T* vb = b_rows(v + g.v_off[n] + j0 * g.v_row, g.v_row, jk, g.Ev, vbuf, ldb);
        gemm_tile(acc.data(), ldv, s.data(), kBK, vb, ldb, iq, g.Ev, jk, true,
                  tile.band(i0, j0, true));
      }
      for (int64_t r = 0; r < iq; ++r) {
        T* o = out + g.o_off[n] + (i0 + r) * g.o_row;
        // l == 0 (every key masked): NaN, as softmax gives
        const T inv = l[r] == T(0) ? T(NAN) : T(1) / l[r];
        const T* a = acc.data() + r * ldv;
        for (int64_t c = 0; c < g.Ev; ++c) o[c] = a[c] * inv;
        lse[n * g.L + i0 + r] = m[r] + std::log(l[r]);
      }
    }
  });
}

// The backward of one (query tile, key tile) pair: probabilities p (dropout applied in pd), the
// score gradient ds = p * (dp - D) * scale (the scale of both products it feeds), and their
// products into grad_v, grad_k (rows of the key tile) and grad_q (rows of the query tile).
template <typename T>
struct BackwardTile {
  const AttentionGeometry& g;
  ScoreTile<T> scores;
  std::vector<T> p, pd, ds, vt, d, qbuf, gobuf, kbuf;
  const T* kb = nullptr;  // the key tile as a B operand (unscaled)
  int64_t ldk = 0;
  explicit BackwardTile(const AttentionGeometry& geo)
      : g(geo),
        scores(geo),
        p(size_t(kBQ * kBK)),
        pd(geo.dropout_p > 0 ? size_t(kBQ * kBK) : 0),
        ds(size_t(kBQ * kBK)),
        vt(size_t(geo.Ev * kBK)),
        d(size_t(kBQ)) {}

  void load_keys(const T* k, const T* v, int64_t n, int64_t j0, int64_t jk) {
    scores.load_keys(k, n, j0, jk);
    transpose_rows(vt.data(), kBK, v + g.v_off[n] + j0 * g.v_row, g.v_row, jk, g.Ev, T(1));
    kb = b_rows(k + g.k_off[n] + j0 * g.k_row, g.k_row, jk, g.E, kbuf, ldk);
  }
  // dv, dk: rows of the key tile (null: not wanted); dq: rows of the query tile; row strides
  // acc_ld.
  void run(const T* q, const T* mask, const T* out, const T* gout, const T* lse, int64_t n,
           int64_t i0, int64_t iq, int64_t j0, int64_t jk, T* dv, T* dk, T* dq) {
    const T* go = gout + g.go_off[n] + i0 * g.go_row;
    for (int64_t r = 0; r < iq; ++r)  // D_r = sum_c grad_out[r][c] * out[r][c]
      d[size_t(r)] = dot(out + g.o_off[n] + (i0 + r) * g.o_row, go + r * g.go_row, g.Ev);
    scores.compute(p.data(), q, mask, n, i0, iq, j0, jk);
    // A row whose keys are all masked has NaN probabilities (as softmax gives, so grad_v is NaN)
    // but, like a masked_fill, passes no gradient to its scores.
    constexpr T kNegInf = -std::numeric_limits<T>::infinity();
    gemm_tile(ds.data(), kBK, go, g.go_row, vt.data(), kBK, iq, jk, g.Ev, false,
              scores.band(i0, j0, false));  // dp
    if (g.dropout_p > 0) apply_dropout(ds.data(), kBK, g, n, i0, iq, j0, jk);
    const T scale = T(g.scale);
    for (int64_t r = 0; r < iq; ++r) {
      const T ls = lse[n * g.L + i0 + r], dr = d[size_t(r)];
      const bool dead = ls == kNegInf;
      T* pr = p.data() + r * kBK;
      T* dsr = ds.data() + r * kBK;
      const int64_t wr = scores.width[r];
      for (int64_t j = 0; j < wr; ++j)
        pr[j] = pr[j] == kNegInf ? (dead ? T(NAN) : T(0)) : exp_of(pr[j] - ls);
      if (g.dropout_p > 0) std::copy(pr, pr + wr, pd.data() + r * kBK);
      for (int64_t j = 0; j < wr; ++j) dsr[j] = dead ? T(0) : pr[j] * (dsr[j] - dr) * scale;
    }
    if (g.dropout_p > 0) apply_dropout(pd.data(), kBK, g, n, i0, iq, j0, jk);
    Band tb;  // the transposed products: rows are keys, terms queries
    if (g.causal) tb.lo = j0 - i0;
    int64_t ld = 0;
    if (dv) {
      const T* gb = b_rows(go, g.go_row, iq, g.Ev, gobuf, ld);
      gemm_tile<T, true>(dv, acc_ld<T>(g.Ev, g.gv_row), g.dropout_p > 0 ? pd.data() : p.data(), kBK,
                         gb, ld, jk, g.Ev, iq, true, tb);
    }
    if (dk) {
      const T* qb = b_rows(q + g.q_off[n] + i0 * g.q_row, g.q_row, iq, g.E, qbuf, ld);
      gemm_tile<T, true>(dk, acc_ld<T>(g.E, g.gk_row), ds.data(), kBK, qb, ld, jk, g.E, iq, true,
                         tb);
    }
    if (dq)
      gemm_tile(dq, acc_ld<T>(g.E, g.gq_row), ds.data(), kBK, kb, ldk, iq, g.E, jk, true,
                scores.band(i0, j0, true));
  }
};

// The backward in one pass per batch element (Note [Blockwise attention]): each (query tile, key
// tile) pair's probabilities and score gradient are computed once and feed grad_v, grad_k and
// grad_q, whose rows for the whole sequence stay in a per-item buffer. The products and their
// order are the two-pass backward's, so the results are bit for bit the same.
template <typename T>
void backward_fused(const AttentionGeometry& g, const T* q, const T* k, const T* v, const T* mask,
                    const T* out, const T* gout, const T* lse, T* gq, T* gk, T* gv) {
  parallel_for(0, g.batch, 1, [&](int64_t n0, int64_t n1) {
    BackwardTile<T> t(g);
    std::vector<T> kbuf, vbuf, qbuf;
    for (int64_t n = n0; n < n1; ++n) {
      T* const q_rows = gq + g.gq_off[n];
      T* dq = acc_begin(q_rows, g.gq_row, g.L, g.E, qbuf);
      for (int64_t j0 = 0; j0 < g.S; j0 += kBK) {
        const int64_t jk = std::min(kBK, g.S - j0);
        T* const k_rows = gk + g.gk_off[n] + j0 * g.gk_row;
        T* const v_rows = gv + g.gv_off[n] + j0 * g.gv_row;
        T* dk = acc_begin(k_rows, g.gk_row, jk, g.E, kbuf);
        T* dv = acc_begin(v_rows, g.gv_row, jk, g.Ev, vbuf);
        t.load_keys(k, v, n, j0, jk);
        for (int64_t i0 = g.causal ? j0 / kBQ * kBQ : 0; i0 < g.L; i0 += kBQ) {
          const int64_t iq = std::min(kBQ, g.L - i0);
          t.run(q, mask, out, gout, lse, n, i0, iq, j0, jk, dv, dk,
                dq + i0 * acc_ld<T>(g.E, g.gq_row));
        }
        acc_end(k_rows, g.gk_row, dk, jk, g.E);
        acc_end(v_rows, g.gv_row, dv, jk, g.Ev);
      }
      acc_end(q_rows, g.gq_row, dq, g.L, g.E);
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
  // grad_k, grad_v: one (batch, key tile) per work item.
  parallel_for(0, g.batch * nk, 1, [&](int64_t w0, int64_t w1) {
    BackwardTile<T> t(g);
    std::vector<T> kbuf, vbuf;
    for (int64_t w = w0; w < w1; ++w) {
      const int64_t n = w / nk, j0 = (w % nk) * kBK, jk = std::min(kBK, g.S - j0);
      T* const k_rows = gk + g.gk_off[n] + j0 * g.gk_row;
      T* const v_rows = gv + g.gv_off[n] + j0 * g.gv_row;
      T* dk = acc_begin(k_rows, g.gk_row, jk, g.E, kbuf);
      T* dv = acc_begin(v_rows, g.gv_row, jk, g.Ev, vbuf);
      t.load_keys(k, v, n, j0, jk);
      for (int64_t i0 = g.causal ? j0 / kBQ * kBQ : 0; i0 < g.L; i0 += kBQ) {
        const int64_t iq = std::min(kBQ, g.L - i0);
        t.run(q, mask, out, gout, lse, n, i0, iq, j0, jk, dv, dk, nullptr);
      }
      acc_end(k_rows, g.gk_row, dk, jk, g.E);
      acc_end(v_rows, g.gv_row, dv, jk, g.Ev);
    }
  });
  // grad_q: one (batch, query tile) per work item.
  parallel_for(0, g.batch * nq, 1, [&](int64_t w0, int64_t w1) {
    BackwardTile<T> t(g);
    std::vector<T> qbuf;
    for (int64_t w = w0; w < w1; ++w) {
      const int64_t n = w / nq, i0 = (w % nq) * kBQ, iq = std::min(kBQ, g.L - i0);
      T* const q_rows = gq + g.gq_off[n] + i0 * g.gq_row;
      T* dq = acc_begin(q_rows, g.gq_row, iq, g.E, qbuf);
      const int64_t kend = t.scores.key_end(i0, iq);
      for (int64_t j0 = 0; j0 < kend; j0 += kBK) {
        const int64_t jk = std::min(kBK, kend - j0);
        t.load_keys(k, v, n, j0, jk);
        t.run(q, mask, out, gout, lse, n, i0, iq, j0, jk, nullptr, nullptr, dq);
      }
      acc_end(q_rows, g.gq_row, dq, iq, g.E);
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
