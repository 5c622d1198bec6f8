// nn::utils: gradient clipping against PyTorch 1.13 and parameter/vector conversion.
#include <gtest/gtest.h>

#include <limits>

#include "brasa/brasa.h"

using namespace brasa;
namespace utils = brasa::nn::utils;

namespace {
std::vector<Tensor> params_with_grads() {
  auto a = tensor({{1.0f, 2.0f}, {3.0f, 4.0f}}).requires_grad_();
  auto b = tensor({5.0f, -6.0f}).requires_grad_();
  a.mutable_grad() = tensor({{1.0f, 2.0f}, {3.0f, 4.0f}});
  b.mutable_grad() = tensor({5.0f, -6.0f});
  return {a, b};
}
}  // namespace

TEST(NNUtils, ClipGradNormMatchesPyTorch) {
  auto p = params_with_grads();
  EXPECT_NEAR(utils::clip_grad_norm_(p, 5.0), 9.539392471313477, 1e-5);
  EXPECT_TRUE(p[0].grad().allclose(
      tensor({{0.524142324924469f, 1.048284649848938f}, {1.5724270343780518f, 2.096569299697876f}}),
      1e-5, 1e-6));
  EXPECT_TRUE(p[1].grad().allclose(tensor({2.6207115650177f, -3.1448540687561035f}), 1e-5, 1e-6));
  p = params_with_grads();
  EXPECT_DOUBLE_EQ(utils::clip_grad_norm_(p, 3.0, std::numeric_limits<double>::infinity()), 6.0);
  EXPECT_TRUE(p[1].grad().allclose(tensor({2.5f, -3.0f}), 1e-5, 1e-6));
  p = params_with_grads();
  EXPECT_DOUBLE_EQ(utils::clip_grad_norm_(p, 100.0, 1.0), 21.0);
  EXPECT_TRUE(p[0].grad().equal(tensor({{1.0f, 2.0f}, {3.0f, 4.0f}})));  // under the limit
  p[0].mutable_grad() = tensor({{std::numeric_limits<float>::quiet_NaN(), 1.0f}, {1.0f, 1.0f}});
  EXPECT_THROW(utils::clip_grad_norm_(p, 1.0, 2.0, true), ValueError);
  EXPECT_EQ(utils::clip_grad_norm_(std::vector<Tensor>{ones({2})}, 1.0), 0.0);  // no grads
}

TEST(NNUtils, ClipGradValue) {
  auto p = params_with_grads();
  utils::clip_grad_value_(p, 2.5);
  EXPECT_TRUE(p[0].grad().equal(tensor({{1.0f, 2.0f}, {2.5f, 2.5f}})));
  EXPECT_TRUE(p[1].grad().equal(tensor({2.5f, -2.5f})));
}

TEST(NNUtils, ParametersVectorRoundTrip) {
  nn::Linear fc(3, 2);
  auto vec = utils::parameters_to_vector(fc->parameters());
  EXPECT_EQ(vec.sizes(), IntArrayRef({8}));
  EXPECT_TRUE(vec.slice(0, 0, 6).equal(fc->weight.detach().reshape({-1})));
  utils::vector_to_parameters(arange(8).to(kFloat), fc->parameters());
  EXPECT_TRUE(fc->bias.detach().equal(tensor({6.0f, 7.0f})));
  EXPECT_TRUE(fc->weight.is_leaf());
  EXPECT_THROW(utils::vector_to_parameters(arange(7).to(kFloat), fc->parameters()), ValueError);
}
