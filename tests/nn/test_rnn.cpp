// RNN/LSTM/GRU layers and cells: outputs and gradients equal PyTorch 1.13's for the same weights
// and inputs; printing; shape errors.
#include <gtest/gtest.h>

#include <sstream>

#include "brasa/brasa.h"
#include "support/torch_oracle.h"

using namespace brasa;
namespace oracle = brasa::testing_oracle;

namespace {
template <typename M>
std::string printed(const M& m) {
  std::ostringstream s;
  s << m;
  return s.str();
}
}  // namespace

TEST(NNRnn, LstmTwoLayerBidirectionalBatchFirstMatchesTorch) {
  nn::LSTM lstm(nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true).batch_first(true));
  lstm->to(kDouble);
  oracle::fill_params(*lstm);
  auto x = oracle::input({2, 5, 3}, 0);
  auto h0 = oracle::input({4, 2, 4}, 1);
  auto c0 = oracle::input({4, 2, 4}, 2);
  auto [out, state] = lstm(x, std::make_tuple(h0, c0));
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 5, 8}));
  auto ref = oracle::run_python(R"PY(
m = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True); fill(m)
x, h0, c0 = inp([2, 5, 3], 0), inp([4, 2, 4], 1), inp([4, 2, 4], 2)
report(m, [x, h0, c0], m(x, (h0, c0)))
)PY");
  oracle::compare(*lstm, {x, h0, c0}, {out, std::get<0>(state), std::get<1>(state)}, ref);
}

// proj_size: h is projected by weight_hr to proj_size; c keeps hidden_size.
TEST(NNRnn, LstmWithProjectionMatchesTorch) {
  nn::LSTM lstm(nn::LSTMOptions(3, 5).num_layers(2).proj_size(2));
  lstm->to(kDouble);
  oracle::fill_params(*lstm);
  auto x = oracle::input({4, 2, 3}, 0);
  auto h0 = oracle::input({2, 2, 2}, 1);
  auto c0 = oracle::input({2, 2, 5}, 2);
  auto [out, state] = lstm(x, std::make_tuple(h0, c0));
  EXPECT_EQ(out.sizes(), IntArrayRef({4, 2, 2}));
  EXPECT_EQ(std::get<1>(state).sizes(), IntArrayRef({2, 2, 5}));
  std::vector<std::string> names;
  for (auto& p : lstm->named_parameters()) names.push_back(p.key());
  EXPECT_EQ(names,
            (std::vector<std::string>{"weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0",
                                      "weight_hr_l0", "weight_ih_l1", "weight_hh_l1", "bias_ih_l1",
                                      "bias_hh_l1", "weight_hr_l1"}));
  auto ref = oracle::run_python(R"PY(
m = torch.nn.LSTM(3, 5, num_layers=2, proj_size=2); fill(m)
x, h0, c0 = inp([4, 2, 3], 0), inp([2, 2, 2], 1), inp([2, 2, 5], 2)
report(m, [x, h0, c0], m(x, (h0, c0)))
)PY");
  oracle::compare(*lstm, {x, h0, c0}, {out, std::get<0>(state), std::get<1>(state)}, ref);
}

TEST(NNRnn, LstmWithProjectionBidirectionalBatchFirstMatchesTorch) {
  nn::LSTM lstm(
      nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true).batch_first(true).proj_size(3));
  lstm->to(kDouble);
  oracle::fill_params(*lstm);
  auto x = oracle::input({2, 5, 3}, 0);
  auto [out, state] = lstm(x);
  EXPECT_EQ(out.sizes(), IntArrayRef({2, 5, 6}));
  EXPECT_EQ(std::get<0>(state).sizes(), IntArrayRef({4, 2, 3}));
  EXPECT_EQ(std::get<1>(state).sizes(), IntArrayRef({4, 2, 4}));
  auto ref = oracle::run_python(R"PY(
m = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True, proj_size=3); fill(m)
x = inp([2, 5, 3], 0)
report(m, [x], m(x))
)PY");
  oracle::compare(*lstm, {x}, {out, std::get<0>(state), std::get<1>(state)}, ref);
}

// libtorch's RNNTest.CheckOutputSizesProj.
TEST(NNRnn, LstmWithProjectionOutputSizes) {
  nn::LSTM model(nn::LSTMOptions(128, 64).num_layers(3).dropout(0.2).proj_size(32));
  auto x = randn({10, 16, 128}, requires_grad());
  auto [out, hids] = model(x);
  auto [h, c] = hids;
  out.sum().backward();
  EXPECT_EQ(out.sizes(), IntArrayRef({10, 16, 32}));
  EXPECT_EQ(h.sizes(), IntArrayRef({3, 16, 32}));
  EXPECT_EQ(c.sizes(), IntArrayRef({3, 16, 64}));
  EXPECT_GT(h.norm().item<double>(), 0);
  EXPECT_GT(c.norm().item<double>(), 0);
  auto [next_out, next_hids] = model(x, hids);
  EXPECT_FALSE(std::get<0>(next_hids).allclose(h));
  EXPECT_EQ(model->named_parameters()["weight_hr_l0"].sizes(), IntArrayRef({32, 64}));
}

TEST(NNRnn, GruMatchesTorch) {
  nn::GRU gru(nn::GRUOptions(3, 5).num_layers(2));
  gru->to(kDouble);
  oracle::fill_params(*gru);
  auto x = oracle::input({4, 2, 3}, 0);
  auto [out, h] = gru(x);
  auto ref = oracle::run_python(R"PY(
m = torch.nn.GRU(3, 5, num_layers=2); fill(m)
x = inp([4, 2, 3], 0)
report(m, [x], m(x))
)PY");
  oracle::compare(*gru, {x}, {out, h}, ref);
}

TEST(NNRnn, RnnReluBidirectionalMatchesTorch) {
  nn::RNN rnn(nn::RNNOptions(3, 4).nonlinearity(kReLU).bidirectional(true));
  rnn->to(kDouble);
  oracle::fill_params(*rnn);
  auto x = oracle::input({5, 2, 3}, 0);
  auto h0 = oracle::input({2, 2, 4}, 1);
  auto [out, h] = rnn(x, h0);
  auto ref = oracle::run_python(R"PY(
m = torch.nn.RNN(3, 4, nonlinearity='relu', bidirectional=True); fill(m)
x, h0 = inp([5, 2, 3], 0), inp([2, 2, 4], 1)
report(m, [x, h0], m(x, h0))
)PY");
  oracle::compare(*rnn, {x, h0}, {out, h}, ref);
}

TEST(NNRnn, UnbatchedGruWithoutBiasMatchesTorch) {
  nn::GRU gru(nn::GRUOptions(3, 4).bias(false));
  gru->to(kDouble);
  oracle::fill_params(*gru);
  auto x = oracle::input({6, 3}, 0);
  auto [out, h] = gru(x);
  EXPECT_EQ(h.sizes(), IntArrayRef({1, 4}));
  auto ref = oracle::run_python(R"PY(
m = torch.nn.GRU(3, 4, bias=False); fill(m)
x = inp([6, 3], 0)
report(m, [x], m(x))
)PY");
  oracle::compare(*gru, {x}, {out, h}, ref);
}

TEST(NNRnn, CellsMatchTorch) {
  nn::LSTMCell lstm(3, 4);
  nn::GRUCell gru(3, 4);
  nn::RNNCell rnn(nn::RNNCellOptions(3, 4).nonlinearity(kReLU));
  for (nn::Module* m : {static_cast<nn::Module*>(lstm.get()), static_cast<nn::Module*>(gru.get()),
                        static_cast<nn::Module*>(rnn.get())}) {
    m->to(kDouble);
    oracle::fill_params(*m);
  }
  auto x = oracle::input({2, 3}, 0);
  auto h0 = oracle::input({2, 4}, 1);
  auto c0 = oracle::input({2, 4}, 2);
  auto [h1, c1] = lstm(x, std::make_tuple(h0, c0));
  auto ref = oracle::run_python(R"PY(
m = torch.nn.LSTMCell(3, 4); fill(m)
x, h0, c0 = inp([2, 3], 0), inp([2, 4], 1), inp([2, 4], 2)
report(m, [x, h0, c0], m(x, (h0, c0)))
)PY");
  oracle::compare(*lstm, {x, h0, c0}, {h1, c1}, ref);

  auto x2 = oracle::input({2, 3}, 0);
  auto g = gru(x2);
  auto ref_gru = oracle::run_python(R"PY(
m = torch.nn.GRUCell(3, 4); fill(m)
x = inp([2, 3], 0)
report(m, [x], m(x))
)PY");
  oracle::compare(*gru, {x2}, {g}, ref_gru);

  auto x3 = oracle::input({3}, 0);
  auto r = rnn(x3);
  EXPECT_EQ(r.sizes(), IntArrayRef({4}));
  auto ref_rnn = oracle::run_python(R"PY(
m = torch.nn.RNNCell(3, 4, nonlinearity='relu'); fill(m)
x = inp([3], 0)
report(m, [x], m(x))
)PY");
  oracle::compare(*rnn, {x3}, {r}, ref_rnn);
}

TEST(NNRnn, ParameterNamesInitAndPrinting) {
  manual_seed(0);
  nn::LSTM lstm(nn::LSTMOptions(3, 16).num_layers(2).bidirectional(true));
  std::vector<std::string> names;
  for (auto& item : lstm->named_parameters()) names.push_back(item.key());
  ASSERT_EQ(names.size(), 16u);
  EXPECT_EQ(names[0], "weight_ih_l0");
  EXPECT_EQ(names[3], "bias_hh_l0");
  EXPECT_EQ(names[4], "weight_ih_l0_reverse");
  EXPECT_EQ(names[15], "bias_hh_l1_reverse");
  EXPECT_EQ(lstm->named_parameters()["weight_ih_l1"].sizes(), IntArrayRef({64, 32}));
  for (auto& p : lstm->parameters()) EXPECT_LE(p.abs().max().item<double>(), 0.25);
  EXPECT_EQ(lstm->all_weights().size(), 16u);
  EXPECT_EQ(printed(lstm),
            "torch::nn::LSTM(input_size=3, hidden_size=16, num_layers=2, bias=true, "
            "batch_first=false, dropout=0, bidirectional=true)");
  EXPECT_EQ(printed(nn::GRUCell(nn::GRUCellOptions(2, 3).bias(false))),
            "torch::nn::GRUCell(2, 3, bias=false)");
  EXPECT_EQ(printed(nn::RNNCell(nn::RNNCellOptions(2, 3).nonlinearity(kReLU))),
            "torch::nn::RNNCell(2, 3, nonlinearity=kReLU)");
  auto copy = std::dynamic_pointer_cast<nn::LSTMImpl>(lstm->clone());
  ASSERT_TRUE(copy);
  EXPECT_TRUE(copy->named_parameters()["bias_ih_l1_reverse"].equal(
      lstm->named_parameters()["bias_ih_l1_reverse"]));
}

TEST(NNRnn, ShapeErrorsNameLayerAndShapes) {
  nn::LSTM lstm(10, 20);
  try {
    lstm(randn({5, 3, 7}));
    FAIL() << "expected ValueError";
  } catch (const ValueError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("LSTM"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Expected 10, got 7"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[5, 3, 7]"), std::string::npos) << msg;
  }
  EXPECT_THROW(lstm(randn({5, 3, 10}), std::make_tuple(zeros({2, 3, 20}), zeros({1, 3, 20}))),
               ValueError);
  EXPECT_THROW(lstm(randn({2, 5, 3, 10})), ValueError);
  nn::GRU gru(4, 3);
  EXPECT_THROW(gru(randn({5, 2, 4}), zeros({1, 3, 3})), ValueError);
  nn::GRUCell cell(4, 3);
  EXPECT_THROW(cell(randn({2, 5})), ValueError);
  EXPECT_THROW(cell(randn({2, 4}), zeros({3, 3})), ValueError);
  EXPECT_THROW(nn::LSTM(nn::LSTMOptions(3, 4).proj_size(4)), ValueError);
  EXPECT_THROW(nn::LSTM(nn::LSTMOptions(3, 4).proj_size(-1)), ValueError);
  nn::LSTM proj(nn::LSTMOptions(3, 4).proj_size(2));
  EXPECT_THROW(proj(randn({5, 2, 3}), std::make_tuple(zeros({1, 2, 4}), zeros({1, 2, 4}))),
               ValueError);
}

TEST(NNRnn, DropoutBetweenLayersOnlyWhenTraining) {
  manual_seed(0);
  nn::GRU gru(nn::GRUOptions(3, 4).num_layers(2).dropout(0.5));
  auto x = randn({4, 2, 3});
  gru->eval();
  auto a = std::get<0>(gru(x));
  EXPECT_TRUE(a.equal(std::get<0>(gru(x))));
  gru->train();
  EXPECT_FALSE(a.allclose(std::get<0>(gru(x))));
}
