// RNN, LSTM and GRU layers: parameters, checks and the layer/direction loop.

#include "brasa/nn/modules/rnn.h"

#include <cmath>
#include <sstream>

#include "brasa/core/error.h"
#include "brasa/nn/functional/dropout.h"
#include "brasa/nn/init.h"
#include "brasa/nn/packed_sequence_functions.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"
#include "rnn_layers.h"

namespace brasa::nn {
namespace detail {
namespace {

CellKind kind_of(const RNNOptionsBase::rnn_options_base_mode_t& mode) {
  if (nn::holds_alternative<enumtype::kLSTM>(mode)) return CellKind::kLSTM;
  if (nn::holds_alternative<enumtype::kGRU>(mode)) return CellKind::kGRU;
  if (nn::holds_alternative<enumtype::kRNN_RELU>(mode)) return CellKind::kReLU;
  return CellKind::kTanh;
}

std::string shape_str(IntArrayRef sizes) {
  std::ostringstream s;
  s << sizes;
  return s.str();
}

RecurrentLayers layers_config(const RNNOptionsBase& o, CellKind kind, bool training) {
  RecurrentLayers config;
  config.kind = kind;
  config.num_layers = o.num_layers();
  config.bidirectional = o.bidirectional();
  config.has_bias = o.bias();
  config.has_proj = o.proj_size() > 0;
  config.dropout = o.dropout();
  config.training = training;
  return config;
}

}  // namespace

template <typename Derived>
void RNNImplBase<Derived>::reset() {
  const auto& o = options_base;
  BRASA_CHECK(o.input_size() > 0 && o.hidden_size() > 0 && o.num_layers() > 0, this->name(),
              ": input_size, hidden_size and num_layers must be positive, got ", o.input_size(),
              ", ", o.hidden_size(), ", ", o.num_layers());
  BRASA_CHECK(o.dropout() >= 0 && o.dropout() <= 1, this->name(),
              ": dropout should be a number in range [0, 1], got ", o.dropout());
  BRASA_CHECK(o.proj_size() >= 0, this->name(),
              ": proj_size should be a positive integer or zero to disable projections, got ",
              o.proj_size());
  BRASA_CHECK(o.proj_size() < o.hidden_size(), this->name(),
              ": proj_size has to be smaller than hidden_size, got proj_size=", o.proj_size(),
              " and hidden_size=", o.hidden_size());
  BRASA_CHECK(o.proj_size() == 0 || kind_of(o.mode()) == CellKind::kLSTM, this->name(),
              ": proj_size argument is only supported for LSTM, not RNN or GRU");
  const int64_t gates = gate_count(kind_of(o.mode())) * o.hidden_size();
  const int64_t dirs = o.bidirectional() ? 2 : 1;
  // With a projection the hidden state h (and so each layer's output) has proj_size features.
  const int64_t h_size = o.proj_size() > 0 ? o.proj_size() : o.hidden_size();
  flat_weights_names_.clear();
  flat_weights_.clear();
  for (int64_t layer = 0; layer < o.num_layers(); ++layer) {
    const int64_t in = layer == 0 ? o.input_size() : h_size * dirs;
    for (int64_t d = 0; d < dirs; ++d) {
      const std::string suffix = "_l" + std::to_string(layer) + (d == 1 ? "_reverse" : "");
      std::vector<std::pair<std::string, std::vector<int64_t>>> specs = {
          {"weight_ih" + suffix, {gates, in}}, {"weight_hh" + suffix, {gates, h_size}}};
      if (o.bias()) {
        specs.push_back({"bias_ih" + suffix, {gates}});
        specs.push_back({"bias_hh" + suffix, {gates}});
      }
      if (o.proj_size() > 0)
        specs.push_back({"weight_hr" + suffix, {o.proj_size(), o.hidden_size()}});
      for (auto& [name, shape] : specs) {
        flat_weights_.push_back(this->register_parameter(name, brasa::empty(shape)));
        flat_weights_names_.push_back(name);
      }
    }
  }
  reset_parameters();
}

template <typename Derived>
void RNNImplBase<Derived>::reset_parameters() {
  const double bound = 1.0 / std::sqrt(static_cast<double>(options_base.hidden_size()));
  for (auto& p : this->parameters()) init::uniform_(p, -bound, bound);
}

template <typename Derived>
std::vector<Tensor> RNNImplBase<Derived>::all_weights() const {
  std::vector<Tensor> out;
  for (const auto& name : flat_weights_names_) out.push_back(this->named_parameters(false)[name]);
  return out;
}

template <typename Derived>
void RNNImplBase<Derived>::pretty_print(std::ostream& stream) const {
  const std::string& name = this->name();
  const auto& o = options_base;
  stream << std::boolalpha << name.substr(0, name.size() - 4) << "(input_size=" << o.input_size()
         << ", hidden_size=" << o.hidden_size() << ", num_layers=" << o.num_layers()
         << ", bias=" << o.bias() << ", batch_first=" << o.batch_first()
         << ", dropout=" << o.dropout() << ", bidirectional=" << o.bidirectional();
  if (o.proj_size() > 0) stream << ", proj_size=" << o.proj_size();
  stream << ")";
}

template <typename Derived>
std::tuple<Tensor, std::vector<Tensor>> RNNImplBase<Derived>::run(const Tensor& input,
                                                                  std::vector<Tensor> hx) {
  const auto& o = options_base;
  const std::string layer = this->name().substr(0, this->name().size() - 4);
  const CellKind kind = kind_of(o.mode());
  BRASA_CHECK(input.dim() == 2 || input.dim() == 3, layer, ": Expected input to be 2D or 3D, got ",
              input.dim(), "D tensor of shape ", shape_str(input.sizes()));
  BRASA_CHECK(input.size(-1) == o.input_size(), layer,
              ": input.size(-1) must be equal to input_size. Expected ", o.input_size(), ", got ",
              input.size(-1), " (input shape ", shape_str(input.sizes()), ")");
  const bool batched = input.dim() == 3;
  Tensor x = batched ? (o.batch_first() ? input.transpose(0, 1) : input) : input.unsqueeze(1);
  prepare_states(hx, x.size(1), batched, x.options());
  auto [output, states] = run_recurrent_layers(layers_config(o, kind, this->is_training()), x, hx,
                                               flat_weights_.data());
  if (!batched) {
    output = output.squeeze(1);
    for (auto& s : states) s = s.squeeze(1);
  } else if (o.batch_first()) {
    output = output.transpose(0, 1);
  }
  return {output, states};
}

template <typename Derived>
void RNNImplBase<Derived>::prepare_states(std::vector<Tensor>& hx, int64_t batch, bool batched,
                                          const TensorOptions& options) const {
  const auto& o = options_base;
  const std::string layer = this->name().substr(0, this->name().size() - 4);
  const int64_t dirs = o.bidirectional() ? 2 : 1;
  const bool proj = o.proj_size() > 0;
  for (size_t k = 0; k < hx.size(); ++k) {
    Tensor& h = hx[k];
    // h is [L*D, B, proj_size] with a projection; c keeps hidden_size.
    const std::vector<int64_t> expected = {o.num_layers() * dirs, batch,
                                           proj && k == 0 ? o.proj_size() : o.hidden_size()};
    if (!h.defined()) {
      h = zeros(expected, options);
      continue;
    }
    BRASA_CHECK(h.dim() == (batched ? 3 : 2), layer, ": For ",
                batched ? "batched 3-D" : "unbatched 2-D", " input, hx should also be ",
                batched ? 3 : 2, "-D but got ", h.dim(), "-D tensor");
    if (!batched) h = h.unsqueeze(1);
    BRASA_CHECK(h.sizes() == IntArrayRef(expected), layer, ": Expected hidden size ",
                shape_str(expected), ", got ", shape_str(h.sizes()));
  }
}

template <typename Derived>
std::tuple<utils::rnn::PackedSequence, std::vector<Tensor>> RNNImplBase<Derived>::run_packed(
    const utils::rnn::PackedSequence& input, std::vector<Tensor> hx) {
  const auto& o = options_base;
  const std::string layer = this->name().substr(0, this->name().size() - 4);
  const Tensor& data = input.data();
  BRASA_CHECK(data.defined() && data.dim() == 2 && data.size(1) == o.input_size(), layer,
              ": expected packed data [sum(lengths), ", o.input_size(), "], got ",
              data.defined() ? shape_str(data.sizes()) : std::string("an undefined tensor"));
  Tensor sizes = input.batch_sizes().to(kLong).contiguous();
  std::vector<int64_t> batch_sizes(sizes.data_ptr<int64_t>(),
                                   sizes.data_ptr<int64_t>() + sizes.numel());
  BRASA_CHECK(!batch_sizes.empty(), layer, ": got a PackedSequence without time steps");
  const Tensor& sorted = input.sorted_indices();
  for (Tensor& h : hx)
    if (h.defined() && sorted.defined()) h = h.index_select(1, sorted);
  prepare_states(hx, batch_sizes[0], true, data.options());
  Tensor padded = std::get<0>(
      _pad_packed_sequence(data, sizes, false, 0, static_cast<int64_t>(batch_sizes.size())));
  RecurrentLayers config = layers_config(o, kind_of(o.mode()), this->is_training());
  config.batch_sizes = batch_sizes;
  auto [output, states] = run_recurrent_layers(config, padded, hx, flat_weights_.data());
  std::vector<Tensor> rows;
  for (size_t t = 0; t < batch_sizes.size(); ++t)
    rows.push_back(output.select(0, static_cast<int64_t>(t)).narrow(0, 0, batch_sizes[t]));
  const Tensor& unsorted = input.unsorted_indices();
  if (unsorted.defined())
    for (Tensor& s : states) s = s.index_select(1, unsorted);
  return {utils::rnn::PackedSequence(cat(rows, 0), input.batch_sizes(), sorted, unsorted), states};
}

template class RNNImplBase<RNNImpl>;
template class RNNImplBase<LSTMImpl>;
template class RNNImplBase<GRUImpl>;

}  // namespace detail

RNNImpl::RNNImpl(const RNNOptions& options_)
    : RNNImplBase(
          detail::RNNOptionsBase(nn::holds_alternative<enumtype::kReLU>(options_.nonlinearity())
                                     ? detail::RNNOptionsBase::rnn_options_base_mode_t(kRNN_RELU)
                                     : detail::RNNOptionsBase::rnn_options_base_mode_t(kRNN_TANH),
                                 options_.input_size(), options_.hidden_size())
              .num_layers(options_.num_layers())
              .bias(options_.bias())
              .batch_first(options_.batch_first())
              .dropout(options_.dropout())
              .bidirectional(options_.bidirectional())),
      options(options_) {
  reset();
}

std::tuple<Tensor, Tensor> RNNImpl::forward(const Tensor& input, Tensor hx) {
  auto [out, states] = run(input, {std::move(hx)});
  return {out, states[0]};
}

std::tuple<utils::rnn::PackedSequence, Tensor> RNNImpl::forward_with_packed_input(
    const utils::rnn::PackedSequence& packed_input, Tensor hx) {
  auto [out, states] = run_packed(packed_input, {std::move(hx)});
  return {out, states[0]};
}

LSTMImpl::LSTMImpl(const LSTMOptions& options_)
    : RNNImplBase(detail::RNNOptionsBase(kLSTM, options_.input_size(), options_.hidden_size())
                      .num_layers(options_.num_layers())
                      .bias(options_.bias())
                      .batch_first(options_.batch_first())
                      .dropout(options_.dropout())
                      .bidirectional(options_.bidirectional())
                      .proj_size(options_.proj_size())),
      options(options_) {
  reset();
}

std::tuple<Tensor, std::tuple<Tensor, Tensor>> LSTMImpl::forward(
    const Tensor& input, std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  std::vector<Tensor> hx(2);
  if (hx_opt) hx = {std::get<0>(*hx_opt), std::get<1>(*hx_opt)};
  auto [out, states] = run(input, hx);
  return {out, {states[0], states[1]}};
}

std::tuple<utils::rnn::PackedSequence, std::tuple<Tensor, Tensor>>
LSTMImpl::forward_with_packed_input(const utils::rnn::PackedSequence& packed_input,
                                    std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  std::vector<Tensor> hx(2);
  if (hx_opt) hx = {std::get<0>(*hx_opt), std::get<1>(*hx_opt)};
  auto [out, states] = run_packed(packed_input, hx);
  return {out, {states[0], states[1]}};
}

GRUImpl::GRUImpl(const GRUOptions& options_)
    : RNNImplBase(detail::RNNOptionsBase(kGRU, options_.input_size(), options_.hidden_size())
                      .num_layers(options_.num_layers())
                      .bias(options_.bias())
                      .batch_first(options_.batch_first())
                      .dropout(options_.dropout())
                      .bidirectional(options_.bidirectional())),
      options(options_) {
  reset();
}

std::tuple<Tensor, Tensor> GRUImpl::forward(const Tensor& input, Tensor hx) {
  auto [out, states] = run(input, {std::move(hx)});
  return {out, states[0]};
}

std::tuple<utils::rnn::PackedSequence, Tensor> GRUImpl::forward_with_packed_input(
    const utils::rnn::PackedSequence& packed_input, Tensor hx) {
  auto [out, states] = run_packed(packed_input, {std::move(hx)});
  return {out, states[0]};
}

}  // namespace brasa::nn
