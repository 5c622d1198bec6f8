#pragma once
// Cache-blocked copy for transposed layouts, for copy_kernels.cpp only (compiled once per CPU
// capability, hence the anonymous namespace).
//
// Note [Tiled transpose copy]
// The iterator orders dims by the output's strides, so a copy into a contiguous tensor from a
// transposed view (`t.transpose(0, 1).contiguous()`, the casts of transposed weights under
// autocast, matmul operands) walks the source with a large stride in its inner loop: every element
// touches a new cache line and, past a few KiB of stride, a new page. Such a copy is a batch of 2-D
// transposes: in iteration dim 0 the output is contiguous, in some other dim j the source is. The
// copy then goes by tiles of kTile x kTile elements (dims 0 and j), which fit in L1: each tile
// reads kTile contiguous source rows and writes kTile contiguous output rows, so every cache line
// fetched is used whole. A cast is done on the contiguous source rows into an L1 buffer of the
// output's dtype (Float <-> BFloat16 and Half by the vectorised block converters of
// reduced_float.h, other pairs element by element), and the buffer is then transposed into the
// output. The results are the element-wise copy's bit for bit.
//
// The batch dims (all but 0 and j) and the bands of kTile source rows are spread over threads.

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "backends/cpu/reduced_float.h"
#include "backends/cpu/tensor_iterator.h"
#include "brasa/core/parallel.h"

namespace brasa::cpu {
namespace {

/// Elements per side of a tile: 32 x 32 of 4 bytes is 4 KiB per side.
constexpr int64_t kTile = 32;
/// Below this many elements along dim 0 or dim j the plain strided loop is as good.
constexpr int64_t kMinTransposeExtent = 8;

/// The layout of a transposed copy: output contiguous along iteration dim 0, source along dim j.
struct TransposeLayout {
  int j = -1;
  int64_t n0 = 0, nj = 0;
  int64_t dst_item = 0, src_item = 0;
  int64_t dst_stride_j = 0, src_stride_0 = 0;  // bytes
};

/// Whether `it` (output 0, input 1) is a batch of 2-D transposes worth tiling.
inline bool transpose_layout(const TensorIterator& it, TransposeLayout& t) {
  if (it.ndim() < 2 || it.numel() < kTile * kTile) return false;
  const int64_t di = int64_t(element_size(it.output_dtype()));
  const int64_t si = int64_t(element_size(it.input_dtype()));
  IntArrayRef shape = it.shape(), ds = it.strides(0), ss = it.strides(1);
  if (ds[0] != di || ss[0] == si || ss[0] == 0 || shape[0] < kMinTransposeExtent) return false;
  for (int d = 1; d < it.ndim(); ++d) {
    if (ss[d] == si && shape[d] >= kMinTransposeExtent) {
      t = {d, shape[0], shape[d], di, si, ds[d], ss[0]};
      return true;
    }
  }
  return false;
}

/// Copies one tile: dst(a, b) = src(a, b) for a < na (output-contiguous), b < nb
/// (source-contiguous). `convert(buf_row, src_row, n)` turns n contiguous source elements into n
/// contiguous output elements of an L1 buffer, which is then transposed into the output; its
/// fixed row length lets the compiler vectorise that transposition (reading the source directly
/// with its run-time stride measured 5x slower, even for same-dtype copies).
template <typename D, typename S, typename Convert>
inline void transpose_tile(char* dst, int64_t dst_stride_j, const char* src, int64_t src_stride_0,
                           int64_t na, int64_t nb, const Convert& convert) {
  D buf[kTile][kTile];  // buf[a][b]: the source rows, converted
  for (int64_t a = 0; a < na; ++a)
    convert(buf[a], reinterpret_cast<const S*>(src + a * src_stride_0), nb);
  if (na == kTile) {
    for (int64_t b = 0; b < nb; ++b) {
      D* out = reinterpret_cast<D*>(dst + b * dst_stride_j);
      for (int64_t a = 0; a < kTile; ++a) out[a] = buf[a][b];
    }
    return;
  }
  for (int64_t b = 0; b < nb; ++b) {
    D* out = reinterpret_cast<D*>(dst + b * dst_stride_j);
    for (int64_t a = 0; a < na; ++a) out[a] = buf[a][b];
  }
}

/// Runs the tiled copy over every 2-D slice of `it` (transpose_layout(it, t) must hold).
template <typename D, typename S, typename Convert>
void transpose_copy(const TensorIterator& it, const TransposeLayout& t, const Convert& convert) {
  const int nd = it.ndim();
  IntArrayRef shape = it.shape(), ds = it.strides(0), ss = it.strides(1);
  const int64_t slices = it.numel() / (t.n0 * t.nj);
  const int64_t bands = (t.nj + kTile - 1) / kTile;  // runs of kTile indices along dim j
  char* const dst0 = it.data(0);
  const char* const src0 = it.data(1);
  const int64_t grain = std::max<int64_t>(1, 32768 / (t.n0 * kTile));
  parallel_for(0, slices * bands, grain, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      // The slice's offsets: its index decomposed over the batch dims (not 0, not j).
      int64_t rem = task / bands, dst_off = 0, src_off = 0;
      for (int d = 1; d < nd; ++d) {
        if (d == t.j) continue;
        const int64_t i = rem % shape[d];
        rem /= shape[d];
        dst_off += i * ds[d];
        src_off += i * ss[d];
      }
      const int64_t b0 = (task % bands) * kTile, nb = std::min(kTile, t.nj - b0);
      char* dst = dst0 + dst_off + b0 * t.dst_stride_j;
      const char* src = src0 + src_off + b0 * t.src_item;
      for (int64_t a0 = 0; a0 < t.n0; a0 += kTile)
        transpose_tile<D, S>(dst + a0 * t.dst_item, t.dst_stride_j, src + a0 * t.src_stride_0,
                             t.src_stride_0, std::min(kTile, t.n0 - a0), nb, convert);
    }
  });
}

/// The same-dtype tiled copy for an element of `width` bytes (1, 2, 4, 8 or 16).
inline void transpose_copy_same(const TensorIterator& it, const TransposeLayout& t) {
  struct Bytes16 {
    uint64_t lo, hi;
  };
  const auto rows = [](auto* d, const auto* s, int64_t n) { std::memcpy(d, s, n * sizeof(*d)); };
  switch (t.dst_item) {
    case 1: return transpose_copy<uint8_t, uint8_t>(it, t, rows);
    case 2: return transpose_copy<uint16_t, uint16_t>(it, t, rows);
    case 4: return transpose_copy<uint32_t, uint32_t>(it, t, rows);
    case 8: return transpose_copy<uint64_t, uint64_t>(it, t, rows);
    default: return transpose_copy<Bytes16, Bytes16>(it, t, rows);
  }
}

}  // namespace
}  // namespace brasa::cpu
