// torch::nn::utils::rnn packing and the recurrent layers' forward_with_packed_input: packs,
// outputs, final states and gradients equal PyTorch 1.13's for the same weights and inputs.
#include <gtest/gtest.h>

#include "brasa/brasa.h"
#include "support/torch_oracle.h"

using namespace brasa;
namespace oracle = brasa::testing_oracle;
namespace rnn = brasa::nn::utils::rnn;

namespace {

Tensor longs(std::vector<int64_t> v) {
  return detail::tensor_from_array(v.data(), static_cast<int64_t>(v.size()), kLong);
}

std::vector<int64_t> values(const Tensor& t) {
  Tensor c = t.to(kLong).contiguous();
  return std::vector<int64_t>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

}  // namespace

TEST(NNPackedSequence, PackAndPadRoundTripUnsorted) {
  Tensor x = oracle::input({5, 3, 2}, 0);
  auto packed = rnn::pack_padded_sequence(x, longs({2, 5, 3}), false, /*enforce_sorted=*/false);
  EXPECT_EQ(values(packed.batch_sizes()), (std::vector<int64_t>{3, 3, 2, 1, 1}));
  EXPECT_EQ(values(packed.sorted_indices()), (std::vector<int64_t>{1, 2, 0}));
  EXPECT_EQ(values(packed.unsorted_indices()), (std::vector<int64_t>{2, 0, 1}));
  EXPECT_EQ(packed.data().sizes(), IntArrayRef({10, 2}));
  auto [padded, lengths] = rnn::pad_packed_sequence(packed, /*batch_first=*/true, -1.0, 6);
  EXPECT_EQ(padded.sizes(), IntArrayRef({3, 6, 2}));
  EXPECT_EQ(values(lengths), (std::vector<int64_t>{2, 5, 3}));
  // valid steps come back, the rest is padding_value
  EXPECT_TRUE(padded.select(0, 1).narrow(0, 0, 5).equal(x.select(1, 1).detach()));
  EXPECT_TRUE(padded.select(0, 0).narrow(0, 2, 4).eq(-1).all().item<bool>());
  auto ref = oracle::run_python(R"PY(
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
x = inp([5, 3, 2], 0)
p = pack_padded_sequence(x, torch.tensor([2, 5, 3]), enforce_sorted=False)
pr('data', p.data)
out, _ = pad_packed_sequence(p, batch_first=True, padding_value=-1.0, total_length=6)
(out * formula(out.shape, 1.0, 0.11, 0.0)).sum().backward()
pr('padded', out)
pr('gin0', x.grad)
)PY");
  oracle::expect_close("data", packed.data(), ref);
  oracle::expect_close("padded", padded, ref);
  (padded * oracle::formula(padded.sizes(), 1.0, 0.11, 0.0)).sum().backward();
  oracle::expect_close("gin0", x.grad(), ref);
}

TEST(NNPackedSequence, PackSequenceAndPadSequence) {
  std::vector<Tensor> seqs = {oracle::input({4, 2}, 0), oracle::input({4, 2}, 1),
                              oracle::input({1, 2}, 2)};
  auto packed = rnn::pack_sequence(seqs);
  EXPECT_EQ(values(packed.batch_sizes()), (std::vector<int64_t>{3, 2, 2, 2}));
  EXPECT_FALSE(packed.sorted_indices().defined());
  Tensor padded = rnn::pad_sequence(seqs, /*batch_first=*/true, 7.0);
  EXPECT_EQ(padded.sizes(), IntArrayRef({3, 4, 2}));
  EXPECT_TRUE(padded.select(0, 2).narrow(0, 1, 3).eq(7).all().item<bool>());
}

TEST(NNPackedSequence, BadLengthsThrowTypedErrors) {
  Tensor x = oracle::input({5, 3, 2}, 0);
  // enforce_sorted with lengths out of order
  EXPECT_THROW(rnn::pack_padded_sequence(x, longs({2, 5, 3})), ValueError);
  EXPECT_THROW(rnn::pack_padded_sequence(x, longs({5, 3, 0})), ValueError);
  EXPECT_THROW(rnn::pack_padded_sequence(x, longs({6, 3, 2})), ValueError);
  EXPECT_THROW(rnn::pack_padded_sequence(x, longs({5, 3})), ValueError);
  auto packed = rnn::pack_padded_sequence(x, longs({5, 3, 2}));
  EXPECT_THROW(rnn::pad_packed_sequence(packed, false, 0.0, 4), ValueError);
  try {
    rnn::pack_padded_sequence(x, longs({2, 5, 3}));
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("enforce_sorted"), std::string::npos) << e.what();
  }
}

TEST(NNPackedSequence, LstmBidirectionalUnsortedWithStateMatchesTorch) {
  nn::LSTM lstm(nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true));
  lstm->to(kDouble);
  oracle::fill_params(*lstm);
  Tensor x = oracle::input({5, 3, 3}, 0);
  Tensor h0 = oracle::input({4, 3, 4}, 1), c0 = oracle::input({4, 3, 4}, 2);
  auto packed = rnn::pack_padded_sequence(x, longs({2, 5, 3}), false, false);
  auto [out, state] = lstm->forward_with_packed_input(packed, std::make_tuple(h0, c0));
  EXPECT_EQ(values(out.batch_sizes()), values(packed.batch_sizes()));
  EXPECT_EQ(out.data().sizes(), IntArrayRef({10, 8}));
  auto ref = oracle::run_python(R"PY(
from torch.nn.utils.rnn import pack_padded_sequence
m = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True); fill(m)
x, h0, c0 = inp([5, 3, 3], 0), inp([4, 3, 4], 1), inp([4, 3, 4], 2)
out, (h, c) = m(pack_padded_sequence(x, torch.tensor([2, 5, 3]), enforce_sorted=False), (h0, c0))
report(m, [x, h0, c0], [out.data, h, c])
)PY");
  oracle::compare(*lstm, {x, h0, c0}, {out.data(), std::get<0>(state), std::get<1>(state)}, ref);
}

TEST(NNPackedSequence, GruBatchFirstSortedMatchesTorch) {
  nn::GRU gru(nn::GRUOptions(3, 4).num_layers(2).batch_first(true));
  gru->to(kDouble);
  oracle::fill_params(*gru);
  Tensor x = oracle::input({3, 5, 3}, 0);
  auto packed = rnn::pack_padded_sequence(x, longs({5, 4, 2}), /*batch_first=*/true);
  auto [out, h] = gru->forward_with_packed_input(packed);
  auto ref = oracle::run_python(R"PY(
from torch.nn.utils.rnn import pack_padded_sequence
m = torch.nn.GRU(3, 4, num_layers=2, batch_first=True); fill(m)
x = inp([3, 5, 3], 0)
out, h = m(pack_padded_sequence(x, torch.tensor([5, 4, 2]), batch_first=True))
report(m, [x], [out.data, h])
)PY");
  oracle::compare(*gru, {x}, {out.data(), h}, ref);
}

TEST(NNPackedSequence, RnnReluBidirectionalPackSequenceMatchesTorch) {
  nn::RNN net(nn::RNNOptions(2, 3).nonlinearity(kReLU).bidirectional(true));
  net->to(kDouble);
  oracle::fill_params(*net);
  Tensor a = oracle::input({2, 2}, 0), b = oracle::input({4, 2}, 1), c = oracle::input({3, 2}, 2);
  Tensor h0 = oracle::input({2, 3, 3}, 3);
  auto [out, h] = net->forward_with_packed_input(rnn::pack_sequence({a, b, c}, false), h0);
  auto ref = oracle::run_python(R"PY(
from torch.nn.utils.rnn import pack_sequence
m = torch.nn.RNN(2, 3, nonlinearity='relu', bidirectional=True); fill(m)
a, b, c, h0 = inp([2, 2], 0), inp([4, 2], 1), inp([3, 2], 2), inp([2, 3, 3], 3)
out, h = m(pack_sequence([a, b, c], enforce_sorted=False), h0)
report(m, [a, b, c, h0], [out.data, h])
)PY");
  oracle::compare(*net, {a, b, c, h0}, {out.data(), h}, ref);
}

TEST(NNPackedSequence, LstmWithProjectionMatchesTorch) {
  nn::LSTM lstm(nn::LSTMOptions(3, 5).proj_size(2));
  lstm->to(kDouble);
  oracle::fill_params(*lstm);
  Tensor x = oracle::input({4, 2, 3}, 0);
  auto [out, state] = lstm->forward_with_packed_input(rnn::pack_padded_sequence(x, longs({4, 3})));
  auto ref = oracle::run_python(R"PY(
from torch.nn.utils.rnn import pack_padded_sequence
m = torch.nn.LSTM(3, 5, proj_size=2); fill(m)
x = inp([4, 2, 3], 0)
out, (h, c) = m(pack_padded_sequence(x, torch.tensor([4, 3])))
report(m, [x], [out.data, h, c])
)PY");
  oracle::compare(*lstm, {x}, {out.data(), std::get<0>(state), std::get<1>(state)}, ref);
}

TEST(NNPackedSequence, PackedInputShapeErrorsNameTheLayer) {
  nn::LSTM lstm(nn::LSTMOptions(3, 4));
  auto packed = rnn::pack_sequence({randn({3, 2}), randn({2, 2})});
  try {
    lstm->forward_with_packed_input(packed);
    FAIL() << "no error";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("LSTM"), std::string::npos) << e.what();
  }
  auto good = rnn::pack_sequence({randn({3, 3}), randn({2, 3})});
  EXPECT_THROW(
      lstm->forward_with_packed_input(good, std::make_tuple(zeros({1, 3, 4}), zeros({1, 3, 4}))),
      ValueError);
}
