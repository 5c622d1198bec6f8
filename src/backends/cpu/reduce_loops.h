#pragma once
// The reduction engine's loops over a ReduceIter, for kernel files only: everything is in an
// anonymous namespace because each kernel file is compiled once per CPU capability.
//
// An Ops type describes one reduction:
//   using in_t, acc_t;
//   static constexpr int kLanes;      // > 1: independent accumulators per contiguous run (reduce()
//                                     // then ignores its index argument and the loop vectorises)
//   static constexpr bool kCascade;   // sum-like: partials are added in a cascade for accuracy
//   acc_t identity() const;
//   acc_t reduce(acc_t a, in_t x, int64_t index) const;  // index: flat position in the reduced
//   group acc_t combine(acc_t a, acc_t b) const;               // a covers earlier positions than b
//   void store(acc_t a, char* out0, char* out1) const;   // writes the result element(s)
//
// Note [Reduction strategies]
// - inner: the innermost input dim is reduced (or nothing is kept). Each output reduces its runs;
//   outputs run in parallel, or, when there are few outputs and many elements, each output's
//   reduced range is split across threads and the partials combined in order.
// - rows: the innermost input dim is kept and contiguous in input and output ("reduce the outer
//   dims"): whole rows are accumulated into a block of per-column accumulators, so the inner loop
//   is a contiguous, vectorisable row update rather than a strided per-output loop. Work splits
//   over column blocks, or over rows (per-thread partial blocks, combined in order) when blocks are
//   few.
//
// Note [Half reductions as float]
// In a kernel file under Note [Reduced floats as float] (BRASA_KERNEL_REDUCED_AS_FLOAT), Half
// input runs the float Ops (the dispatch macros bind scalar_t = float for Half). The engine sees
// from the iterator's dtype that the data is 16-bit: it converts each contiguous run (in blocks of
// kReduceBlock) or row block into an L1 buffer with load_half (F16C where the build has it) and
// reduces the buffer with the float loop; a Half result is written through a float and rounded
// once. The engine is then compiled for float only, and the conversion is vectorised once.
// BFloat16 keeps its own loops: through the blocks its sums measured 1.6-2.3x slower than
// converting inline (a shift that the compiler vectorises inside the loop).

#include <algorithm>
#include <memory>
#include <type_traits>
#if defined(__F16C__)
#include <immintrin.h>
#endif

#include "backends/cpu/reduce.h"
#include "brasa/core/parallel.h"
#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
#include "backends/cpu/reduced_float.h"
#endif

namespace brasa::cpu {
namespace {

// A multi-dim position (innermost first) with offsets for N stride sets.
template <int N>
struct Walker {
  int nd = 0;
  const int64_t* sizes = nullptr;
  const int64_t* strides[N] = {};
  int64_t idx[64] = {};
  int64_t off[N] = {};

  void start(int64_t flat) {
    for (int k = 0; k < N; ++k) off[k] = 0;
    for (int d = 0; d < nd; ++d) {
      idx[d] = flat % sizes[d];
      flat /= sizes[d];
      for (int k = 0; k < N; ++k) off[k] += idx[d] * strides[k][d];
    }
  }
  void next() {
    for (int d = 0; d < nd; ++d) {
      for (int k = 0; k < N; ++k) off[k] += strides[k][d];
      if (++idx[d] < sizes[d]) return;
      for (int k = 0; k < N; ++k) off[k] -= sizes[d] * strides[k][d];
      idx[d] = 0;
    }
  }
};

template <typename Ops>
using acc_of = typename Ops::acc_t;

/// True when these Ops may meet Half data (Note [Half reductions as float]).
template <typename Ops>
constexpr bool kHalfAsFloat =
#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
    std::is_same_v<typename Ops::in_t, float>;
#else
    false;
#endif

/// How the engine reads the input: bytes per element, and whether the data is Half read by float
/// Ops.
struct InputView {
  const char* data;
  int64_t itemsize;
  bool half;
};
template <typename Ops>
InputView input_view(const ReduceIter& it) {
  const bool half = kHalfAsFloat<Ops> && it.in_dtype() == ScalarType::Half;
  return {it.in_data(), half ? 2 : int64_t(sizeof(typename Ops::in_t)), half};
}

/// Writes one result; a Half result of float Ops goes through a float. (GCC 12 inlines the Ops'
/// store here and then warns that accumulators filled inside parallel_for may be uninitialized.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
template <typename Ops>
inline void store_one(const Ops& ops, const acc_of<Ops>& a, char* o0, char* o1, bool half_out) {
#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
  if constexpr (kHalfAsFloat<Ops>) {
    if (half_out) {  // the Ops write a float; its Half rounding goes to o0
      alignas(8) char v[8];
      ops.store(a, v, o1);
      store_results(true, v, 4, o0, 2, 1);
      return;
    }
  }
#endif
  (void)half_out;
  ops.store(a, o0, o1);
}
#pragma GCC diagnostic pop

/// An input element as the accumulator type. A Half converts with the F16C instruction where the
/// build has it (one instruction instead of Half's portable bit manipulation, which made Half
/// reductions ~20x slower than Float); this is a function of the kernel file, so no other build
/// sees the F16C code.
template <typename To, typename T>
inline To widen(T x) {
#if defined(__F16C__)
  if constexpr (std::is_same_v<T, Half>) return To(_cvtsh_ss(x.x));
#endif
  return To(x);
}

// A heap array (std::vector<bool> would not give an acc_t*).
template <typename T>
struct Buffer {
  std::unique_ptr<T[]> p;
  explicit Buffer(int64_t n) : p(new T[n]) {}
  Buffer(int64_t n, T fill) : Buffer(n) { std::fill(p.get(), p.get() + n, fill); }
  T* data() const { return p.get(); }
  T& operator[](int64_t i) const { return p[i]; }
};

// Reduces n contiguous elements; indices start at idx0.
template <typename Ops>
acc_of<Ops> reduce_contig(const Ops& ops, const typename Ops::in_t* __restrict p, int64_t n,
                          int64_t idx0) {
  using acc_t = acc_of<Ops>;
  constexpr int L = Ops::kLanes;
  if constexpr (L == 1) {
    acc_t a = ops.identity();
    for (int64_t i = 0; i < n; ++i) a = ops.reduce(a, p[i], idx0 + i);
    return a;
  } else {
    acc_t lanes[L];
    for (int l = 0; l < L; ++l) lanes[l] = ops.identity();
    int64_t i = 0;
    if constexpr (Ops::kCascade) {
      // Blocks of kRows x L elements; block partials go into levels that flush every kFan adds.
      constexpr int kRows = 8, kFan = 8, kLevels = 16;
      constexpr int64_t kBlock = int64_t(L) * kRows;
      if (n >= kBlock * kFan) {
        acc_t level[kLevels][L];
        int cnt[kLevels] = {};
        int used = 1;
        for (int l = 0; l < L; ++l) level[0][l] = ops.identity();
        for (; i + kBlock <= n; i += kBlock) {
          acc_t blk[L];
          for (int l = 0; l < L; ++l) blk[l] = ops.identity();
          for (int r = 0; r < kRows; ++r)
            for (int l = 0; l < L; ++l) blk[l] = ops.reduce(blk[l], p[i + r * L + l], 0);
          for (int l = 0; l < L; ++l) level[0][l] = ops.combine(level[0][l], blk[l]);
          for (int lv = 0; ++cnt[lv] == kFan && lv + 1 < kLevels; ++lv) {
            cnt[lv] = 0;
            if (lv + 1 == used) {
              for (int l = 0; l < L; ++l) level[used][l] = ops.identity();
              ++used;
            }
            for (int l = 0; l < L; ++l) {
              level[lv + 1][l] = ops.combine(level[lv + 1][l], level[lv][l]);
              level[lv][l] = ops.identity();
            }
          }
        }
        for (int lv = used - 1; lv >= 0; --lv)
          for (int l = 0; l < L; ++l) lanes[l] = ops.combine(lanes[l], level[lv][l]);
      }
    }
    for (; i + L <= n; i += L)
      for (int l = 0; l < L; ++l) lanes[l] = ops.reduce(lanes[l], p[i + l], 0);
    acc_t tail = ops.identity();
    for (; i < n; ++i) tail = ops.reduce(tail, p[i], 0);
    for (int w = L / 2; w >= 1; w /= 2)
      for (int l = 0; l < w; ++l) lanes[l] = ops.combine(lanes[l], lanes[l + w]);
    return ops.combine(lanes[0], tail);
  }
}

/// Elements per converted block of a contiguous run: long enough that the lanes' final combine
/// and the call are a small part of each block (Half sums: 4096 is 1.6x faster than 512).
constexpr int64_t kReduceBlock = 4096;

// Reduces flat positions [begin, end) of the reduced group starting at byte address `base`.
template <typename Ops>
acc_of<Ops> reduce_range(const Ops& ops, const ReduceIter& it, const InputView& in,
                         const char* base, int64_t begin, int64_t end) {
  using acc_t = acc_of<Ops>;
  using in_t = typename Ops::in_t;
  const int nd = static_cast<int>(it.red_sizes.size());
  if (begin >= end) return ops.identity();
#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
  float buf[kHalfAsFloat<Ops> ? kReduceBlock : 1];
#endif
  if (nd == 0) {
#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
    if constexpr (kHalfAsFloat<Ops>) {
      if (in.half) {
        load_half(base, 2, buf, 1);
        return ops.reduce(ops.identity(), buf[0], 0);
      }
    }
#endif
    return ops.reduce(ops.identity(), *reinterpret_cast<const in_t*>(base), 0);
  }
  const int64_t s0 = it.red_sizes[0], st0 = it.red_in_strides[0];
  Walker<1> outer;
  outer.nd = nd - 1;
  outer.sizes = it.red_sizes.data() + 1;
  outer.strides[0] = it.red_in_strides.data() + 1;
  int64_t i0 = begin % s0;
  outer.start(begin / s0);
  acc_t acc = ops.identity(), blk = ops.identity();
  int runs = 0;
  auto add_run = [&](acc_t run) {
    blk = ops.combine(blk, run);
    if (++runs == 64) {  // two-level sum over runs keeps many short runs accurate
      acc = ops.combine(acc, blk);
      blk = ops.identity();
      runs = 0;
    }
  };
  for (int64_t pos = begin; pos < end;) {
    int64_t n = std::min(s0 - i0, end - pos);
    const char* p = base + (outer.off[0] + i0 * st0) * in.itemsize;
    bool done = false;
#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
    if constexpr (kHalfAsFloat<Ops>) {
      if (in.half) {
        for (int64_t k = 0; k < n; k += kReduceBlock) {
          const int64_t m = std::min<int64_t>(kReduceBlock, n - k);
          load_half(p + k * st0 * 2, st0 * 2, buf, m);
          add_run(reduce_contig(ops, buf, m, pos + k));
        }
        done = true;
      }
    }
#endif
    if (!done) {
      const in_t* tp = reinterpret_cast<const in_t*>(p);
      if (st0 == 1) {
        add_run(reduce_contig(ops, tp, n, pos));
      } else {
        acc_t run = ops.identity();
        for (int64_t i = 0; i < n; ++i) run = ops.reduce(run, tp[i * st0], pos + i);
        add_run(run);
      }
    }
    pos += n;
    i0 = 0;
    outer.next();
  }
  return ops.combine(acc, blk);
}

template <typename Ops>
void reduce_inner(const Ops& ops, const ReduceIter& it) {
  using acc_t = acc_of<Ops>;
  const InputView in = input_view<Ops>(it);
  const bool half_out = in.half && it.out_dtype(0) == ScalarType::Half;
  const int64_t num_out = it.num_outputs(), num_red = it.num_reduced();
  auto make_walker = [&] {
    Walker<3> w;
    w.nd = static_cast<int>(it.kept_sizes.size());
    w.sizes = it.kept_sizes.data();
    w.strides[0] = it.kept_in_strides.data();
    w.strides[1] = it.kept_out_strides[0].data();
    w.strides[2] =
        it.noutputs() > 1 ? it.kept_out_strides[1].data() : it.kept_out_strides[0].data();
    return w;
  };
  const int nthreads = get_num_threads();
  constexpr int64_t kMinChunk = 16384;
  if (nthreads > 1 && !in_parallel_region() && num_out < 2 * nthreads && num_red >= 2 * kMinChunk) {
    const int64_t nchunks = std::min<int64_t>(nthreads, num_red / kMinChunk);
    Buffer<acc_t> partial(nchunks);
    Walker<3> w = make_walker();
    w.start(0);
    for (int64_t o = 0; o < num_out; ++o, w.next()) {
      const char* base = in.data + w.off[0] * in.itemsize;
      parallel_for(0, nchunks, 1, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c)
          partial[c] =
              reduce_range(ops, it, in, base, c * num_red / nchunks, (c + 1) * num_red / nchunks);
      });
      acc_t acc = partial[0];
      for (int64_t c = 1; c < nchunks; ++c) acc = ops.combine(acc, partial[c]);
      store_one(ops, acc, it.out_data(0) + w.off[1], it.out_data(it.noutputs() - 1) + w.off[2],
                half_out);
    }
    return;
  }
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(num_red, 1));
  parallel_for(0, num_out, grain, [&](int64_t b, int64_t e) {
    Walker<3> w = make_walker();
    w.start(b);
    for (int64_t o = b; o < e; ++o, w.next()) {
      acc_t acc = reduce_range(ops, it, in, in.data + w.off[0] * in.itemsize, 0, num_red);
      store_one(ops, acc, it.out_data(0) + w.off[1], it.out_data(it.noutputs() - 1) + w.off[2],
                half_out);
    }
  });
}

// Accumulates rows [rb, re) of the `width` columns at byte address `base` into acc. Half rows are
// converted into `conv` (width floats) first.
template <typename Ops>
void accumulate_rows(const Ops& ops, const ReduceIter& it, const InputView& in, const char* base,
                     int64_t rb, int64_t re, int64_t width, acc_of<Ops>* __restrict acc,
                     acc_of<Ops>* __restrict blk, float* conv) {
  using in_t = typename Ops::in_t;
  if (rb >= re) return;
  (void)conv;
  Walker<1> rows;
  rows.nd = static_cast<int>(it.red_sizes.size());
  rows.sizes = it.red_sizes.data();
  rows.strides[0] = it.red_in_strides.data();
  rows.start(rb);
  constexpr int kRowBlock = Ops::kCascade ? 64 : 0;
  int in_block = 0;
  if constexpr (Ops::kCascade)
    for (int64_t j = 0; j < width; ++j) blk[j] = ops.identity();
  for (int64_t r = rb; r < re; ++r, rows.next()) {
    const char* rowp = base + rows.off[0] * in.itemsize;
    const in_t* __restrict row = reinterpret_cast<const in_t*>(rowp);
#if defined(BRASA_KERNEL_REDUCED_AS_FLOAT)
    if constexpr (kHalfAsFloat<Ops>) {
      if (in.half) {
        load_half(rowp, 2, conv, width);
        row = conv;
      }
    }
#endif
    if constexpr (Ops::kCascade) {
      for (int64_t j = 0; j < width; ++j) blk[j] = ops.reduce(blk[j], row[j], r);
      if (++in_block == kRowBlock) {
        for (int64_t j = 0; j < width; ++j) {
          acc[j] = ops.combine(acc[j], blk[j]);
          blk[j] = ops.identity();
        }
        in_block = 0;
      }
    } else {
      for (int64_t j = 0; j < width; ++j) acc[j] = ops.reduce(acc[j], row[j], r);
    }
  }
  if constexpr (Ops::kCascade)
    for (int64_t j = 0; j < width; ++j) acc[j] = ops.combine(acc[j], blk[j]);
}

template <typename Ops>
void reduce_rows(const Ops& ops, const ReduceIter& it) {
  using acc_t = acc_of<Ops>;
  const InputView in = input_view<Ops>(it);
  const bool half_out = in.half && it.out_dtype(0) == ScalarType::Half;
  const int64_t width_all = it.kept_sizes[0], num_red = it.num_reduced();
  const int64_t cb = std::max<int64_t>(16, 8192 / int64_t(sizeof(acc_t)));
  const int64_t nblocks = (width_all + cb - 1) / cb;
  const int64_t units = it.num_outputs() / width_all * nblocks;
  const int64_t so0 = it.kept_out_strides[0][0];
  const int64_t so1 = it.kept_out_strides[it.noutputs() - 1][0];
  auto outer_walker = [&] {
    Walker<3> w;
    w.nd = static_cast<int>(it.kept_sizes.size()) - 1;
    w.sizes = it.kept_sizes.data() + 1;
    w.strides[0] = it.kept_in_strides.data() + 1;
    w.strides[1] = it.kept_out_strides[0].data() + 1;
    w.strides[2] = it.kept_out_strides[it.noutputs() - 1].data() + 1;
    return w;
  };
  // Runs f(unit, base pointer, first column, width, out0, out1) for a unit.
  auto unit_geometry = [&](Walker<3>& w, int64_t u, auto&& f) {
    w.start(u / nblocks);
    int64_t c0 = (u % nblocks) * cb, width = std::min(cb, width_all - c0);
    f(in.data + (w.off[0] + c0) * in.itemsize, width, it.out_data(0) + w.off[1] + c0 * so0,
      it.out_data(it.noutputs() - 1) + w.off[2] + c0 * so1);
  };
  auto store_block = [&](const acc_t* acc, int64_t width, char* o0, char* o1) {
    for (int64_t j = 0; j < width; ++j)
      store_one(ops, acc[j], o0 + j * so0, o1 + j * so1, half_out);
  };
  const int nthreads = get_num_threads();
  if (nthreads == 1 || in_parallel_region() || units >= nthreads || num_red < 1024) {
    const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(num_red * cb, 1));
    parallel_for(0, units, grain, [&](int64_t b, int64_t e) {
      Buffer<acc_t> acc(cb), blk(cb);
      Buffer<float> conv(in.half ? cb : 0);
      Walker<3> w = outer_walker();
      for (int64_t u = b; u < e; ++u) {
        unit_geometry(w, u, [&](const char* base, int64_t width, char* o0, char* o1) {
          std::fill(acc.data(), acc.data() + width, ops.identity());
          accumulate_rows(ops, it, in, base, 0, num_red, width, acc.data(), blk.data(),
                          conv.data());
          store_block(acc.data(), width, o0, o1);
        });
      }
    });
    return;
  }
  // Few column blocks: split the rows; each chunk keeps partials for every unit.
  const int64_t nchunks = std::min<int64_t>(nthreads, num_red / 512);
  Buffer<acc_t> partial(nchunks * units * cb, ops.identity());
  parallel_for(0, nchunks, 1, [&](int64_t b, int64_t e) {
    Buffer<acc_t> blk(cb);
    Buffer<float> conv(in.half ? cb : 0);
    Walker<3> w = outer_walker();
    for (int64_t c = b; c < e; ++c) {
      for (int64_t u = 0; u < units; ++u) {
        unit_geometry(w, u, [&](const char* base, int64_t width, char*, char*) {
          accumulate_rows(ops, it, in, base, c * num_red / nchunks, (c + 1) * num_red / nchunks,
                          width, partial.data() + (c * units + u) * cb, blk.data(), conv.data());
        });
      }
    }
  });
  Walker<3> w = outer_walker();
  for (int64_t u = 0; u < units; ++u) {
    unit_geometry(w, u, [&](const char*, int64_t width, char* o0, char* o1) {
      acc_t* acc = partial.data() + u * cb;
      for (int64_t c = 1; c < nchunks; ++c)
        for (int64_t j = 0; j < width; ++j)
          acc[j] = ops.combine(acc[j], partial[(c * units + u) * cb + j]);
      store_block(acc, width, o0, o1);
    });
  }
}

/// Runs the reduction described by `ops` over `it` (Note [Reduction strategies]).
template <typename Ops>
void run_reduce(const Ops& ops, const ReduceIter& it) {
  if (it.num_outputs() == 0) return;
  const bool rows = !it.kept_sizes.empty() && !it.red_sizes.empty() && it.kept_in_strides[0] == 1 &&
                    it.kept_sizes[0] >= 16;
  if (rows)
    reduce_rows(ops, it);
  else
    reduce_inner(ops, it);
}

}  // namespace
}  // namespace brasa::cpu
