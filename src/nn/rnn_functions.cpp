// at:: recurrent cells: the shape checks libtorch makes, then the step the nn cell modules run
// (nn/modules/rnn_step.h).

#include "brasa/nn/rnn_functions.h"

#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/packed_sequence_functions.h"
#include "brasa/nn/rnn_packed_functions.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/pointwise.h"
#include "nn/modules/rnn_layers.h"
#include "nn/modules/rnn_step.h"

namespace brasa {
namespace {

using nn::detail::CellKind;

Tensor or_undefined(const std::optional<Tensor>& t) { return t.value_or(Tensor()); }

/// Checks w_ih [gates * H, input_size] and w_hh [gates * H, H]; returns H.
int64_t check_weights(const char* op, int64_t input_size, const Tensor& w_ih, const Tensor& w_hh,
                      int64_t gates) {
  BRASA_CHECK(w_ih.defined() && w_hh.defined() && w_ih.dim() == 2 && w_hh.dim() == 2 &&
                  w_ih.size(0) == w_hh.size(0) && w_hh.size(0) == gates * w_hh.size(1) &&
                  w_ih.size(1) == input_size,
              op, ": weights w_ih ", w_ih.defined() ? w_ih.sizes() : IntArrayRef{}, " and w_hh ",
              w_hh.defined() ? w_hh.sizes() : IntArrayRef{}, " do not fit an input size of ",
              input_size, " and ", gates, " gate(s)");
  return w_hh.size(1);
}

/// Checks input [B, I], each state [B, H] and the weights of `gates` gates.
void check_cell(const char* op, const Tensor& input, ArrayRef<Tensor> states, const Tensor& w_ih,
                const Tensor& w_hh, int64_t gates) {
  BRASA_CHECK(input.defined() && input.dim() == 2, op,
              ": expected a 2-d input [batch, input_size], got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  const int64_t hidden = check_weights(op, input.size(1), w_ih, w_hh, gates);
  for (const Tensor& s : states)
    BRASA_CHECK(s.defined() && s.dim() == 2 && s.size(0) == input.size(0) && s.size(1) == hidden,
                op, ": expected hidden state of shape [", input.size(0), ", ", hidden, "], got ",
                s.defined() ? s.sizes() : IntArrayRef{});
}

/// x w_ih^T + b_ih (+ b_hh when both biases go in front, as for RNN and LSTM).
Tensor input_gates(const Tensor& input, const Tensor& w_ih, const std::optional<Tensor>& b_ih,
                   const std::optional<Tensor>& b_hh) {
  Tensor bias = or_undefined(b_ih);
  if (b_hh && b_hh->defined()) bias = bias.defined() ? bias + *b_hh : *b_hh;
  return bias.defined() ? linear(input, w_ih, bias) : linear(input, w_ih);
}

Tensor simple_cell(const char* op, CellKind kind, const Tensor& input, const Tensor& hx,
                   const Tensor& w_ih, const Tensor& w_hh, const std::optional<Tensor>& b_ih,
                   const std::optional<Tensor>& b_hh) {
  check_cell(op, input, {hx}, w_ih, w_hh, 1);
  return nn::detail::rnn_step(kind, input_gates(input, w_ih, b_ih, b_hh), hx, w_hh);
}

/// The checks libtorch makes on a whole-sequence call, then the modules' layer loop. batch_sizes
/// (a packed batch, Note [Packed recurrent steps]): input is the padded form [T, B, in].
std::tuple<Tensor, std::vector<Tensor>> run_layers(const char* op, CellKind kind,
                                                   const Tensor& input, ArrayRef<Tensor> hx,
                                                   ArrayRef<Tensor> params, bool has_biases,
                                                   int64_t num_layers, double dropout, bool train,
                                                   bool bidirectional, bool batch_first,
                                                   std::vector<int64_t> batch_sizes = {}) {
  BRASA_CHECK(input.defined() && input.dim() == 3, op,
              ": expected a 3-d input [T, B, input_size] ([B, T, input_size] when batch_first), "
              "got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  BRASA_CHECK(num_layers >= 1, op, ": expected num_layers >= 1, got ", num_layers);
  BRASA_CHECK(dropout >= 0 && dropout <= 1, op, ": expected dropout in [0, 1], got ", dropout);
  const int64_t dirs = bidirectional ? 2 : 1;
  const size_t per_dir = has_biases ? 4 : 2;
  BRASA_CHECK(params.size() == static_cast<size_t>(num_layers * dirs) * per_dir, op, ": expected ",
              static_cast<size_t>(num_layers * dirs) * per_dir, " parameters (w_ih, w_hh",
              has_biases ? ", b_ih, b_hh" : "", " per layer and direction), got ", params.size());
  Tensor x = batch_first ? input.transpose(0, 1) : input;
  const int64_t gates = nn::detail::gate_count(kind);
  for (size_t i = 0; i < params.size(); i += per_dir) {
    const int64_t layer = static_cast<int64_t>(i / per_dir) / dirs;
    const int64_t in = layer == 0 ? x.size(2) : dirs * params[1].size(1);
    check_weights(op, in, params[i], params[i + 1], gates);
  }
  const int64_t hidden = params[1].size(1);
  for (const Tensor& h : hx)
    BRASA_CHECK(h.defined() && h.sizes() == IntArrayRef({num_layers * dirs, x.size(1), hidden}), op,
                ": expected hidden state of shape [", num_layers * dirs, ", ", x.size(1), ", ",
                hidden, "], got ", h.defined() ? h.sizes() : IntArrayRef{});
  nn::detail::RecurrentLayers config;
  config.kind = kind;
  config.num_layers = num_layers;
  config.bidirectional = bidirectional;
  config.has_bias = has_biases;
  config.dropout = dropout;
  config.training = train;
  config.batch_sizes = std::move(batch_sizes);
  auto [out, states] = nn::detail::run_recurrent_layers(
      config, x, std::vector<Tensor>(hx.begin(), hx.end()), params.data());
  return {batch_first ? out.transpose(0, 1) : out, states};
}

// A packed batch: the padded form through run_layers, its live rows packed again.
struct Packed {
  Tensor padded;
  std::vector<int64_t> batch_sizes;
};

Packed unpack(const char* op, const Tensor& data, const Tensor& batch_sizes) {
  BRASA_CHECK(data.defined() && data.dim() == 2, op,
              ": expected packed data [sum(batch_sizes), input_size], got ",
              data.defined() ? data.sizes() : IntArrayRef{});
  BRASA_CHECK(batch_sizes.defined() && batch_sizes.dim() == 1 && batch_sizes.numel() > 0 &&
                  !is_floating_type(batch_sizes.scalar_type()),
              op, ": expected batch_sizes, a non-empty 1-d integer tensor, got ",
              batch_sizes.defined() ? batch_sizes.sizes() : IntArrayRef{});
  Tensor sizes = batch_sizes.to(kLong).contiguous();
  std::vector<int64_t> v(sizes.data_ptr<int64_t>(), sizes.data_ptr<int64_t>() + sizes.numel());
  int64_t total = 0;
  for (size_t t = 0; t < v.size(); ++t) {
    BRASA_CHECK(v[t] > 0 && (t == 0 || v[t] <= v[t - 1]), op,
                ": batch_sizes must be positive and non-increasing, got ", batch_sizes.sizes(),
                " with ", v[t], " at step ", t);
    total += v[t];
  }
  BRASA_CHECK(total == data.size(0), op, ": packed data has ", data.size(0),
              " rows, batch_sizes sum to ", total);
  Tensor padded =
      std::get<0>(_pad_packed_sequence(data, sizes, false, 0, static_cast<int64_t>(v.size())));
  return {padded, std::move(v)};
}

Tensor pack(const Tensor& out, const std::vector<int64_t>& batch_sizes) {
  std::vector<Tensor> rows;
  rows.reserve(batch_sizes.size());
  for (size_t t = 0; t < batch_sizes.size(); ++t)
    rows.push_back(out.select(0, static_cast<int64_t>(t)).narrow(0, 0, batch_sizes[t]));
  return cat(rows, 0);
}

std::tuple<Tensor, std::vector<Tensor>> run_packed(const char* op, CellKind kind,
                                                   const Tensor& data, const Tensor& batch_sizes,
                                                   ArrayRef<Tensor> hx, ArrayRef<Tensor> params,
                                                   bool has_biases, int64_t num_layers,
                                                   double dropout, bool train, bool bidirectional) {
  Packed p = unpack(op, data, batch_sizes);
  auto [out, states] = run_layers(op, kind, p.padded, hx, params, has_biases, num_layers, dropout,
                                  train, bidirectional, false, p.batch_sizes);
  return {pack(out, p.batch_sizes), std::move(states)};
}

std::tuple<Tensor, Tensor> sequence(const char* op, CellKind kind, const Tensor& input,
                                    const Tensor& hx, ArrayRef<Tensor> params, bool has_biases,
                                    int64_t num_layers, double dropout, bool train,
                                    bool bidirectional, bool batch_first) {
  auto [out, states] = run_layers(op, kind, input, {hx}, params, has_biases, num_layers, dropout,
                                  train, bidirectional, batch_first);
  return {out, states[0]};
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& input, ArrayRef<Tensor> hx,
                                        ArrayRef<Tensor> params, bool has_biases,
                                        int64_t num_layers, double dropout, bool train,
                                        bool bidirectional, bool batch_first) {
  BRASA_CHECK(hx.size() == 2, "lstm: expected hx of two tensors (h0, c0), got ", hx.size());
  auto [out, states] = run_layers("lstm", CellKind::kLSTM, input, hx, params, has_biases,
                                  num_layers, dropout, train, bidirectional, batch_first);
  return {out, states[0], states[1]};
}

std::tuple<Tensor, Tensor> gru(const Tensor& input, const Tensor& hx, ArrayRef<Tensor> params,
                               bool has_biases, int64_t num_layers, double dropout, bool train,
                               bool bidirectional, bool batch_first) {
  return sequence("gru", CellKind::kGRU, input, hx, params, has_biases, num_layers, dropout, train,
                  bidirectional, batch_first);
}

std::tuple<Tensor, Tensor> rnn_tanh(const Tensor& input, const Tensor& hx, ArrayRef<Tensor> params,
                                    bool has_biases, int64_t num_layers, double dropout, bool train,
                                    bool bidirectional, bool batch_first) {
  return sequence("rnn_tanh", CellKind::kTanh, input, hx, params, has_biases, num_layers, dropout,
                  train, bidirectional, batch_first);
}

std::tuple<Tensor, Tensor> rnn_relu(const Tensor& input, const Tensor& hx, ArrayRef<Tensor> params,
                                    bool has_biases, int64_t num_layers, double dropout, bool train,
                                    bool bidirectional, bool batch_first) {
  return sequence("rnn_relu", CellKind::kReLU, input, hx, params, has_biases, num_layers, dropout,
                  train, bidirectional, batch_first);
}

std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& data, const Tensor& batch_sizes,
                                        ArrayRef<Tensor> hx, ArrayRef<Tensor> params,
                                        bool has_biases, int64_t num_layers, double dropout,
                                        bool train, bool bidirectional) {
  BRASA_CHECK(hx.size() == 2, "lstm: expected hx of two tensors (h0, c0), got ", hx.size());
  auto [out, states] = run_packed("lstm", CellKind::kLSTM, data, batch_sizes, hx, params,
                                  has_biases, num_layers, dropout, train, bidirectional);
  return {out, states[0], states[1]};
}

std::tuple<Tensor, Tensor> gru(const Tensor& data, const Tensor& batch_sizes, const Tensor& hx,
                               ArrayRef<Tensor> params, bool has_biases, int64_t num_layers,
                               double dropout, bool train, bool bidirectional) {
  auto [out, states] = run_packed("gru", CellKind::kGRU, data, batch_sizes, {hx}, params,
                                  has_biases, num_layers, dropout, train, bidirectional);
  return {out, states[0]};
}

std::tuple<Tensor, Tensor> rnn_tanh(const Tensor& data, const Tensor& batch_sizes, const Tensor& hx,
                                    ArrayRef<Tensor> params, bool has_biases, int64_t num_layers,
                                    double dropout, bool train, bool bidirectional) {
  auto [out, states] = run_packed("rnn_tanh", CellKind::kTanh, data, batch_sizes, {hx}, params,
                                  has_biases, num_layers, dropout, train, bidirectional);
  return {out, states[0]};
}

std::tuple<Tensor, Tensor> rnn_relu(const Tensor& data, const Tensor& batch_sizes, const Tensor& hx,
                                    ArrayRef<Tensor> params, bool has_biases, int64_t num_layers,
                                    double dropout, bool train, bool bidirectional) {
  auto [out, states] = run_packed("rnn_relu", CellKind::kReLU, data, batch_sizes, {hx}, params,
                                  has_biases, num_layers, dropout, train, bidirectional);
  return {out, states[0]};
}

std::tuple<Tensor, Tensor> lstm_cell(const Tensor& input, ArrayRef<Tensor> hx, const Tensor& w_ih,
                                     const Tensor& w_hh, const std::optional<Tensor>& b_ih,
                                     const std::optional<Tensor>& b_hh) {
  BRASA_CHECK(hx.size() == 2, "lstm_cell: expected hx of two tensors (h, c), got ", hx.size());
  check_cell("lstm_cell", input, hx, w_ih, w_hh, 4);
  return nn::detail::lstm_step(input_gates(input, w_ih, b_ih, b_hh), hx[0], hx[1], w_hh);
}

Tensor gru_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  check_cell("gru_cell", input, {hx}, w_ih, w_hh, 3);
  Tensor gi = b_ih && b_ih->defined() ? linear(input, w_ih, *b_ih) : linear(input, w_ih);
  return nn::detail::gru_step(gi, hx, w_hh, or_undefined(b_hh));
}

Tensor rnn_tanh_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                     const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  return simple_cell("rnn_tanh_cell", CellKind::kTanh, input, hx, w_ih, w_hh, b_ih, b_hh);
}

Tensor rnn_relu_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                     const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  return simple_cell("rnn_relu_cell", CellKind::kReLU, input, hx, w_ih, w_hh, b_ih, b_hh);
}

}  // namespace brasa
