#pragma once
// One time step of each recurrent cell, shared by the layers (rnn.cpp) and cells (rnn_cell.cpp).
//
// Note [Fused recurrent gates]
// The input projection of every gate (and, for LSTM/RNN, both biases) is computed up front for the
// whole sequence with one matrix product; each step then adds h W_hh^T for all gates at once with
// a single addmm and splits the result into gate views.

#include <tuple>

#include "brasa/core/tensor.h"

namespace brasa::nn::detail {

enum class CellKind { kTanh, kReLU, kLSTM, kGRU };

inline int64_t gate_count(CellKind kind) {
  return kind == CellKind::kLSTM ? 4 : kind == CellKind::kGRU ? 3 : 1;
}

/// gi [B, H] (input projection plus b_ih and b_hh), h [B, H] -> h'.
inline Tensor rnn_step(CellKind kind, const Tensor& gi, const Tensor& h, const Tensor& w_hh) {
  Tensor pre = gi.addmm(h, w_hh.t());
  return kind == CellKind::kReLU ? pre.relu() : pre.tanh();
}

/// gi [B, 4H] (input projection plus both biases), (h, c) [B, H] -> (h', c').
inline std::tuple<Tensor, Tensor> lstm_step(const Tensor& gi, const Tensor& h, const Tensor& c,
                                            const Tensor& w_hh) {
  auto gates = gi.addmm(h, w_hh.t()).chunk(4, 1);
  Tensor c_next = gates[1].sigmoid() * c + gates[0].sigmoid() * gates[2].tanh();
  Tensor h_next = gates[3].sigmoid() * c_next.tanh();
  return {h_next, c_next};
}

/// gi [B, 3H] (input projection plus b_ih), h [B, H], b_hh [3H] or undefined -> h'.
inline Tensor gru_step(const Tensor& gi, const Tensor& h, const Tensor& w_hh, const Tensor& b_hh) {
  Tensor gh = b_hh.defined() ? b_hh.addmm(h, w_hh.t()) : h.mm(w_hh.t());
  auto i = gi.chunk(3, 1);
  auto hh = gh.chunk(3, 1);
  Tensor r = (i[0] + hh[0]).sigmoid();
  Tensor z = (i[1] + hh[1]).sigmoid();
  Tensor n = (i[2] + r * hh[2]).tanh();
  return n + z * (h - n);
}

}  // namespace brasa::nn::detail
