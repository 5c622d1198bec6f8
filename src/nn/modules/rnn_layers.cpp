// The layer and direction loop of the recurrent layers (Note [Fused recurrent gates] in
// rnn_step.h for each step).

#include "rnn_layers.h"

#include "brasa/nn/functional/dropout.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/pointwise.h"

namespace brasa::nn::detail {
namespace {

/// One direction of one layer over x [T, B, in]; returns outputs [T, B, H] and the final state(s).
/// With a projection (LSTM's proj_size), w holds weight_hr last and h' = h' W_hr^T.
// Note [Packed recurrent steps]
// A packed batch is run on its padded form x [T, B, in], sorted by decreasing length, so time
// step t has batch_sizes[t] live rows, the first ones. Each step updates only those rows; the
// others keep their state: in the forward direction that is a finished sequence's last state,
// in the reverse direction (which meets a sequence's end first) the initial state not yet used.
// Outputs of dead rows are 0 and never read.
std::tuple<Tensor, Tensor, Tensor> run_direction(CellKind kind, const Tensor& x, Tensor h, Tensor c,
                                                 const Tensor* w, bool has_bias, bool has_proj,
                                                 bool reverse,
                                                 const std::vector<int64_t>& batch_sizes) {
  const Tensor& w_ih = w[0];
  const Tensor& w_hh = w[1];
  Tensor b_ih = has_bias ? w[2] : Tensor();
  Tensor b_hh = has_bias ? w[3] : Tensor();
  Tensor w_hr = has_proj ? w[has_bias ? 4 : 2] : Tensor();
  Tensor in_bias = b_ih;
  if (has_bias && kind != CellKind::kGRU) in_bias = b_ih + b_hh;
  const int64_t steps = x.size(0);
  Tensor gi_all = linear(x, w_ih, in_bias);
  std::vector<Tensor> outputs(static_cast<size_t>(steps));
  for (int64_t s = 0; s < steps; ++s) {
    const int64_t t = reverse ? steps - 1 - s : s;
    Tensor gi = gi_all.select(0, t);
    const int64_t batch = gi.size(0);
    const int64_t live = batch_sizes.empty() ? batch : batch_sizes[static_cast<size_t>(t)];
    Tensor h_live = live == batch ? h : h.narrow(0, 0, live);
    Tensor c_live = live == batch || !c.defined() ? c : c.narrow(0, 0, live);
    if (live < batch) gi = gi.narrow(0, 0, live);
    if (kind == CellKind::kLSTM) {
      std::tie(h_live, c_live) = lstm_step(gi, h_live, c_live, w_hh);
      if (has_proj) h_live = h_live.mm(w_hr.t());
    } else if (kind == CellKind::kGRU) {
      h_live = gru_step(gi, h_live, w_hh, b_hh);
    } else {
      h_live = rnn_step(kind, gi, h_live, w_hh);
    }
    if (live == batch) {
      h = h_live;
      c = c_live;
      outputs[static_cast<size_t>(t)] = h;
      continue;
    }
    const int64_t dead = batch - live;
    h = cat({h_live, h.narrow(0, live, dead)}, 0);
    if (c.defined()) c = cat({c_live, c.narrow(0, live, dead)}, 0);
    outputs[static_cast<size_t>(t)] = cat({h_live, zeros({dead, h.size(1)}, h.options())}, 0);
  }
  Tensor out = steps > 0 ? stack(outputs, 0) : empty({0, x.size(1), h.size(1)}, x.options());
  return {out, h, c};
}

}  // namespace

std::tuple<Tensor, std::vector<Tensor>> run_recurrent_layers(const RecurrentLayers& config,
                                                             const Tensor& x,
                                                             const std::vector<Tensor>& states,
                                                             const Tensor* weights) {
  const bool lstm = config.kind == CellKind::kLSTM;
  const int64_t dirs = config.bidirectional ? 2 : 1;
  const size_t per_dir = (config.has_bias ? 4 : 2) + (config.has_proj ? 1 : 0);
  std::vector<Tensor> h_n, c_n;
  Tensor layer_in = x;
  for (int64_t l = 0; l < config.num_layers; ++l) {
    if (l > 0 && config.dropout > 0 && config.training) {
      layer_in = functional::dropout(layer_in, functional::DropoutFuncOptions().p(config.dropout));
    }
    std::vector<Tensor> outs;
    for (int64_t d = 0; d < dirs; ++d) {
      const int64_t idx = l * dirs + d;
      const Tensor* w = &weights[static_cast<size_t>(idx) * per_dir];
      auto [out, h, c] =
          run_direction(config.kind, layer_in, states[0].select(0, idx),
                        lstm ? states[1].select(0, idx) : Tensor(), w, config.has_bias,
                        config.has_proj, d == 1, config.batch_sizes);
      outs.push_back(out);
      h_n.push_back(h);
      if (lstm) c_n.push_back(c);
    }
    layer_in = dirs == 1 ? outs[0] : cat(outs, 2);
  }
  std::vector<Tensor> final_states = {stack(h_n, 0)};
  if (lstm) final_states.push_back(stack(c_n, 0));
  return {layer_in, final_states};
}

}  // namespace brasa::nn::detail
