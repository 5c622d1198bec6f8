// The at:: nn-level ops of issue 15 (nn/activation_functions.h, normalization_functions.h,
// distance_functions.h, rearrange_functions.h, the new losses and dropouts, ops/window.h): the
// libtorch spellings call the same computation as torch::nn::functional, the random ones (rrelu in
// training, native_dropout, feature_alpha_dropout) by property, and errors name the op. Values
// and gradients against PyTorch: tests/conformance/cases_nnops.py.

#include <gtest/gtest.h>

#include <string>

#include "brasa/brasa.h"
#include "brasa/nn/aten_nn_functions.h"

namespace brasa {
namespace {

namespace F = nn::functional;

template <class E, class Fn>
void expect_error(Fn fn, const std::string& text) {
  try {
    fn();
    FAIL() << "no error, expected one containing '" << text << "'";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(NNOps, SameComputationAsFunctional) {
  manual_seed(3);
  Tensor x = randn({3, 4});
  EXPECT_TRUE(equal(gelu(x, "tanh"), F::gelu(x, F::GELUFuncOptions().approximate("tanh"))));
  EXPECT_TRUE(equal(elu(x, 0.5), F::elu(x, F::ELUFuncOptions().alpha(0.5))));
  EXPECT_TRUE(equal(leaky_relu(x), F::leaky_relu(x)));
  EXPECT_TRUE(equal(hardtanh(x, -0.5, 0.5),
                    F::hardtanh(x, F::HardtanhFuncOptions().min_val(-0.5).max_val(0.5))));
  EXPECT_TRUE(
      equal(softplus(x, 2, 10), F::softplus(x, F::SoftplusFuncOptions().beta(2).threshold(10))));
  EXPECT_TRUE(equal(log_sigmoid(x), F::logsigmoid(x)));
  EXPECT_TRUE(equal(glu(x, 1), F::glu(x, F::GLUFuncOptions(1))));
  EXPECT_TRUE(equal(layer_norm(x, {4}), F::layer_norm(x, F::LayerNormFuncOptions({4}))));
  EXPECT_TRUE(
      equal(pad(x, {1, 2}, "reflect"), F::pad(x, F::PadFuncOptions({1, 2}).mode(kReflect))));
  EXPECT_TRUE(equal(cosine_similarity(x, x.flip({0}), 0),
                    F::cosine_similarity(x, x.flip({0}), F::CosineSimilarityFuncOptions().dim(0))));
}

TEST(NNOps, InPlaceFormsReturnSelf) {
  Tensor x = tensor({-2.0, -0.5, 0.5, 8.0});
  Tensor expected = relu6(x);
  Tensor& r = relu6_(x);
  EXPECT_TRUE(r.is_same(x));
  EXPECT_TRUE(equal(x, expected));
  Tensor y = tensor({-2.0, 0.5});
  threshold_(y, 0.0, 7.0);
  EXPECT_TRUE(equal(y, tensor({7.0, 0.5})));
  Tensor z = tensor({0.25, 0.5});
  logit_(z);
  EXPECT_NEAR(z[0].item<double>(), std::log(0.25 / 0.75), 1e-6);
}

TEST(NNOps, RreluTrainingDrawsSlopesInRange) {
  manual_seed(11);
  Tensor x = randn({2000}, TensorOptions().dtype(kDouble));
  Tensor noise = empty_like(x);
  Tensor y = rrelu_with_noise(x, noise, 0.1, 0.3, /*training=*/true);
  Tensor neg = x.le(0);
  Tensor slopes = noise.masked_select(neg);
  EXPECT_TRUE(slopes.ge(0.1).logical_and(slopes.le(0.3)).all().item<bool>());
  EXPECT_TRUE(noise.masked_select(neg.logical_not()).eq(1).all().item<bool>());
  EXPECT_TRUE(allclose(y, x * noise));
  EXPECT_GT(slopes.std().item<double>(), 0.03);  // drawn, not one value
  // Evaluation: the mean slope; the gradient of training mode is the slope used.
  EXPECT_TRUE(equal(rrelu(x, 0.1, 0.3), leaky_relu(x, 0.2)));
  Tensor leaf = x.detach().requires_grad_(true);
  Tensor n2 = empty_like(x);
  rrelu_with_noise(leaf, n2, 0.1, 0.3, true).sum().backward();
  EXPECT_TRUE(allclose(leaf.grad(), n2));
}

TEST(NNOps, NativeDropoutReturnsItsMask) {
  manual_seed(7);
  Tensor x = randn({50000});
  auto [y, mask] = native_dropout(x, 0.3, true);
  EXPECT_EQ(mask.scalar_type(), kBool);
  EXPECT_NEAR(mask.to(kDouble).mean().item<double>(), 0.7, 0.01);
  EXPECT_TRUE(allclose(y, x * mask / 0.7));
  auto [e, all] = native_dropout(x, 0.3, false);
  EXPECT_TRUE(equal(e, x));
  EXPECT_FALSE(e.is_same(x));
  EXPECT_TRUE(all.all().item<bool>());
  EXPECT_TRUE(std::get<0>(native_dropout(x, 1.0, std::nullopt)).eq(0).all().item<bool>());
  expect_error<ValueError>([&] { native_dropout(x, 1.5, true); }, "native_dropout");
}

TEST(NNOps, FeatureAlphaDropoutDropsWholeChannels) {
  manual_seed(9);
  Tensor x = randn({8, 16, 5});
  manual_seed(10);
  Tensor y = feature_alpha_dropout(x, 0.5, true);
  // Each (n, c) channel is either kept (an affine map of x) or dropped (one constant): within a
  // dropped channel all values are equal.
  Tensor spread = (y.amax({2}) - y.amin({2}));
  Tensor dropped = spread.lt(1e-6);
  const double frac = dropped.to(kDouble).mean().item<double>();
  EXPECT_GT(frac, 0.3);
  EXPECT_LT(frac, 0.7);
  EXPECT_TRUE(feature_alpha_dropout(x, 0.5, false).is_same(x));
  manual_seed(10);  // the same draws: one computation for both spellings
  EXPECT_TRUE(equal(
      F::feature_alpha_dropout(x, F::FeatureAlphaDropoutFuncOptions().p(0.5).training(true)), y));
  expect_error<ValueError>([&] { feature_alpha_dropout(randn({4}), 0.5, true); },
                           "feature_alpha_dropout");
}

TEST(NNOps, NativeNormsReturnStatistics) {
  manual_seed(1);
  Tensor x = randn({2, 3, 4}, TensorOptions().dtype(kDouble));
  auto [out, mean, rstd] = native_layer_norm(x, {4}, std::nullopt, std::nullopt, 1e-5);
  EXPECT_EQ(mean.sizes(), IntArrayRef({2, 3, 1}));
  EXPECT_TRUE(allclose(out, (x - mean) * rstd));
  auto [bo, bm, bs] = native_batch_norm(x, {}, {}, {}, {}, true, 0.1, 1e-5);
  EXPECT_EQ(bm.sizes(), IntArrayRef({3}));
  auto [eo, em, es] =
      native_batch_norm(x, {}, {}, zeros({3}, kDouble), ones({3}, kDouble), false, 0.1, 1e-5);
  EXPECT_EQ(em.numel(), 0);
  auto [go, gm, gs] = native_group_norm(x, {}, {}, 2, 3, 4, 3, 1e-5);
  EXPECT_EQ(gm.sizes(), IntArrayRef({2, 3}));
  expect_error<ValueError>([&] { native_group_norm(x, {}, {}, 2, 3, 5, 3, 1e-5); },
                           "native_group_norm");
}

TEST(NNOps, GatheredShardStatisticsAreTheBatchStatistics) {
  // Synchronised batch norm: statistics of two shards of a batch, gathered with their counts,
  // are the statistics of the whole batch (libtorch runs these ops on CUDA only).
  manual_seed(2);
  Tensor x = randn({7, 3, 4}, TensorOptions().dtype(kDouble));
  Tensor a = x.narrow(0, 0, 3), b = x.narrow(0, 3, 4);
  auto [ma, ia] = batch_norm_stats(a, 1e-5);
  auto [mb, ib] = batch_norm_stats(b, 1e-5);
  Tensor rm = zeros({3}, kDouble), rv = ones({3}, kDouble);
  auto [mean, invstd] = batch_norm_gather_stats_with_counts(x, stack({ma, mb}), stack({ia, ib}), rm,
                                                            rv, 0.1, 1e-5, tensor({12.0, 16.0}));
  auto [whole_mean, whole_invstd] = batch_norm_stats(x, 1e-5);
  EXPECT_TRUE(allclose(mean, whole_mean));
  EXPECT_TRUE(allclose(invstd, whole_invstd));
  Tensor rm2 = zeros({3}, kDouble), rv2 = ones({3}, kDouble);
  batch_norm_update_stats(x, rm2, rv2, 0.1);
  EXPECT_TRUE(allclose(rm, rm2));
  EXPECT_TRUE(allclose(rv, rv2));
  // Equal counts: the int64 count overload.
  auto [m2, i2] = batch_norm_gather_stats(x, stack({ma, ma}), stack({ia, ia}), std::nullopt,
                                          std::nullopt, 0.1, 1e-5, 12);
  EXPECT_TRUE(allclose(m2, ma));
  EXPECT_TRUE(allclose(i2, ia));
  expect_error<ValueError>([&] { batch_norm_stats(x[0][0], 1e-5); }, "batch_norm_stats");
}

TEST(NNOps, WindowsTakeOptions) {
  Tensor w = hann_window(8, TensorOptions().dtype(kDouble).requires_grad(true));
  EXPECT_EQ(w.scalar_type(), kDouble);
  EXPECT_TRUE(w.requires_grad());
  EXPECT_EQ(hann_window(8).scalar_type(), kFloat);
  EXPECT_NEAR(hann_window(4, false)[1].item<double>(), 0.75, 1e-7);
  EXPECT_NEAR(kaiser_window(3, false, 0.0)[0].item<double>(), 1.0, 1e-12);  // beta 0: rectangle
  expect_error<TypeError>([] { hamming_window(4, TensorOptions().dtype(kLong)); },
                          "hamming_window");
  expect_error<ValueError>([] { bartlett_window(-2); }, "bartlett_window");
}

TEST(NNOps, ConvDepthwise3dIsGroupedConv3d) {
  // PyTorch 1.13 has this kernel on CUDA only, so it is checked against conv3d with groups = C.
  manual_seed(4);
  Tensor x = randn({2, 3, 4, 5, 4});
  Tensor w = randn({6, 1, 2, 3, 2});
  Tensor b = randn({6});
  EXPECT_TRUE(allclose(conv_depthwise3d(x, w, {2, 3, 2}, b, {1, 2, 1}, {1, 0, 1}, {1, 1, 2}),
                       conv3d(x, w, b, {1, 2, 1}, {1, 0, 1}, {1, 1, 2}, 3)));
  expect_error<ValueError>(
      [&] {
        conv_depthwise3d(x, w, {2, 2, 2}, b, {1}, {0}, {1});
      },
      "conv_depthwise3d");
}

TEST(NNOps, RecurrentLayersMatchTheModules) {
  manual_seed(6);
  nn::LSTM lstm_module(nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true));
  Tensor x = randn({5, 2, 3});
  Tensor h0 = randn({4, 2, 4}), c0 = randn({4, 2, 4});
  auto [out, state] = lstm_module->forward(x, std::make_tuple(h0, c0));
  std::vector<Tensor> params = lstm_module->all_weights();
  std::vector<Tensor> h{h0, c0};
  auto [out2, h_n, c_n] = lstm(x, h, params, true, 2, 0.0, false, true, false);
  EXPECT_TRUE(equal(out, out2));
  EXPECT_TRUE(equal(std::get<0>(state), h_n));
  EXPECT_TRUE(equal(std::get<1>(state), c_n));
  nn::GRU gru_module(nn::GRUOptions(3, 4).batch_first(true));
  Tensor xb = randn({2, 5, 3});
  Tensor g0 = randn({1, 2, 4});
  auto [gout, gh] = gru_module->forward(xb, g0);
  auto [gout2, gh2] = gru(xb, g0, gru_module->all_weights(), true, 1, 0.0, false, false, true);
  EXPECT_TRUE(equal(gout, gout2));
  EXPECT_TRUE(equal(gh, gh2));
}

TEST(NNOps, ErrorsNameTheOp) {
  Tensor x = randn({2, 3, 4});
  expect_error<ValueError>([&] { prelu(x, ones({2})); }, "prelu");
  expect_error<TypeError>([&] { gelu(tensor({1, 2})); }, "gelu");
  expect_error<ValueError>([&] { gelu(x, "fast"); }, "gelu");
  expect_error<ValueError>([&] { pad(x, {1, 1}, "mirror"); }, "pad");
  expect_error<ValueError>([&] { pad(x, {1, 1}, "reflect", 0.0); }, "pad");
  expect_error<ValueError>([&] { channel_shuffle(x, 2); }, "channel_shuffle");
  expect_error<ValueError>([&] { layer_norm(x, {3}); }, "layer_norm");
  expect_error<ValueError>([&] { pdist(x); }, "pdist");
  expect_error<IndexError>(
      [&] {
        multi_margin_loss(x[0], tensor({0, 7, 1}));
      },
      "multi_margin_loss");
  expect_error<ValueError>(
      [&] {
        multi_margin_loss(x[0], tensor({0, 1}), 3);
      },
      "multi_margin_loss");
  expect_error<ValueError>([&] { triplet_margin_loss(x, x[0], x); }, "triplet_margin_loss");
  expect_error<ValueError>([&] { hinge_embedding_loss(x, x, 1.0, 4); }, "hinge_embedding_loss");
}

}  // namespace
}  // namespace brasa
