// The unfold(dimension, size, step) view op (src/ops/view/unfold_ops.cpp) beyond its conformance
// cases (family views): first and second derivatives against finite differences, the Meta
// kernel's geometry, writes through the view, and unfold_backward's checks. Tensor::unfold is not
// a member yet (docs/compat.md), so the op is called through the dispatcher.
#include <gtest/gtest.h>

#include "brasa/brasa.h"
#include "brasa/dispatch/dispatcher.h"

using namespace brasa;

namespace {

Tensor unfold(const Tensor& self, int64_t dim, int64_t size, int64_t step) {
  Stack stack{Value(self), Value(dim), Value(size), Value(step)};
  find_op("unfold")->call_boxed(stack);
  return stack.at(0).tensor();
}

}  // namespace

TEST(Unfold, FirstAndSecondDerivativesMatchFiniteDifferences) {
  Tensor x = randn({3, 7, 2}, kDouble).requires_grad_();
  for (auto [size, step] : {std::pair<int64_t, int64_t>{3, 1}, {2, 2}, {3, 3}, {1, 4}}) {
    auto fn = [size, step](const autograd::variable_list& in) -> autograd::variable_list {
      Tensor windows = unfold(in[0], 1, size, step);
      return {windows * windows};  // non-linear, so the second derivative is not zero
    };
    EXPECT_TRUE(autograd::gradcheck(fn, {x})) << "size " << size << " step " << step;
    EXPECT_TRUE(autograd::gradgradcheck(fn, {x})) << "size " << size << " step " << step;
  }
}

TEST(Unfold, IsAViewAndTheMetaKernelGivesTheSameGeometry) {
  Tensor x = arange(24.0).reshape({2, 3, 4}).transpose(0, 2);  // [4, 3, 2], strides [1, 4, 12]
  Tensor u = unfold(x, 0, 2, 1);
  EXPECT_EQ(u.sizes().vec(), std::vector<int64_t>({3, 3, 2, 2}));
  EXPECT_EQ(u.strides().vec(), std::vector<int64_t>({1, 4, 12, 1}));
  Tensor m = unfold(empty({4, 3, 2}, TensorOptions(kFloat).device(kMeta)).transpose(0, 2), 2, 2, 1);
  EXPECT_EQ(m.sizes().vec(), std::vector<int64_t>({2, 3, 3, 2}));
  u.select(0, 1).fill_(-1);  // the second window of dim 0 covers rows 1 and 2 of x
  EXPECT_TRUE(x.select(0, 1).eq(-1).all().item<bool>());
  EXPECT_TRUE(x.select(0, 2).eq(-1).all().item<bool>());
  EXPECT_FALSE(x.select(0, 0).eq(-1).any().item<bool>());
}

TEST(Unfold, BackwardAddsOverlappingWindowsAndChecksItsGradient) {
  Tensor g = ones({4, 3});  // windows of 3 elements every step of 2 over 9 elements
  Tensor grad = unfold_backward(g, {9}, 0, 3, 2);
  EXPECT_TRUE(grad.equal(tensor({1.0f, 1.0f, 2.0f, 1.0f, 2.0f, 1.0f, 2.0f, 1.0f, 1.0f})));
  EXPECT_THROW(unfold_backward(ones({4, 2}), {9}, 0, 3, 2), ValueError);
  EXPECT_THROW(unfold_backward(g, {9}, 0, 3, 0), ValueError);
  EXPECT_THROW(unfold_backward(g, {9}, 1, 3, 2), IndexError);
  EXPECT_THROW(unfold(arange(5), 0, 6, 1), ValueError);
  EXPECT_THROW(unfold(arange(5), 0, 2, 0), ValueError);
  EXPECT_THROW(unfold(arange(5), 0, -1, 1), ValueError);
  EXPECT_THROW(unfold(arange(5), 1, 2, 1), IndexError);
}
