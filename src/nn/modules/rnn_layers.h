#pragma once
// The layer and direction loop of the recurrent layers, shared by the RNN / LSTM / GRU modules
// (rnn.cpp) and libtorch's at::rnn_tanh / rnn_relu / lstm / gru (nn/rnn_functions.cpp).

#include <tuple>
#include <vector>

#include "brasa/core/tensor.h"
#include "rnn_step.h"

namespace brasa::nn::detail {

struct RecurrentLayers {
  CellKind kind = CellKind::kTanh;
  int64_t num_layers = 1;
  bool bidirectional = false;
  bool has_bias = true;
  bool has_proj = false;  // LSTM's proj_size: weight_hr after the biases
  double dropout = 0;     // between layers, when training
  bool training = false;
  /// A packed batch (Note [Packed recurrent steps]): rows per time step, non-increasing; empty
  /// when every sequence has x's full length.
  std::vector<int64_t> batch_sizes;
};

/// x [T, B, in]; states: h0 (and c0 for LSTM) [num_layers * dirs, B, *], checked by the caller;
/// weights: per layer and direction w_ih, w_hh[, b_ih, b_hh][, w_hr]. Returns the last layer's
/// outputs [T, B, dirs * H] and the final states (h_n[, c_n]) [num_layers * dirs, B, *].
std::tuple<Tensor, std::vector<Tensor>> run_recurrent_layers(const RecurrentLayers& config,
                                                             const Tensor& x,
                                                             const std::vector<Tensor>& states,
                                                             const Tensor* weights);

}  // namespace brasa::nn::detail
