// Finite-difference checks of cross_entropy's two paths (Note [Cross-entropy fast path]).

#include <gtest/gtest.h>

#include "brasa/brasa.h"

namespace brasa {
namespace {

namespace F = nn::functional;
using autograd::variable_list;

TEST(LossGrad, CrossEntropyFastAndGeneralPathsAgree) {
  Generator g = make_generator(5);
  Tensor x = randn({4, 5}, g, TensorOptions(kDouble)).requires_grad_(true);
  Tensor t = tensor(std::vector<int64_t>{0, 4, 2, 2});
  auto fast = [&](const variable_list& in) -> variable_list {
    return {F::cross_entropy(in[0], t)};
  };
  // A weight of ones takes the general path with the same value.
  auto general = [&](const variable_list& in) -> variable_list {
    return {F::cross_entropy(in[0], t, F::CrossEntropyFuncOptions().weight(ones({5}, kDouble)))};
  };
  EXPECT_TRUE(autograd::gradcheck(fast, {x}));
  EXPECT_TRUE(autograd::gradgradcheck(fast, {x}));
  EXPECT_TRUE(autograd::gradcheck(general, {x}));
  Tensor a = fast({x})[0], b = general({x})[0];
  EXPECT_NEAR(a.item<double>(), b.item<double>(), 1e-12);
  EXPECT_EQ(a.grad_fn()->name(), "NllLossBackward0");
}

TEST(LossGrad, CrossEntropyOutOfRangeClassStillRaises) {
  Tensor x = zeros({2, 3}).requires_grad_(true);
  EXPECT_THROW(F::cross_entropy(x, tensor(std::vector<int64_t>{0, 3})), Error);
}

}  // namespace
}  // namespace brasa
