// RNNCell, LSTMCell and GRUCell.

#include <cmath>
#include <sstream>

#include "brasa/core/error.h"
#include "brasa/nn/init.h"
#include "brasa/nn/modules/rnn.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/linalg.h"
#include "rnn_step.h"

namespace brasa::nn {
namespace detail {

template <typename Derived>
void RNNCellImplBase<Derived>::reset() {
  const auto& o = options_base;
  BRASA_CHECK(o.input_size() > 0 && o.hidden_size() > 0, this->name(),
              ": input_size and hidden_size must be positive, got ", o.input_size(), " and ",
              o.hidden_size());
  const int64_t gates = o.num_chunks() * o.hidden_size();
  weight_ih = this->register_parameter("weight_ih", empty({gates, o.input_size()}));
  weight_hh = this->register_parameter("weight_hh", empty({gates, o.hidden_size()}));
  if (o.bias()) {
    bias_ih = this->register_parameter("bias_ih", empty({gates}));
    bias_hh = this->register_parameter("bias_hh", empty({gates}));
  } else {
    bias_ih = this->register_parameter("bias_ih", Tensor(), false);
    bias_hh = this->register_parameter("bias_hh", Tensor(), false);
  }
  reset_parameters();
}

template <typename Derived>
void RNNCellImplBase<Derived>::reset_parameters() {
  const double bound = 1.0 / std::sqrt(static_cast<double>(options_base.hidden_size()));
  for (auto& p : this->parameters()) init::uniform_(p, -bound, bound);
}

template <typename Derived>
void RNNCellImplBase<Derived>::pretty_print(std::ostream& stream) const {
  const std::string& name = this->name();
  stream << name.substr(0, name.size() - 4) << "(" << options_base.input_size() << ", "
         << options_base.hidden_size();
  if (!options_base.bias()) stream << ", bias=false";
  stream << nonlinearity_str() << ")";
}

template <typename Derived>
std::tuple<Tensor, Tensor> RNNCellImplBase<Derived>::check_and_batch(const Tensor& input,
                                                                     const Tensor& hx,
                                                                     const Tensor& cx) const {
  const std::string layer = this->name().substr(0, this->name().size() - 4);
  std::ostringstream in_shape;
  in_shape << input.sizes();
  BRASA_CHECK(input.dim() == 1 || input.dim() == 2, layer, ": Expected input to be 1D or 2D, got ",
              input.dim(), "D tensor of shape ", in_shape.str());
  BRASA_CHECK(input.size(-1) == options_base.input_size(), layer,
              ": input has inconsistent input_size: got ", input.size(-1), " expected ",
              options_base.input_size(), " (input shape ", in_shape.str(), ")");
  Tensor x = input.dim() == 1 ? input.unsqueeze(0) : input;
  for (const Tensor* state : {&hx, &cx}) {
    if (!state->defined()) continue;
    std::ostringstream shape;
    shape << state->sizes();
    BRASA_CHECK(state->dim() == input.dim() && state->size(-1) == options_base.hidden_size() &&
                    (input.dim() == 1 || state->size(0) == input.size(0)),
                layer, ": hidden state of shape ", shape.str(), " does not match input of shape ",
                in_shape.str(), " and hidden_size ", options_base.hidden_size());
  }
  return {x, hx.defined() ? (hx.dim() == 1 ? hx.unsqueeze(0) : hx)
                          : zeros({x.size(0), options_base.hidden_size()}, x.options())};
}

template class RNNCellImplBase<RNNCellImpl>;
template class RNNCellImplBase<LSTMCellImpl>;
template class RNNCellImplBase<GRUCellImpl>;

}  // namespace detail

RNNCellImpl::RNNCellImpl(const RNNCellOptions& options_)
    : RNNCellImplBase(detail::RNNCellOptionsBase(options_.input_size(), options_.hidden_size(),
                                                 options_.bias(), 1)),
      options(options_) {
  reset();
}

std::string RNNCellImpl::nonlinearity_str() const {
  return nn::holds_alternative<enumtype::kReLU>(options.nonlinearity()) ? ", nonlinearity=kReLU"
                                                                        : "";
}

Tensor RNNCellImpl::forward(const Tensor& input, Tensor hx) {
  auto [x, h] = check_and_batch(input, hx);
  const auto kind = nn::holds_alternative<enumtype::kReLU>(options.nonlinearity())
                        ? detail::CellKind::kReLU
                        : detail::CellKind::kTanh;
  Tensor gi = options.bias() ? linear(x, weight_ih, bias_ih + bias_hh) : linear(x, weight_ih);
  Tensor out = detail::rnn_step(kind, gi, h, weight_hh);
  return input.dim() == 1 ? out.squeeze(0) : out;
}

LSTMCellImpl::LSTMCellImpl(const LSTMCellOptions& options_)
    : RNNCellImplBase(detail::RNNCellOptionsBase(options_.input_size(), options_.hidden_size(),
                                                 options_.bias(), 4)),
      options(options_) {
  reset();
}

std::tuple<Tensor, Tensor> LSTMCellImpl::forward(const Tensor& input,
                                                 std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  Tensor h0 = hx_opt ? std::get<0>(*hx_opt) : Tensor();
  Tensor c0 = hx_opt ? std::get<1>(*hx_opt) : Tensor();
  auto [x, h] = check_and_batch(input, h0, c0);
  Tensor c = c0.defined() ? (c0.dim() == 1 ? c0.unsqueeze(0) : c0) : zeros_like(h);
  Tensor gi = options.bias() ? linear(x, weight_ih, bias_ih + bias_hh) : linear(x, weight_ih);
  auto [h1, c1] = detail::lstm_step(gi, h, c, weight_hh);
  if (input.dim() == 1) return {h1.squeeze(0), c1.squeeze(0)};
  return {h1, c1};
}

GRUCellImpl::GRUCellImpl(const GRUCellOptions& options_)
    : RNNCellImplBase(detail::RNNCellOptionsBase(options_.input_size(), options_.hidden_size(),
                                                 options_.bias(), 3)),
      options(options_) {
  reset();
}

Tensor GRUCellImpl::forward(const Tensor& input, Tensor hx) {
  auto [x, h] = check_and_batch(input, hx);
  Tensor gi = linear(x, weight_ih, bias_ih);
  Tensor out = detail::gru_step(gi, h, weight_hh, bias_hh);
  return input.dim() == 1 ? out.squeeze(0) : out;
}

}  // namespace brasa::nn
