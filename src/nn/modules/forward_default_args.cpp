// The forward default arguments of the library's modules (Note [Forward default arguments] in
// brasa/nn/modules/container/any_value.h): what AnyModule fills in when a Sequential calls such a
// module with fewer arguments. Defined here rather than inline in the module headers, where they
// cost every program that includes <torch/torch.h> compile time.

#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "brasa/core/tensor.h"
#include "brasa/nn/modules/container/any_value.h"
#include "brasa/nn/modules/conv.h"
#include "brasa/nn/modules/embedding.h"
#include "brasa/nn/modules/multihead_attention.h"
#include "brasa/nn/modules/rnn.h"
#include "brasa/nn/modules/transformer.h"
#include "brasa/nn/modules/unpooling.h"

namespace brasa::nn {
namespace {

using DefaultArgs = std::vector<std::pair<unsigned int, AnyValue>>;

/// {first, Tensor()}, ..., {last, Tensor()}: the forwards whose trailing defaults are all
/// undefined tensors (masks, hidden states, per-sample weights).
DefaultArgs undefined_tensors(unsigned int first, unsigned int last) {
  DefaultArgs args;
  for (unsigned int i = first; i <= last; ++i) args.emplace_back(i, AnyValue(Tensor()));
  return args;
}

DefaultArgs no_lstm_state() { return {{1, AnyValue(std::optional<std::tuple<Tensor, Tensor>>())}}; }

}  // namespace

#define BRASA_DEFAULT_ARGS(Impl, ...) \
  DefaultArgs Impl::_forward_default_args() { return __VA_ARGS__; }

BRASA_DEFAULT_ARGS(ConvTranspose1dImpl, {{1, AnyValue(OptionalIntArrayRef())}})
BRASA_DEFAULT_ARGS(ConvTranspose2dImpl, {{1, AnyValue(OptionalIntArrayRef())}})
BRASA_DEFAULT_ARGS(ConvTranspose3dImpl, {{1, AnyValue(OptionalIntArrayRef())}})
BRASA_DEFAULT_ARGS(MaxUnpool1dImpl, {{2, AnyValue(std::optional<std::vector<int64_t>>())}})
BRASA_DEFAULT_ARGS(MaxUnpool2dImpl, {{2, AnyValue(std::optional<std::vector<int64_t>>())}})
BRASA_DEFAULT_ARGS(MaxUnpool3dImpl, {{2, AnyValue(std::optional<std::vector<int64_t>>())}})
BRASA_DEFAULT_ARGS(MultiheadAttentionImpl, {{3, AnyValue(Tensor())},
                                            {4, AnyValue(true)},
                                            {5, AnyValue(Tensor())},
                                            {6, AnyValue(true)}})
BRASA_DEFAULT_ARGS(RNNImpl, undefined_tensors(1, 1))
BRASA_DEFAULT_ARGS(GRUImpl, undefined_tensors(1, 1))
BRASA_DEFAULT_ARGS(LSTMImpl, no_lstm_state())
BRASA_DEFAULT_ARGS(RNNCellImpl, undefined_tensors(1, 1))
BRASA_DEFAULT_ARGS(GRUCellImpl, undefined_tensors(1, 1))
BRASA_DEFAULT_ARGS(LSTMCellImpl, no_lstm_state())
BRASA_DEFAULT_ARGS(EmbeddingBagImpl, undefined_tensors(1, 2))
BRASA_DEFAULT_ARGS(TransformerEncoderLayerImpl, undefined_tensors(1, 2))
BRASA_DEFAULT_ARGS(TransformerEncoderImpl, undefined_tensors(1, 2))
BRASA_DEFAULT_ARGS(TransformerDecoderLayerImpl, undefined_tensors(2, 5))
BRASA_DEFAULT_ARGS(TransformerDecoderImpl, undefined_tensors(2, 5))
BRASA_DEFAULT_ARGS(TransformerImpl, undefined_tensors(2, 7))
#undef BRASA_DEFAULT_ARGS

}  // namespace brasa::nn
