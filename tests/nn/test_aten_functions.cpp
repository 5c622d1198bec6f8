// The at:: loss and dropout functions (nn/loss_functions.h, nn/dropout_functions.h): libtorch's
// defaults, the int64_t reduction, the optional weights, errors that name the op, and dropout's
// random masks (values and gradients against PyTorch are in tests/conformance/cases_nnaten.py).

#include <gtest/gtest.h>

#include "brasa/brasa.h"

namespace brasa {
namespace {

namespace F = nn::functional;

TEST(AtenLosses, DefaultsAreLibtorchs) {
  Tensor x = tensor({{0.5, -1.0}, {2.0, 0.25}});
  Tensor y = tensor({{1.0, 1.0}, {-1.0, 0.0}});
  EXPECT_TRUE(equal(mse_loss(x, y), F::mse_loss(x, y)));  // mean
  EXPECT_TRUE(equal(smooth_l1_loss(x, y), F::smooth_l1_loss(x, y)));
  EXPECT_TRUE(equal(mse_loss(x, y, Reduction::Sum), F::mse_loss(x, y, kSum)));
  EXPECT_TRUE(equal(l1_loss(x, y, Reduction::None), F::l1_loss(x, y, kNone)));
  EXPECT_EQ(static_cast<int64_t>(Reduction::None), 0);
  EXPECT_EQ(static_cast<int64_t>(Reduction::Mean), 1);
  EXPECT_EQ(static_cast<int64_t>(Reduction::Sum), 2);

  Tensor logp = log_softmax(x, 1);
  Tensor t = tensor({1, 0});
  Tensor w = tensor({2.0, 0.5});
  EXPECT_TRUE(equal(nll_loss(logp, t), F::nll_loss(logp, t)));
  // no weight, an undefined weight and nullopt are the same; a weight is used
  EXPECT_TRUE(equal(nll_loss(logp, t, Tensor()), nll_loss(logp, t, std::nullopt)));
  EXPECT_TRUE(equal(nll_loss(logp, t, w, Reduction::Sum),
                    F::nll_loss(logp, t, F::NLLLossFuncOptions(kSum).weight(w))));
  EXPECT_TRUE(equal(nll_loss(logp, t, {}, Reduction::Mean, /*ignore_index=*/1),
                    F::nll_loss(logp, t, F::NLLLossFuncOptions().ignore_index(1))));
}

TEST(AtenLosses, ErrorsNameTheOp) {
  Tensor x = ones({2, 3});
  try {
    mse_loss(x, x, 3);
    FAIL() << "reduction 3 accepted";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("mse_loss: expected reduction"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(kl_div(x, x, -1), ValueError);
  EXPECT_THROW(nll_loss2d(log_softmax(x, 1), tensor({0, 1})), ValueError);
  EXPECT_THROW(nll_loss(x, tensor({0.0, 1.0})), TypeError);  // float target
  EXPECT_THROW(nll_loss(x, tensor({0, 3})), IndexError);     // class out of range
}

TEST(AtenDropout, MasksAndInPlaceForms) {
  manual_seed(5);
  Tensor x = ones({100000});
  Tensor y = dropout(x, 0.25, /*train=*/true);
  EXPECT_NEAR(y.ne(0).to(kDouble).mean().item<double>(), 0.75, 0.01);
  EXPECT_TRUE(y.eq(0).logical_or(y.eq(1.0 / 0.75)).all().item<bool>());
  EXPECT_TRUE(dropout(x, 0.25, /*train=*/false).is_same(x));
  EXPECT_THROW(dropout(x, -0.5, true), ValueError);
  EXPECT_THROW(dropout(tensor({1, 2}), 0.5, true), TypeError);

  Tensor z = ones({1000});
  Tensor& r = dropout_(z, 0.5, true);
  EXPECT_TRUE(r.is_same(z));
  EXPECT_TRUE(z.eq(0).any().item<bool>());
  EXPECT_TRUE(z.eq(2).any().item<bool>());

  Tensor c = ones({16, 32, 2, 2});
  feature_dropout_(c, 0.5, true);
  EXPECT_TRUE(equal(c.amax({2, 3}), c.amin({2, 3})));  // whole channels
  EXPECT_THROW(feature_dropout(ones({3}), 0.5, true), ValueError);

  Tensor n = randn({200000}, kDouble);
  Tensor a = alpha_dropout(n, 0.2, true);
  EXPECT_NEAR(a.mean().item<double>(), 0.0, 0.02);
  EXPECT_NEAR(a.std().item<double>(), 1.0, 0.02);
  Tensor m = n.clone();
  EXPECT_TRUE(alpha_dropout_(m, 0.2, true).is_same(m));
  EXPECT_FALSE(equal(m, n));
}

TEST(AtenDropout, GradientIsTheMask) {
  manual_seed(9);
  Tensor x = ones({50}, kDouble).requires_grad_();
  Tensor y = dropout(x, 0.5, true);
  y.sum().backward();
  EXPECT_TRUE(equal(x.grad(), y.detach()));  // y = x * mask with x = 1
}

}  // namespace
}  // namespace brasa
