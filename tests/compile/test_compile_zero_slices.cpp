// Zero-filled buffers that each hold one slice, summed in place (select's backward, as attention's
// q, k, v come out of one projection): the compiled graph adds each slice into the first buffer
// instead (Note [Zero slices] in src/compile/zero_slices.cpp). Results equal eager's (== on every
// element: only the sign of a zero may differ); buffers that are read elsewhere, or slices written
// twice, are left as traced.
#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using ZeroSlices = CompileTest;

bool equal_values(const Tensor& a, const Tensor& b) {
  return a.sizes() == b.sizes() && a.eq(b).all().item<bool>();
}

Tensor one_slice(const Tensor& like, int64_t k, const Tensor& part) {
  Tensor z = brasa::empty(like.sizes(), like.options()).fill_(0);
  z.select(0, k).copy_(part);
  return z;
}

TEST_F(ZeroSlices, ThreeBuffersSummedInPlaceBecomeSliceAdds) {
  auto fn = [](const Tensor& x, const Tensor& y, const Tensor& w) {
    const Tensor like = brasa::empty({3, 4, 5});
    Tensor a = one_slice(like, 0, x);
    a.add_(one_slice(like, 2, y));
    a.add_(one_slice(like, 1, w));
    return a.permute({1, 0, 2}).contiguous() * 2.0;
  };
  auto f = brasa::compile(fn);
  const Tensor x = randn({4, 5}), y = randn({4, 5}), w = randn({4, 5});
  f(x, y, w);
  EXPECT_TRUE(equal_values(f(x, y, w), fn(x, y, w)));
}

TEST_F(ZeroSlices, ABufferReadElsewhereOrASliceWrittenTwiceStays) {
  auto fn = [](const Tensor& x, const Tensor& y) {
    const Tensor like = brasa::empty({2, 6});
    Tensor a = one_slice(like, 0, x);
    Tensor b = one_slice(like, 1, y);
    a.add_(b);
    Tensor c = one_slice(like, 0, y);
    Tensor d = one_slice(like, 0, x);
    c.add_(d);  // slice 0 twice: c's slice 0 is not zero
    return std::vector<Tensor>{a + 0.5, b * 3.0, c - 1.0};  // b is read after the add
  };
  auto f = brasa::compile(fn);
  const Tensor x = randn({6}), y = randn({6});
  f(x, y);
  const std::vector<Tensor> got = f(x, y), want = fn(x, y);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(bitwise_equal(got[i], want[i])) << i;
}

// Note [Slices written in place]: the first test's buffer (all three slices written) is copied
// through its permute with no fill; here one slice is never written, so its zeros must stay, and
// a buffer whose permute is read twice keeps its copy.
TEST_F(ZeroSlices, PermutedCopyOfAPartlyWrittenBufferKeepsItsZeros) {
  auto fn = [](const Tensor& x, const Tensor& y) {
    const Tensor like = brasa::empty({3, 4, 5});
    Tensor a = one_slice(like, 0, x);
    a.add_(one_slice(like, 2, y));
    Tensor b = one_slice(like, 1, y);
    b.add_(one_slice(like, 0, x));
    b.add_(one_slice(like, 2, x));
    const Tensor bp = b.permute({2, 0, 1});
    return std::vector<Tensor>{a.permute({1, 2, 0}).contiguous(), bp.contiguous(), bp * 2.0};
  };
  auto f = brasa::compile(fn);
  const Tensor x = randn({4, 5}), y = randn({4, 5});
  f(x, y);
  const std::vector<Tensor> got = f(x, y), want = fn(x, y);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(equal_values(got[i], want[i])) << i;
  EXPECT_TRUE(got[0].is_contiguous());
}

// The attention pattern through autograd: q, k, v selected from one [3, ...] view; the compiled
// backward's gradient of the projection equals eager's. (Here the engine sums the three buffers
// out of place, which the pass leaves alone; the GPT's in-place form is checked by
// CompiledGpt.TrainingStepLossAndGradientsEqualEager.)
TEST_F(ZeroSlices, GradientOfSelectedPartsEqualsEager) {
  auto loss_fn = [](const Tensor& h) {
    const Tensor parts = h.view({2, 5, 3, 4}).permute({2, 0, 1, 3});
    return (parts[0] * parts[1] + parts[2].tanh()).sum();
  };
  auto f = brasa::compile(loss_fn);
  const Tensor h = randn({2, 5, 12});
  for (int call = 0; call < 2; ++call) {
    Tensor e = h.detach().clone().requires_grad_(), c = h.detach().clone().requires_grad_();
    loss_fn(e).backward();
    f(c).backward();
    EXPECT_TRUE(equal_values(c.grad(), e.grad()));
  }
  EXPECT_EQ(compile_stats().backward_graphs, 1);
}

}  // namespace
}  // namespace brasa::compile_test
