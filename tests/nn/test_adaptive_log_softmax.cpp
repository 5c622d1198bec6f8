// AdaptiveLogSoftmaxWithLoss: parameter names, outputs, loss, log_prob, predict and gradients
// equal PyTorch 1.13's for the same weights and inputs; bad cutoffs and targets throw.
#include <gtest/gtest.h>

#include "brasa/brasa.h"
#include "support/torch_oracle.h"

using namespace brasa;
namespace oracle = brasa::testing_oracle;

namespace {

nn::AdaptiveLogSoftmaxWithLoss make(bool head_bias) {
  nn::AdaptiveLogSoftmaxWithLoss m(
      nn::AdaptiveLogSoftmaxWithLossOptions(8, 10, {3, 6}).div_value(2.0).head_bias(head_bias));
  m->to(kDouble);
  oracle::fill_params(*m);
  return m;
}

const char* kPrelude = R"PY(
def make(head_bias):
    m = torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [3, 6], div_value=2.0, head_bias=head_bias)
    fill(m)
    return m
)PY";

}  // namespace

TEST(NNAdaptiveLogSoftmax, ParametersAreNamedAsPyTorch) {
  auto m = make(true);
  std::vector<std::string> names;
  for (auto& p : m->named_parameters()) names.push_back(p.key() + std::to_string(p.value().dim()));
  EXPECT_EQ(names,
            (std::vector<std::string>{"head.weight2", "head.bias1", "tail.0.0.weight2",
                                      "tail.0.1.weight2", "tail.1.0.weight2", "tail.1.1.weight2"}));
  EXPECT_EQ(m->head->weight.sizes(), IntArrayRef({5, 8}));
  EXPECT_EQ(m->tail->at<nn::SequentialImpl>(1).at<nn::LinearImpl>(0).weight.sizes(),
            IntArrayRef({2, 8}));
  EXPECT_EQ(m->shortlist_size, 3);
  EXPECT_EQ(m->n_clusters, 2);
  EXPECT_EQ(m->head_size, 5);
}

TEST(NNAdaptiveLogSoftmax, ForwardLogProbAndPredictMatchTorch) {
  for (bool head_bias : {false, true}) {
    auto m = make(head_bias);
    Tensor x = oracle::input({6, 8}, 0);
    Tensor target =
        detail::tensor_from_array(std::vector<int64_t>{0, 4, 9, 2, 7, 5}.data(), 6, kLong);
    auto out = m(x, target);
    Tensor log_prob = m->log_prob(x);
    auto ref = oracle::run_python(std::string(kPrelude) +
                                  (head_bias ? "m = make(True)\n" : "m = make(False)\n") + R"PY(
x = inp([6, 8], 0)
o = m(x, torch.tensor([0, 4, 9, 2, 7, 5]))
pr('loss', o.loss.reshape(1))
pr('predict', m.predict(x).double())
report(m, [x], [o.output, m.log_prob(x)])
)PY");
    oracle::compare(*m, {x}, {out.output, log_prob}, ref);
    oracle::expect_close("loss", full({1}, out.loss, kDouble), ref);
    oracle::expect_close("predict", m->predict(x.detach()).to(kDouble), ref);
  }
}

TEST(NNAdaptiveLogSoftmax, UnbatchedAndAllInShortlist) {
  auto m = make(false);
  Tensor x = oracle::input({8}, 0);
  auto out = m(x, full({}, 8, kLong));
  EXPECT_EQ(out.output.dim(), 0);
  auto ref = oracle::run_python(std::string(kPrelude) + R"PY(
m = make(False)
x = inp([8], 0)
o = m(x, torch.tensor(8))
pr('out', o.output.reshape(1))
pr('predict', m.predict(inp([2, 8], 1) * 0.01).double())
)PY");
  oracle::expect_close("out", out.output.reshape({1}), ref);
  oracle::expect_close("predict", m->predict(oracle::input({2, 8}, 1).detach() * 0.01).to(kDouble),
                       ref);
}

TEST(NNAdaptiveLogSoftmax, BadCutoffsAndTargetsThrow) {
  using Options = nn::AdaptiveLogSoftmaxWithLossOptions;
  EXPECT_THROW(nn::AdaptiveLogSoftmaxWithLoss(Options(8, 10, {6, 3})), ValueError);
  EXPECT_THROW(nn::AdaptiveLogSoftmaxWithLoss(Options(8, 10, {3, 3})), ValueError);
  EXPECT_THROW(nn::AdaptiveLogSoftmaxWithLoss(Options(8, 10, {0, 3})), ValueError);
  EXPECT_THROW(nn::AdaptiveLogSoftmaxWithLoss(Options(8, 10, {3, 10})), ValueError);
  auto m = make(false);
  Tensor x = randn({2, 8}, kDouble);
  try {
    m(x, full({2}, 10, kLong));
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("AdaptiveLogSoftmaxWithLoss"), std::string::npos);
  }
  EXPECT_THROW(m(x, full({3}, 1, kLong)), ValueError);
  EXPECT_THROW(m(randn({2, 7}, kDouble), full({2}, 1, kLong)), ValueError);
  std::ostringstream s;
  s << *m;
  EXPECT_EQ(s.str().rfind("torch::nn::AdaptiveLogSoftmaxWithLoss", 0), 0u) << s.str();
}
