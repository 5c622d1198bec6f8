#pragma once
// Transformer encoder/decoder layers, stacks and the full Transformer, with libtorch 1.13's
// options (plus layer_norm_eps and norm_first from PyTorch 1.13's Python API, defaults unchanged).
// Inputs are sequence-first: src [S, N, E], tgt [T, N, E].

#include <cstdint>
#include <functional>
#include <vector>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/enum_variant.h"
#include "brasa/nn/init_modes.h"
#include "brasa/nn/modules/container/any.h"
#include "brasa/nn/modules/container/modulelist.h"
#include "brasa/nn/modules/dropout.h"
#include "brasa/nn/modules/linear.h"
#include "brasa/nn/modules/multihead_attention.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

using activation_t =
    EnumVariant<enumtype::kReLU, enumtype::kGELU, std::function<Tensor(const Tensor&)>>;

namespace detail {
/// Layer normalisation over the last dim with weight (ones) and bias (zeros) of [d_model]; prints
/// as torch::nn::LayerNorm. Used by the transformer layers (parameters norm*.weight/.bias).
class BRASA_API TransformerNormImpl : public Cloneable<TransformerNormImpl> {
 public:
  TransformerNormImpl(int64_t d_model, double eps) : d_model_(d_model), eps_(eps) { reset(); }
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  Tensor weight;
  Tensor bias;

 private:
  int64_t d_model_;
  double eps_;
};
BRASA_MODULE(TransformerNorm);
}  // namespace detail

struct BRASA_API TransformerEncoderLayerOptions {
  TransformerEncoderLayerOptions(int64_t d_model, int64_t nhead)  // NOLINT
      : d_model_(d_model), nhead_(nhead) {}
  BRASA_ARG(int64_t, d_model);
  BRASA_ARG(int64_t, nhead);
  BRASA_ARG(int64_t, dim_feedforward) = 2048;
  BRASA_ARG(double, dropout) = 0.1;
  BRASA_ARG(activation_t, activation) = kReLU;
  /// brasa extension (PyTorch 1.13 Python): eps of the layer norms.
  BRASA_ARG(double, layer_norm_eps) = 1e-5;
  /// brasa extension (PyTorch 1.13 Python): normalise before attention / feed-forward.
  BRASA_ARG(bool, norm_first) = false;
};

/// Self-attention + feed-forward block. src [S, N, E], src_mask [S, S] or [N*nhead, S, S],
/// src_key_padding_mask [N, S] -> [S, N, E]. Dropout only in training mode.
class BRASA_API TransformerEncoderLayerImpl : public Cloneable<TransformerEncoderLayerImpl> {
 public:
  TransformerEncoderLayerImpl(int64_t d_model, int64_t nhead)
      : TransformerEncoderLayerImpl(TransformerEncoderLayerOptions(d_model, nhead)) {}
  explicit TransformerEncoderLayerImpl(const TransformerEncoderLayerOptions& options_);
  Tensor forward(const Tensor& src, const Tensor& src_mask = {},
                 const Tensor& src_key_padding_mask = {});
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED
  void reset() override;
  void reset_parameters();

  TransformerEncoderLayerOptions options;
  MultiheadAttention self_attn = nullptr;
  Linear linear1 = nullptr;
  Dropout dropout = nullptr;
  Linear linear2 = nullptr;
  detail::TransformerNorm norm1 = nullptr;
  detail::TransformerNorm norm2 = nullptr;
  Dropout dropout1 = nullptr;
  Dropout dropout2 = nullptr;
};
BRASA_MODULE(TransformerEncoderLayer);

struct BRASA_API TransformerDecoderLayerOptions {
  TransformerDecoderLayerOptions(int64_t d_model, int64_t nhead)  // NOLINT
      : d_model_(d_model), nhead_(nhead) {}
  BRASA_ARG(int64_t, d_model);
  BRASA_ARG(int64_t, nhead);
  BRASA_ARG(int64_t, dim_feedforward) = 2048;
  BRASA_ARG(double, dropout) = 0.1;
  BRASA_ARG(activation_t, activation) = kReLU;
  /// brasa extension (PyTorch 1.13 Python).
  BRASA_ARG(double, layer_norm_eps) = 1e-5;
  /// brasa extension (PyTorch 1.13 Python).
  BRASA_ARG(bool, norm_first) = false;
};

/// Self-attention, cross-attention over memory [S, N, E], feed-forward. tgt [T, N, E] -> [T, N, E].
class BRASA_API TransformerDecoderLayerImpl : public Cloneable<TransformerDecoderLayerImpl> {
 public:
  TransformerDecoderLayerImpl(int64_t d_model, int64_t nhead)
      : TransformerDecoderLayerImpl(TransformerDecoderLayerOptions(d_model, nhead)) {}
  explicit TransformerDecoderLayerImpl(const TransformerDecoderLayerOptions& options_);
  void reset() override;
  void reset_parameters();
  Tensor forward(Tensor tgt, const Tensor& memory, const Tensor& tgt_mask = {},
                 const Tensor& memory_mask = {}, const Tensor& tgt_key_padding_mask = {},
                 const Tensor& memory_key_padding_mask = {});
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED

  TransformerDecoderLayerOptions options;
  MultiheadAttention self_attn{nullptr};
  Dropout dropout1{nullptr};
  detail::TransformerNorm norm1{nullptr};
  MultiheadAttention multihead_attn{nullptr};
  Dropout dropout2{nullptr};
  detail::TransformerNorm norm2{nullptr};
  Linear linear1{nullptr};
  Dropout dropout{nullptr};
  Linear linear2{nullptr};
  Dropout dropout3{nullptr};
  detail::TransformerNorm norm3{nullptr};

 protected:
  Tensor activation(const Tensor& input);
};
BRASA_MODULE(TransformerDecoderLayer);

struct BRASA_API TransformerEncoderOptions {
  TransformerEncoderOptions(TransformerEncoderLayer encoder_layer, int64_t num_layers);
  TransformerEncoderOptions(const TransformerEncoderLayerOptions& encoder_layer_options,
                            int64_t num_layers);
  BRASA_ARG(TransformerEncoderLayer, encoder_layer) = nullptr;
  BRASA_ARG(int64_t, num_layers);
  /// Optional final normalisation (any module with Tensor forward(const Tensor&)).
  BRASA_ARG(AnyModule, norm);
};

/// num_layers deep copies of encoder_layer, then norm if given.
class BRASA_API TransformerEncoderImpl : public Cloneable<TransformerEncoderImpl> {
 public:
  TransformerEncoderImpl(TransformerEncoderLayer encoder_layer, int64_t num_layers)
      : TransformerEncoderImpl(TransformerEncoderOptions(std::move(encoder_layer), num_layers)) {}
  explicit TransformerEncoderImpl(TransformerEncoderOptions options_);
  Tensor forward(const Tensor& src, const Tensor& src_mask = {},
                 const Tensor& src_key_padding_mask = {});
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED
  void reset() override;
  void reset_parameters();

  TransformerEncoderOptions options;
  ModuleList layers = nullptr;
  AnyModule norm;
};
BRASA_MODULE(TransformerEncoder);

struct BRASA_API TransformerDecoderOptions {
  TransformerDecoderOptions(TransformerDecoderLayer decoder_layer, int64_t num_layers);
  TransformerDecoderOptions(const TransformerDecoderLayerOptions& decoder_layer_options,
                            int64_t num_layers);
  BRASA_ARG(TransformerDecoderLayer, decoder_layer) = nullptr;
  BRASA_ARG(int64_t, num_layers);
  BRASA_ARG(AnyModule, norm);
};

/// num_layers deep copies of decoder_layer, then norm if given.
class BRASA_API TransformerDecoderImpl : public Cloneable<TransformerDecoderImpl> {
 public:
  TransformerDecoderImpl(TransformerDecoderLayer decoder_layer, int64_t num_layers)
      : TransformerDecoderImpl(TransformerDecoderOptions(std::move(decoder_layer), num_layers)) {}
  explicit TransformerDecoderImpl(TransformerDecoderOptions options_);
  void reset() override;
  void reset_parameters();
  Tensor forward(const Tensor& tgt, const Tensor& memory, const Tensor& tgt_mask = {},
                 const Tensor& memory_mask = {}, const Tensor& tgt_key_padding_mask = {},
                 const Tensor& memory_key_padding_mask = {});
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED

  TransformerDecoderOptions options;
  ModuleList layers{nullptr};
  AnyModule norm;
};
BRASA_MODULE(TransformerDecoder);

struct BRASA_API TransformerOptions {
  TransformerOptions() = default;
  TransformerOptions(int64_t d_model, int64_t nhead) : d_model_(d_model), nhead_(nhead) {}
  TransformerOptions(int64_t d_model, int64_t nhead, int64_t num_encoder_layers,
                     int64_t num_decoder_layers)
      : d_model_(d_model),
        nhead_(nhead),
        num_encoder_layers_(num_encoder_layers),
        num_decoder_layers_(num_decoder_layers) {}
  BRASA_ARG(int64_t, d_model) = 512;
  BRASA_ARG(int64_t, nhead) = 8;
  BRASA_ARG(int64_t, num_encoder_layers) = 6;
  BRASA_ARG(int64_t, num_decoder_layers) = 6;
  BRASA_ARG(int64_t, dim_feedforward) = 2048;
  BRASA_ARG(double, dropout) = 0.1;
  BRASA_ARG(activation_t, activation) = kReLU;
  BRASA_ARG(AnyModule, custom_encoder);
  BRASA_ARG(AnyModule, custom_decoder);
};

/// Encoder-decoder transformer: src [S, N, E], tgt [T, N, E] -> [T, N, E]. Default encoder and
/// decoder end with a layer norm. ValueError when src/tgt batch or feature sizes disagree.
class BRASA_API TransformerImpl : public Cloneable<TransformerImpl> {
 public:
  explicit TransformerImpl(TransformerOptions options_);
  Tensor forward(const Tensor& src, const Tensor& tgt, const Tensor& src_mask = {},
                 const Tensor& tgt_mask = {}, const Tensor& memory_mask = {},
                 const Tensor& src_key_padding_mask = {}, const Tensor& tgt_key_padding_mask = {},
                 const Tensor& memory_key_padding_mask = {});
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED
  void reset() override;
  void reset_parameters();
  /// [sz, sz] float mask: 0 on and below the diagonal, -inf above.
  static Tensor generate_square_subsequent_mask(int64_t sz);

  TransformerOptions options;
  AnyModule encoder;
  AnyModule decoder;
};
BRASA_MODULE(Transformer);

}  // namespace brasa::nn
