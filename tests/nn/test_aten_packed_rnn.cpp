// libtorch's packed overloads of at::lstm / gru / rnn_tanh / rnn_relu (data, batch_sizes, ...)
// and the window functions' unpacked-options overloads, against live PyTorch 1.13 (torch.lstm
// etc. take the same positional arguments): outputs and gradients.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>
#include <vector>

#include "support/oracle_rows.h"

namespace {

using torch::Tensor;
using Outputs = std::vector<Tensor>;

// Packed batch of three sequences of lengths 3, 2, 1 (rows per step 3, 2, 1), input size 2.
Tensor data() { return torch::sin(torch::arange(12, torch::kDouble)).reshape({6, 2}); }
Tensor batch_sizes() { return torch::tensor({3, 2, 1}, torch::kLong); }
Tensor weight(int64_t rows, int64_t cols, double step) {
  return torch::cos(torch::arange(rows * cols, torch::kDouble) * step).reshape({rows, cols}) * 0.3;
}
// Per layer and direction: w_ih, w_hh, b_ih, b_hh for `gates` gates of hidden size 4.
std::vector<Tensor> params(int64_t gates, int64_t layers, int64_t dirs) {
  std::vector<Tensor> p;
  for (int64_t l = 0; l < layers; ++l) {
    for (int64_t d = 0; d < dirs; ++d) {
      const int64_t in = l == 0 ? 2 : 4 * dirs;
      const double s = 0.1 * static_cast<double>(l * dirs + d + 1);
      p.push_back(weight(gates * 4, in, 0.3 + s).requires_grad_());
      p.push_back(weight(gates * 4, 4, 0.2 + s).requires_grad_());
      p.push_back((torch::ones({gates * 4}, torch::kDouble) * s).requires_grad_());
      p.push_back((torch::ones({gates * 4}, torch::kDouble) * -s / 2).requires_grad_());
    }
  }
  return p;
}
Tensor h0(int64_t layers, int64_t dirs, double v) {
  return torch::full({layers * dirs, 3, 4}, v, torch::kDouble).requires_grad_();
}

// The outputs, then the gradients of their sum (weighted by position) w.r.t. data's copy and the
// parameters.
Outputs with_grads(const Outputs& outs, const Tensor& x, const std::vector<Tensor>& ps) {
  Tensor loss = torch::zeros({}, torch::kDouble);
  for (const Tensor& o : outs) {
    loss = loss + (o * torch::arange(o.numel(), torch::kDouble).reshape(o.sizes()).sin()).sum();
  }
  loss.backward();
  Outputs r = outs;
  r.push_back(x.grad());
  for (const Tensor& p : ps) r.push_back(p.grad());
  for (Tensor& t : r) t = t.detach();
  return r;
}

template <typename Tuple, size_t... I>
Outputs outputs(const Tuple& t, std::index_sequence<I...>) {
  return {std::get<I>(t)...};
}
template <typename... T>
Outputs outputs(const std::tuple<T...>& t) {
  return outputs(t, std::index_sequence_for<T...>{});
}

Outputs run_lstm(int64_t layers, bool bidirectional) {
  const int64_t dirs = bidirectional ? 2 : 1;
  Tensor x = data().requires_grad_();
  auto ps = params(4, layers, dirs);
  auto r = at::lstm(x, batch_sizes(), {h0(layers, dirs, 0.1), h0(layers, dirs, -0.2)}, ps, true,
                    layers, 0.0, false, bidirectional);
  return with_grads(outputs(r), x, ps);
}

template <typename Fn>
Outputs run_single(Fn fn, int64_t gates, int64_t layers, bool bidirectional) {
  const int64_t dirs = bidirectional ? 2 : 1;
  Tensor x = data().requires_grad_();
  auto ps = params(gates, layers, dirs);
  auto r = fn(x, batch_sizes(), h0(layers, dirs, 0.3), ps, true, layers, 0.0, false, bidirectional);
  return with_grads(outputs(r), x, ps);
}

const char* const kPrelude = R"PY(
def data(): return torch.sin(torch.arange(12, dtype=torch.float64)).reshape(6, 2).requires_grad_()
bs = torch.tensor([3, 2, 1])
def weight(r, c, step): return torch.cos(torch.arange(r * c, dtype=torch.float64) * step).reshape(r, c) * 0.3
def params(gates, layers, dirs):
    p = []
    for l in range(layers):
        for d in range(dirs):
            i = 2 if l == 0 else 4 * dirs
            s = 0.1 * (l * dirs + d + 1)
            p += [weight(gates * 4, i, 0.3 + s).requires_grad_(), weight(gates * 4, 4, 0.2 + s).requires_grad_(),
                  (torch.ones(gates * 4, dtype=torch.float64) * s).requires_grad_(),
                  (torch.ones(gates * 4, dtype=torch.float64) * -s / 2).requires_grad_()]
    return p
def h0(layers, dirs, v): return torch.full((layers * dirs, 3, 4), v, dtype=torch.float64).requires_grad_()
def with_grads(outs, x, ps):
    loss = sum((o * torch.arange(o.numel(), dtype=torch.float64).reshape(o.shape).sin()).sum() for o in outs)
    loss.backward()
    return list(outs) + [x.grad] + [p.grad for p in ps]
def lstm(layers, bidi):
    dirs = 2 if bidi else 1
    x = data(); ps = params(4, layers, dirs)
    return with_grads(torch.lstm(x, bs, [h0(layers, dirs, 0.1), h0(layers, dirs, -0.2)], ps, True, layers, 0.0, False, bidi), x, ps)
def single(fn, gates, layers, bidi):
    dirs = 2 if bidi else 1
    x = data(); ps = params(gates, layers, dirs)
    return with_grads(fn(x, bs, h0(layers, dirs, 0.3), ps, True, layers, 0.0, False, bidi), x, ps)
)PY";

std::vector<brasa::testing_oracle::OracleRow> build_rows() {
  using Fn2 =
      std::tuple<Tensor, Tensor> (*)(const Tensor&, const Tensor&, const Tensor&,
                                     torch::ArrayRef<Tensor>, bool, int64_t, double, bool, bool);
  const Fn2 gru = &at::gru, tanh = &at::rnn_tanh, relu = &at::rnn_relu;
  // clang-format off
  return {
    {"at::lstm(data, batch_sizes, ...)", "lstm(1, False)", [] { return run_lstm(1, false); }},
    {"at::lstm(... 2 layers, bidirectional)", "lstm(2, True)", [] { return run_lstm(2, true); }},
    {"at::gru(data, batch_sizes, ...)", "single(torch.gru, 3, 1, False)", [gru] { return run_single(gru, 3, 1, false); }},
    {"at::gru(... 2 layers, bidirectional)", "single(torch.gru, 3, 2, True)", [gru] { return run_single(gru, 3, 2, true); }},
    {"at::rnn_tanh(data, batch_sizes, ...)", "single(torch.rnn_tanh, 1, 2, False)", [tanh] { return run_single(tanh, 1, 2, false); }},
    {"at::rnn_relu(data, batch_sizes, ...)", "single(torch.rnn_relu, 1, 1, True)", [relu] { return run_single(relu, 1, 1, true); }},
    {"at::hann_window(5, kDouble, kStrided, kCPU, false)", "torch.hann_window(5, dtype=torch.float64)",
     [] { return Outputs{at::hann_window(5, torch::kDouble, torch::kStrided, torch::kCPU, false)}; }},
    {"at::hann_window(6, false, nullopt x4)", "torch.hann_window(6, False, dtype=torch.float32)",
     [] { return Outputs{at::hann_window(6, false, c10::nullopt, c10::nullopt, c10::nullopt, c10::nullopt)}; }},
    {"at::hamming_window(7, true, 0.6, 0.3, kDouble, ...)", "torch.hamming_window(7, True, 0.6, 0.3, dtype=torch.float64)",
     [] { return Outputs{at::hamming_window(7, true, 0.6, 0.3, torch::kDouble, c10::nullopt, c10::nullopt, c10::nullopt)}; }},
    {"at::hamming_window(7, false, 0.6, kDouble, ...)", "torch.hamming_window(7, False, 0.6, dtype=torch.float64)",
     [] { return Outputs{at::hamming_window(7, false, 0.6, torch::kDouble, c10::nullopt, c10::nullopt, c10::nullopt)}; }},
    {"at::blackman_window(8, kDouble, ...)", "torch.blackman_window(8, dtype=torch.float64)",
     [] { return Outputs{at::blackman_window(8, torch::kDouble, c10::nullopt, c10::nullopt, c10::nullopt)}; }},
    {"at::bartlett_window(9, false, kFloat, ...)", "torch.bartlett_window(9, False, dtype=torch.float32)",
     [] { return Outputs{at::bartlett_window(9, false, torch::kFloat, c10::nullopt, c10::nullopt, c10::nullopt)}; }},
    {"at::kaiser_window(10, true, 5.0, kDouble, ...)", "torch.kaiser_window(10, True, 5.0, dtype=torch.float64)",
     [] { return Outputs{at::kaiser_window(10, true, 5.0, torch::kDouble, c10::nullopt, c10::nullopt, c10::nullopt)}; }},
    {"at::kaiser_window(4, nullopt x4)", "torch.kaiser_window(4, dtype=torch.float32)",
     [] { return Outputs{at::kaiser_window(4, c10::nullopt, c10::nullopt, c10::nullopt, c10::nullopt)}; }},
  };
  // clang-format on
}

const std::vector<brasa::testing_oracle::OracleRow>& rows() {
  static const std::vector<brasa::testing_oracle::OracleRow> r = build_rows();
  return r;
}

class AtenPackedRnnAndWindows : public ::testing::TestWithParam<size_t> {};

TEST_P(AtenPackedRnnAndWindows, MatchesTorch) {
  // the oracle's default dtype is float64: the rows without a dtype draw in float32 on both sides
  brasa::testing_oracle::expect_row_matches_torch(kPrelude, rows(), GetParam(), 1e-7);
}

std::string row_name(const ::testing::TestParamInfo<size_t>& info) {
  return "row" + std::to_string(info.param);
}

INSTANTIATE_TEST_SUITE_P(Aten, AtenPackedRnnAndWindows, ::testing::Range<size_t>(0, 14), row_name);

TEST(AtenPackedRnn, BadBatchSizesAndPinMemoryThrow) {
  auto ps = params(4, 1, 1);
  Tensor h = torch::zeros({1, 3, 4}, torch::kDouble);
  // batch sizes that do not sum to the packed rows, increasing ones, a float tensor
  EXPECT_THROW(at::lstm(data(), torch::tensor({3, 2}), {h, h}, ps, true, 1, 0.0, false, false),
               c10::Error);
  EXPECT_THROW(at::lstm(data(), torch::tensor({1, 2, 3}), {h, h}, ps, true, 1, 0.0, false, false),
               c10::Error);
  EXPECT_THROW(at::gru(data(), torch::tensor({3.0, 2.0, 1.0}), h, params(3, 1, 1), true, 1, 0.0,
                       false, false),
               c10::Error);
  // hidden state of the wrong batch
  EXPECT_THROW(at::rnn_tanh(data(), batch_sizes(), torch::zeros({1, 2, 4}, torch::kDouble),
                            params(1, 1, 1), true, 1, 0.0, false, false),
               c10::Error);
  EXPECT_THROW(at::hann_window(4, c10::nullopt, c10::nullopt, c10::nullopt, true), c10::Error);
}

}  // namespace
