#pragma once
// One step of the recurrent cells in libtorch's at:: / torch:: spelling
// (`torch::lstm_cell(x, {h, c}, w_ih, w_hh, b_ih, b_hh)`): input [B, input_size], hidden states
// [B, hidden_size], w_ih [gates * hidden_size, input_size], w_hh [gates * hidden_size,
// hidden_size], biases [gates * hidden_size] (optional). The same step as the nn::RNNCell,
// LSTMCell and GRUCell modules. ValueError naming the op for shapes that do not fit.

#include <cstdint>
#include <optional>
#include <tuple>

#include "brasa/core/array_ref.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// hx = {h, c} -> (h', c'); gates i, f, g, o.
BRASA_API std::tuple<Tensor, Tensor> lstm_cell(const Tensor& input, ArrayRef<Tensor> hx,
                                               const Tensor& w_ih, const Tensor& w_hh,
                                               const std::optional<Tensor>& b_ih = {},
                                               const std::optional<Tensor>& b_hh = {});
/// h -> h'; gates r, z, n.
BRASA_API Tensor gru_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih,
                          const Tensor& w_hh, const std::optional<Tensor>& b_ih = {},
                          const std::optional<Tensor>& b_hh = {});
/// tanh(x w_ih^T + b_ih + h w_hh^T + b_hh).
BRASA_API Tensor rnn_tanh_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih,
                               const Tensor& w_hh, const std::optional<Tensor>& b_ih = {},
                               const std::optional<Tensor>& b_hh = {});
/// relu(x w_ih^T + b_ih + h w_hh^T + b_hh).
BRASA_API Tensor rnn_relu_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih,
                               const Tensor& w_hh, const std::optional<Tensor>& b_ih = {},
                               const std::optional<Tensor>& b_hh = {});

/// Whole recurrent layers over input [T, B, input_size] ([B, T, *] when batch_first): params
/// lists, per layer and direction, w_ih, w_hh and (has_biases) b_ih, b_hh, as the modules'
/// all_weights(); hx [num_layers * dirs, B, hidden_size] (LSTM: {h0, c0}). dropout applies
/// between layers when train. The same loop as the nn::RNN, LSTM and GRU modules.
/// -> (output [T, B, dirs * hidden_size], h_n[, c_n]).
BRASA_API std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& input, ArrayRef<Tensor> hx,
                                                  ArrayRef<Tensor> params, bool has_biases,
                                                  int64_t num_layers, double dropout, bool train,
                                                  bool bidirectional, bool batch_first);
BRASA_API std::tuple<Tensor, Tensor> gru(const Tensor& input, const Tensor& hx,
                                         ArrayRef<Tensor> params, bool has_biases,
                                         int64_t num_layers, double dropout, bool train,
                                         bool bidirectional, bool batch_first);
BRASA_API std::tuple<Tensor, Tensor> rnn_tanh(const Tensor& input, const Tensor& hx,
                                              ArrayRef<Tensor> params, bool has_biases,
                                              int64_t num_layers, double dropout, bool train,
                                              bool bidirectional, bool batch_first);
BRASA_API std::tuple<Tensor, Tensor> rnn_relu(const Tensor& input, const Tensor& hx,
                                              ArrayRef<Tensor> params, bool has_biases,
                                              int64_t num_layers, double dropout, bool train,
                                              bool bidirectional, bool batch_first);

}  // namespace brasa
