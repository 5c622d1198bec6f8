#pragma once
// libtorch's packed-batch overloads of at::lstm / gru / rnn_tanh / rnn_relu, beside the padded
// ones of brasa/nn/rnn_functions.h. Not in brasa/brasa.h: compat's <ATen/Functions.h> includes it.

#include <cstdint>
#include <tuple>

#include "brasa/core/array_ref.h"
#include "brasa/core/tensor.h"

namespace brasa {

/// The whole recurrent layers over a packed batch (at::_pack_padded_sequence makes one): data
/// [sum(batch_sizes), input_size], batch_sizes int64 [T] (rows per time step, non-increasing), hx
/// [num_layers * dirs, batch_sizes[0], hidden_size], in the packed order -> (output data
/// [sum(batch_sizes), dirs * hidden_size], h_n[, c_n]).
BRASA_API std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& data, const Tensor& batch_sizes,
                                                  ArrayRef<Tensor> hx, ArrayRef<Tensor> params,
                                                  bool has_biases, int64_t num_layers,
                                                  double dropout, bool train, bool bidirectional);
BRASA_API std::tuple<Tensor, Tensor> gru(const Tensor& data, const Tensor& batch_sizes,
                                         const Tensor& hx, ArrayRef<Tensor> params, bool has_biases,
                                         int64_t num_layers, double dropout, bool train,
                                         bool bidirectional);
BRASA_API std::tuple<Tensor, Tensor> rnn_tanh(const Tensor& data, const Tensor& batch_sizes,
                                              const Tensor& hx, ArrayRef<Tensor> params,
                                              bool has_biases, int64_t num_layers, double dropout,
                                              bool train, bool bidirectional);
BRASA_API std::tuple<Tensor, Tensor> rnn_relu(const Tensor& data, const Tensor& batch_sizes,
                                              const Tensor& hx, ArrayRef<Tensor> params,
                                              bool has_biases, int64_t num_layers, double dropout,
                                              bool train, bool bidirectional);

}  // namespace brasa
