// The torch::nn catalogue issue 15 adds, spelled as a libtorch 1.13 program spells it: every new
// module with its options and holder, the functional forms with their FuncOptions, the at::
// forms, and torch::nn::utils::rnn packing with forward_with_packed_input. Compiling is most of
// the test; the checks make sure each call did what its name says.
#include <gtest/gtest.h>
#include <torch/nn/modules/adaptive.h>
#include <torch/nn/modules/loss.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/modules/padding.h>
#include <torch/nn/modules/pooling.h>
#include <torch/nn/utils/rnn.h>
#include <torch/torch.h>

namespace F = torch::nn::functional;

TEST(CompatNNCatalogue, PoolingUnpoolingAndPadding) {
  auto x = torch::randn({1, 2, 8, 8});
  torch::Tensor values, indices;
  std::tie(values, indices) = F::max_pool2d_with_indices(x, F::MaxPool2dFuncOptions(2));
  torch::nn::MaxUnpool2d unpool(torch::nn::MaxUnpool2dOptions(2).stride(2));
  EXPECT_EQ(unpool(values, indices).sizes(), torch::IntArrayRef({1, 2, 8, 8}));
  EXPECT_EQ(unpool->forward(values, indices, std::vector<int64_t>{9, 9}).size(3), 9);
  EXPECT_TRUE(F::max_unpool2d(values, indices, F::MaxUnpool2dFuncOptions(2))
                  .equal(unpool(values, indices)));
  auto x1 = torch::randn({1, 2, 8});
  auto pooled = F::max_pool1d_with_indices(x1, F::MaxPool1dFuncOptions(2));
  torch::nn::MaxUnpool1d unpool1(2);
  EXPECT_EQ(unpool1(std::get<0>(pooled), std::get<1>(pooled)).size(2), 8);
  EXPECT_EQ(F::max_unpool1d(std::get<0>(pooled), std::get<1>(pooled),
                            F::MaxUnpool1dFuncOptions(2).output_size(std::vector<int64_t>{9}))
                .size(2),
            9);
  auto x3 = torch::randn({1, 1, 4, 4, 4});
  auto pooled3 = F::max_pool3d_with_indices(x3, F::MaxPool3dFuncOptions(2));
  torch::nn::MaxUnpool3d unpool3(torch::nn::MaxUnpool3dOptions(2));
  EXPECT_EQ(unpool3(std::get<0>(pooled3), std::get<1>(pooled3)).sizes(), x3.sizes());
  EXPECT_EQ(
      F::max_unpool3d(std::get<0>(pooled3), std::get<1>(pooled3), F::MaxUnpool3dFuncOptions(2))
          .sizes(),
      x3.sizes());

  torch::nn::FractionalMaxPool2d frac(torch::nn::FractionalMaxPool2dOptions(3).output_size(5));
  EXPECT_EQ(frac(torch::randn({2, 3, 9, 9})).sizes(), torch::IntArrayRef({2, 3, 5, 5}));
  torch::nn::FractionalMaxPool3d frac3(torch::nn::FractionalMaxPool3dOptions(2).output_ratio(0.5));
  auto with_indices = frac3->forward_with_indices(torch::randn({1, 2, 6, 6, 6}));
  EXPECT_EQ(std::get<1>(with_indices).scalar_type(), torch::kLong);
  auto samples = torch::rand({1, 1, 2});
  auto fixed = F::fractional_max_pool2d(
      x.narrow(1, 0, 1),
      F::FractionalMaxPool2dFuncOptions(2).output_size(4)._random_samples(samples));
  EXPECT_TRUE(fixed.equal(std::get<0>(F::fractional_max_pool2d_with_indices(
      x.narrow(1, 0, 1),
      F::FractionalMaxPool2dFuncOptions(2).output_size(4)._random_samples(samples)))));
  EXPECT_EQ(F::fractional_max_pool3d(x3, F::FractionalMaxPool3dFuncOptions(2).output_size(2)).dim(),
            5);

  EXPECT_EQ(torch::nn::ConstantPad1d(torch::nn::ConstantPad1dOptions({1, 2}, 3.5))(x1).size(2), 11);
  EXPECT_EQ(torch::nn::ConstantPad2d(torch::nn::ConstantPad2dOptions(1, 0.5))(x).size(3), 10);
  EXPECT_EQ(torch::nn::ConstantPad3d(torch::nn::ConstantPad3dOptions(1, 0.0))(x3).size(4), 6);
  EXPECT_EQ(torch::nn::ZeroPad2d(torch::nn::ZeroPad2dOptions({1, 1, 2, 0}))(x).size(2), 10);
  EXPECT_EQ(torch::nn::ReflectionPad1d(torch::nn::ReflectionPad1dOptions(2))(x1).size(2), 12);
  EXPECT_EQ(torch::nn::ReflectionPad2d(2)(x).size(2), 12);
  EXPECT_EQ(torch::nn::ReflectionPad3d(1)(x3).size(2), 6);
  EXPECT_EQ(torch::nn::ReplicationPad1d(1)(x1).size(2), 10);
  EXPECT_EQ(
      torch::nn::ReplicationPad2d(torch::nn::ReplicationPad2dOptions({1, 0, 1, 0}))(x).size(3), 9);
  EXPECT_EQ(torch::nn::ReplicationPad3d(1)(x3).size(3), 6);
}

TEST(CompatNNCatalogue, NormalizationAndDropout) {
  auto x = torch::randn({2, 5, 4, 4});
  torch::nn::LocalResponseNorm lrn(torch::nn::LocalResponseNormOptions(3).alpha(1e-3));
  EXPECT_TRUE(
      lrn(x).allclose(F::local_response_norm(x, F::LocalResponseNormFuncOptions(3).alpha(1e-3))));
  torch::nn::CrossMapLRN2d cross(torch::nn::CrossMapLRN2dOptions(3).k(2));
  EXPECT_EQ(cross(x).sizes(), x.sizes());
  torch::nn::FeatureAlphaDropout drop(torch::nn::FeatureAlphaDropoutOptions(0.2));
  drop->eval();
  EXPECT_TRUE(drop(x).equal(x));
  EXPECT_TRUE(
      F::feature_alpha_dropout(x, F::FeatureAlphaDropoutFuncOptions().p(0.5).training(false))
          .equal(x));
}

TEST(CompatNNCatalogue, Losses) {
  auto x = torch::randn({4, 5}, torch::requires_grad());
  auto y = torch::randint(0, 2, {4, 5}).to(torch::kFloat) * 2 - 1;
  torch::Tensor losses[] = {
      torch::nn::SoftMarginLoss()(x, y),
      torch::nn::SoftMarginLoss(torch::nn::SoftMarginLossOptions(torch::kSum))(x, y),
      F::soft_margin_loss(x, y, F::SoftMarginLossFuncOptions(torch::kNone)).mean(),
      torch::nn::MultiLabelMarginLoss()(
          x, torch::tensor({{1, 2, -1, 0, 0}}).expand({4, 5}).contiguous()),
      F::multilabel_margin_loss(x, torch::zeros({4, 5}, torch::kLong),
                                F::MultilabelMarginLossFuncOptions(torch::kMean)),
      torch::nn::MultiLabelSoftMarginLoss(
          torch::nn::MultiLabelSoftMarginLossOptions().weight(torch::ones({5})))(x, y.clamp_min(0)),
      F::multilabel_soft_margin_loss(x, y.clamp_min(0), F::MultilabelSoftMarginLossFuncOptions()),
      torch::nn::HingeEmbeddingLoss(torch::nn::HingeEmbeddingLossOptions().margin(0.5))(x, y),
      F::hinge_embedding_loss(x, y, F::HingeEmbeddingLossFuncOptions()),
      torch::nn::MultiMarginLoss(torch::nn::MultiMarginLossOptions().p(2))(
          x, torch::tensor({0, 1, 2, 3})),
      F::multi_margin_loss(x, torch::tensor({0, 1, 2, 3}), F::MultiMarginLossFuncOptions()),
      torch::nn::PoissonNLLLoss()(x, y.abs()),
      F::poisson_nll_loss(x, y.abs(), F::PoissonNLLLossFuncOptions().full(true)),
      torch::nn::TripletMarginLoss(torch::nn::TripletMarginLossOptions().swap(true))(x, x * 2, -x),
      F::triplet_margin_loss(x, x * 2, -x, F::TripletMarginLossFuncOptions().p(1)),
      torch::nn::TripletMarginWithDistanceLoss(
          torch::nn::TripletMarginWithDistanceLossOptions()
              .distance_function([](const torch::Tensor& a, const torch::Tensor& b) {
                return 1 - F::cosine_similarity(a, b, F::CosineSimilarityFuncOptions());
              })
              .margin(0.5))(x, x * 2, -x),
      F::triplet_margin_with_distance_loss(x, x * 2, -x,
                                           F::TripletMarginWithDistanceLossFuncOptions()),
  };
  for (const auto& loss : losses) {
    EXPECT_EQ(loss.dim(), 0);
    EXPECT_TRUE(loss.requires_grad());
  }

  auto log_probs = torch::randn({10, 2, 6}).log_softmax(2).detach().requires_grad_();
  auto targets = torch::randint(1, 6, {2, 4}, torch::kLong);
  auto input_lengths = torch::full({2}, 10, torch::kLong);
  auto target_lengths = torch::tensor({4, 3});
  torch::nn::CTCLoss ctc(torch::nn::CTCLossOptions().blank(0).zero_infinity(true));
  auto loss = ctc(log_probs, targets, input_lengths, target_lengths);
  loss.backward();
  EXPECT_EQ(log_probs.grad().sizes(), log_probs.sizes());
  EXPECT_TRUE(loss.allclose(F::ctc_loss(log_probs, targets, input_lengths, target_lengths,
                                        F::CTCLossFuncOptions().reduction(torch::kMean))));
  EXPECT_TRUE(loss.allclose(torch::ctc_loss(log_probs, targets, {10, 10}, {4, 3})));
  EXPECT_TRUE(loss.allclose(at::ctc_loss(log_probs, targets, input_lengths, target_lengths, 0,
                                         at::Reduction::Mean, false)));

  torch::nn::AdaptiveLogSoftmaxWithLoss asm_(
      torch::nn::AdaptiveLogSoftmaxWithLossOptions(8, 20, {5, 10}).div_value(2.).head_bias(true));
  auto input = torch::randn({3, 8});
  torch::nn::ASMoutput out = asm_(input, torch::tensor({1, 7, 19}));
  double mean_loss = out.loss;
  EXPECT_EQ(out.output.sizes(), torch::IntArrayRef({3}));
  EXPECT_NEAR(mean_loss, -out.output.mean().item<double>(), 1e-6);
  EXPECT_EQ(asm_->log_prob(input).sizes(), torch::IntArrayRef({3, 20}));
  EXPECT_EQ(asm_->predict(input).scalar_type(), torch::kLong);
}

TEST(CompatNNCatalogue, PackedSequences) {
  using torch::nn::utils::rnn::PackedSequence;
  auto x = torch::randn({3, 5, 4});  // batch_first
  auto lengths = torch::tensor({3, 5, 2});
  PackedSequence packed = torch::nn::utils::rnn::pack_padded_sequence(
      x, lengths, /*batch_first=*/true, /*enforce_sorted=*/false);
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(4, 6).num_layers(2));
  std::tuple<PackedSequence, std::tuple<torch::Tensor, torch::Tensor>> result =
      lstm->forward_with_packed_input(packed);
  torch::Tensor padded, out_lengths;
  std::tie(padded, out_lengths) =
      torch::nn::utils::rnn::pad_packed_sequence(std::get<0>(result), /*batch_first=*/true);
  EXPECT_EQ(padded.sizes(), torch::IntArrayRef({3, 5, 6}));
  EXPECT_TRUE(out_lengths.equal(torch::tensor({3, 5, 2})));
  torch::nn::GRU gru(torch::nn::GRUOptions(4, 6));
  auto gru_out = gru->forward_with_packed_input(packed, torch::zeros({1, 3, 6}));
  EXPECT_EQ(std::get<1>(gru_out).sizes(), torch::IntArrayRef({1, 3, 6}));
  torch::nn::RNN rnn(torch::nn::RNNOptions(4, 6));
  auto seqs = std::vector<torch::Tensor>{torch::randn({4, 4}), torch::randn({2, 4})};
  auto rnn_out = rnn->forward_with_packed_input(torch::nn::utils::rnn::pack_sequence(seqs));
  EXPECT_EQ(std::get<0>(rnn_out).data().size(0), 6);
  EXPECT_EQ(torch::nn::utils::rnn::pad_sequence(seqs, true).sizes(), torch::IntArrayRef({2, 4, 4}));
  EXPECT_FALSE(packed.is_cuda());
  EXPECT_TRUE(packed.to(torch::kDouble).data().scalar_type() == torch::kDouble);
  EXPECT_TRUE(torch::nn::utils::rnn::invert_permutation(packed.sorted_indices())
                  .equal(packed.unsorted_indices()));
  auto raw =
      torch::_pack_padded_sequence(x.transpose(0, 1).index_select(1, packed.sorted_indices()),
                                   lengths.index_select(0, packed.sorted_indices()), false);
  EXPECT_TRUE(std::get<1>(raw).equal(packed.batch_sizes()));
}
