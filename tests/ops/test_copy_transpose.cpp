// The tiled transpose copy (Note [Tiled transpose copy] in
// src/backends/cpu/kernels/transpose_copy.h): copies between transposed layouts of every element
// width and the Float32 <-> BFloat16 / Half casts it fuses, checked element by element against
// the source read through its strides. Sizes that are not multiples of the tile, several
// threads, batch dims, sliced views, 0-d and empty tensors. (tests/conformance/cases_copy.py
// checks the same layouts against PyTorch.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "brasa/brasa.h"

using namespace brasa;

namespace {

// Restores the thread count at the end of a test.
struct Threads {
  explicit Threads(int n) : saved(get_num_threads()) { set_num_threads(n); }
  ~Threads() { set_num_threads(saved); }
  int saved;
};

// Distinct values in every byte of an element: element i of a 1-D tensor of `numel`, in `dtype`.
Tensor distinct(int64_t numel, ScalarType dtype) {
  if (dtype == kBool) return arange(numel, kLong).remainder(3).eq(1);
  if (dtype == kByte || dtype == kChar) return arange(numel, kLong).remainder(251).to(dtype);
  if (dtype == kComplexDouble || dtype == kComplexFloat || is_floating_type(dtype))
    return randn({numel}, TensorOptions().dtype(dtype));
  return arange(numel, kLong).mul(7919).sub(numel).to(dtype);  // wraps in the narrow types
}

// Checks dst[idx] == src[idx] byte for byte over every index of two tensors of one dtype and
// shape, reading both through their own strides.
void expect_same_elements(const Tensor& dst, const Tensor& src) {
  ASSERT_EQ(dst.sizes(), src.sizes());
  ASSERT_EQ(dst.dtype(), src.dtype());
  const int64_t item = int64_t(element_size(dst.dtype())), nd = dst.dim();
  const auto* d = static_cast<const char*>(dst.data_ptr());
  const auto* s = static_cast<const char*>(src.data_ptr());
  std::vector<int64_t> idx(size_t(nd), 0);
  for (int64_t n = 0; n < dst.numel(); ++n) {
    int64_t od = 0, os = 0;
    for (int64_t k = 0; k < nd; ++k) {
      od += idx[size_t(k)] * dst.stride(k);
      os += idx[size_t(k)] * src.stride(k);
    }
    ASSERT_EQ(std::memcmp(d + od * item, s + os * item, size_t(item)), 0)
        << "element " << n << " of " << dst.sizes();
    for (int64_t k = nd - 1; k >= 0; --k) {
      if (++idx[size_t(k)] < dst.size(k)) break;
      idx[size_t(k)] = 0;
    }
  }
}

// A view of `shape` whose memory order is `perm` applied to a contiguous base.
Tensor permuted(IntArrayRef shape, std::vector<int64_t> perm, ScalarType dtype) {
  std::vector<int64_t> base(shape.size());
  int64_t numel = 1;
  for (size_t i = 0; i < perm.size(); ++i) {
    base[size_t(perm[i])] = shape[i];
    numel *= shape[i];
  }
  return distinct(numel, dtype).view(base).permute(perm);
}

const ScalarType kEveryWidth[] = {kBool, kByte,   kShort, kBFloat16,     kHalf,         kFloat,
                                  kInt,  kDouble, kLong,  kComplexFloat, kComplexDouble};

struct PermutedShape {
  std::vector<int64_t> shape, perm;
};
const PermutedShape kPermutedShapes[] = {
    {{37, 45}, {1, 0}},
    {{190, 301}, {1, 0}},
    {{64, 96}, {1, 0}},
    {{9, 200}, {1, 0}},
    {{3, 33, 41}, {0, 2, 1}},
    {{2, 3, 40, 36}, {0, 2, 3, 1}},
    {{5, 70, 3, 33}, {2, 1, 0, 3}},
};

}  // namespace

TEST(TransposeCopy, ContiguousOfPermutedViewsEveryWidth) {
  for (int threads : {1, 2}) {
    Threads t(threads);
    for (ScalarType dtype : kEveryWidth) {
      for (const PermutedShape& l : kPermutedShapes) {
        SCOPED_TRACE(std::string(to_string(dtype)) + " threads " + std::to_string(threads) +
                     " shape " + std::to_string(l.shape[0]) + "x" + std::to_string(l.shape[1]));
        Tensor src = permuted(l.shape, l.perm, dtype);
        Tensor out = src.contiguous();
        ASSERT_TRUE(out.is_contiguous());
        expect_same_elements(out, src);
        // And the other way: a contiguous source into a permuted destination.
        Tensor dst = permuted(l.shape, l.perm, dtype).zero_();
        dst.copy_(out);
        expect_same_elements(dst, out);
      }
    }
  }
}

TEST(TransposeCopy, SlicedAndOffsetViews) {
  Tensor base = distinct(300 * 260, kFloat).view({300, 260});
  for (const Tensor& view : {base.t().slice(1, 0, 300, 2), base.t().slice(0, 0, 260, 2),
                             base.slice(0, 3, 291).slice(1, 5, 250).t(),
                             base.view({30, 10, 260}).transpose(1, 2).slice(2, 1, 9)}) {
    Tensor out = view.contiguous();
    expect_same_elements(out, view);
  }
}

TEST(TransposeCopy, FusedCastsMatchTheElementwiseCast) {
  // The cast of a transposed view equals the transposed view of the contiguous cast (which the
  // element-wise loop computes): bit for bit, NaN and infinities included.
  Tensor f = randn({300, 517}).mul(100);
  float special[] = {NAN, INFINITY, -INFINITY, -0.0f, 1e-40f, 65520.0f};
  f.view({-1}).slice(0, 0, 6).copy_(from_blob(special, {6}));
  for (ScalarType low : {kBFloat16, kHalf}) {
    for (int threads : {1, 2}) {
      Threads t(threads);
      Tensor down = empty({517, 300}, TensorOptions().dtype(low)).copy_(f.t());
      expect_same_elements(down, f.to(low).t());
      Tensor h = f.to(low);
      Tensor up = empty({517, 300}).copy_(h.t());
      expect_same_elements(up, h.to(kFloat).t());
    }
  }
}

TEST(TransposeCopy, ZeroDimAndEmpty) {
  Tensor s = scalar_tensor(2.5);
  Tensor d = empty({}, TensorOptions().dtype(kBFloat16));
  d.copy_(s);
  EXPECT_EQ(d.item<double>(), 2.5);
  for (ScalarType dtype : {kFloat, kBFloat16, kLong}) {
    Tensor e = empty({0, 64}, TensorOptions().dtype(dtype)).t();
    EXPECT_EQ(e.contiguous().sizes(), IntArrayRef({64, 0}));
    Tensor into = empty({64, 0}, TensorOptions().dtype(kBFloat16));
    into.copy_(e);
    EXPECT_EQ(into.numel(), 0);
  }
}
