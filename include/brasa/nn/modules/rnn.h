#pragma once
// Recurrent layers RNN, LSTM, GRU and their cells, with libtorch's option structs and return types.
// Each step computes all gates with one fused matrix product (Note [Fused recurrent gates]).

#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/enum_variant.h"
#include "brasa/nn/init_modes.h"
#include "brasa/nn/modules/container/any_value.h"
#include "brasa/nn/pimpl.h"
#include "brasa/nn/utils/rnn.h"

namespace brasa {
namespace enumtype {
struct kLSTM {};
struct kGRU {};
struct kRNN_TANH {};
struct kRNN_RELU {};
}  // namespace enumtype
inline constexpr enumtype::kLSTM kLSTM{};
inline constexpr enumtype::kGRU kGRU{};
inline constexpr enumtype::kRNN_TANH kRNN_TANH{};
inline constexpr enumtype::kRNN_RELU kRNN_RELU{};
}  // namespace brasa

namespace brasa::nn {

namespace detail {
struct BRASA_API RNNOptionsBase {
  using rnn_options_base_mode_t =
      EnumVariant<enumtype::kLSTM, enumtype::kGRU, enumtype::kRNN_TANH, enumtype::kRNN_RELU>;
  RNNOptionsBase(rnn_options_base_mode_t mode, int64_t input_size, int64_t hidden_size)
      : mode_(mode), input_size_(input_size), hidden_size_(hidden_size) {}
  BRASA_ARG(rnn_options_base_mode_t, mode);
  BRASA_ARG(int64_t, input_size);
  BRASA_ARG(int64_t, hidden_size);
  BRASA_ARG(int64_t, num_layers) = 1;
  BRASA_ARG(bool, bias) = true;
  BRASA_ARG(bool, batch_first) = false;
  BRASA_ARG(double, dropout) = 0.0;
  BRASA_ARG(bool, bidirectional) = false;
  BRASA_ARG(int64_t, proj_size) = 0;
};
}  // namespace detail

struct BRASA_API RNNOptions {
  using nonlinearity_t = EnumVariant<enumtype::kTanh, enumtype::kReLU>;
  RNNOptions(int64_t input_size, int64_t hidden_size)
      : input_size_(input_size), hidden_size_(hidden_size) {}
  BRASA_ARG(int64_t, input_size);
  BRASA_ARG(int64_t, hidden_size);
  BRASA_ARG(int64_t, num_layers) = 1;
  BRASA_ARG(nonlinearity_t, nonlinearity) = kTanh;
  BRASA_ARG(bool, bias) = true;
  BRASA_ARG(bool, batch_first) = false;
  BRASA_ARG(double, dropout) = 0.0;
  BRASA_ARG(bool, bidirectional) = false;
};

struct BRASA_API LSTMOptions {
  LSTMOptions(int64_t input_size, int64_t hidden_size)
      : input_size_(input_size), hidden_size_(hidden_size) {}
  BRASA_ARG(int64_t, input_size);
  BRASA_ARG(int64_t, hidden_size);
  BRASA_ARG(int64_t, num_layers) = 1;
  BRASA_ARG(bool, bias) = true;
  BRASA_ARG(bool, batch_first) = false;
  BRASA_ARG(double, dropout) = 0.0;
  BRASA_ARG(bool, bidirectional) = false;
  /// Only 0 is supported (NotImplementedError otherwise).
  BRASA_ARG(int64_t, proj_size) = 0;
};

struct BRASA_API GRUOptions {
  GRUOptions(int64_t input_size, int64_t hidden_size)
      : input_size_(input_size), hidden_size_(hidden_size) {}
  BRASA_ARG(int64_t, input_size);
  BRASA_ARG(int64_t, hidden_size);
  BRASA_ARG(int64_t, num_layers) = 1;
  BRASA_ARG(bool, bias) = true;
  BRASA_ARG(bool, batch_first) = false;
  BRASA_ARG(double, dropout) = 0.0;
  BRASA_ARG(bool, bidirectional) = false;
};

namespace detail {
/// Shared parameters and stacking logic of RNN/LSTM/GRU. Per layer l and direction (suffix
/// "_reverse"): weight_ih_l{l} [G*H, in], weight_hh_l{l} [G*H, H], bias_ih_l{l}, bias_hh_l{l}
/// [G*H], all ~ U(-1/sqrt(H), 1/sqrt(H)); G = 4 (LSTM), 3 (GRU), 1 (RNN). An LSTM with proj_size
/// P > 0 adds weight_hr_l{l} [P, H] after them, and h (so weight_hh's columns and the next
/// layer's input) has P features; ValueError unless 0 <= P < H.
template <typename Derived>
class BRASA_API RNNImplBase : public Cloneable<Derived> {
 public:
  explicit RNNImplBase(const RNNOptionsBase& options_) : options_base(options_) {}
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  /// No-op (kept for source compatibility with cuDNN code paths).
  void flatten_parameters() {}
  /// Every weight, in registration order.
  std::vector<Tensor> all_weights() const;

  RNNOptionsBase options_base;

 protected:
  /// Checks input [T, B, in] (or [B, T, in] / unbatched [T, in]) and the hidden states,
  /// runs every layer and direction. hx holds one [L*D, B, H] tensor (two for LSTM), undefined
  /// for zeros. Returns output and the final states.
  std::tuple<Tensor, std::vector<Tensor>> run(const Tensor& input, std::vector<Tensor> hx);
  /// run() over a pack; hx and the final states in the caller's batch order.
  std::tuple<utils::rnn::PackedSequence, std::vector<Tensor>> run_packed(
      const utils::rnn::PackedSequence& input, std::vector<Tensor> hx);
  /// Checks hx (or makes zeros) [num_layers * dirs, batch, *] for a batched run.
  void prepare_states(std::vector<Tensor>& hx, int64_t batch, bool batched,
                      const TensorOptions& options) const;

  std::vector<std::string> flat_weights_names_;
  std::vector<Tensor> flat_weights_;
};
}  // namespace detail

/// Elman RNN: h_t = act(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh), act = tanh or relu.
/// input [T, B, in] ([B, T, in] when batch_first, or unbatched [T, in]), hx [L*D, B, H] ->
/// (output [T, B, D*H], h_n [L*D, B, H]). ValueError naming the shapes on a mismatch.
class BRASA_API RNNImpl : public detail::RNNImplBase<RNNImpl> {
 public:
  RNNImpl(int64_t input_size, int64_t hidden_size) : RNNImpl(RNNOptions(input_size, hidden_size)) {}
  explicit RNNImpl(const RNNOptions& options_);
  std::tuple<Tensor, Tensor> forward(const Tensor& input, Tensor hx = {});
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED
  /// The layer over a PackedSequence (data [sum(lengths), input_size]); the output is packed
  /// like the input, hx and h_n are [num_layers * dirs, batch, hidden_size].
  std::tuple<utils::rnn::PackedSequence, Tensor> forward_with_packed_input(
      const utils::rnn::PackedSequence& packed_input, Tensor hx = {});

  RNNOptions options;
};
BRASA_MODULE(RNN);

/// LSTM with gates i, f, g, o (in that order in the weights). Shapes as RNN; the state is
/// (h [L*D, B, H], c [L*D, B, H]). Returns (output, (h_n, c_n)). With proj_size P, h and the
/// output's features are P (output [T, B, D*P]); c keeps H.
class BRASA_API LSTMImpl : public detail::RNNImplBase<LSTMImpl> {
 public:
  LSTMImpl(int64_t input_size, int64_t hidden_size)
      : LSTMImpl(LSTMOptions(input_size, hidden_size)) {}
  explicit LSTMImpl(const LSTMOptions& options_);
  std::tuple<Tensor, std::tuple<Tensor, Tensor>> forward(
      const Tensor& input, std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED
  /// The layer over a PackedSequence, as RNN's.
  std::tuple<utils::rnn::PackedSequence, std::tuple<Tensor, Tensor>> forward_with_packed_input(
      const utils::rnn::PackedSequence& packed_input,
      std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});

  LSTMOptions options;
};
BRASA_MODULE(LSTM);

/// GRU with gates r, z, n: n = tanh(x W_in^T + b_in + r * (h W_hn^T + b_hn)),
/// h' = (1 - z) * n + z * h. Shapes as RNN.
class BRASA_API GRUImpl : public detail::RNNImplBase<GRUImpl> {
 public:
  GRUImpl(int64_t input_size, int64_t hidden_size) : GRUImpl(GRUOptions(input_size, hidden_size)) {}
  explicit GRUImpl(const GRUOptions& options_);
  std::tuple<Tensor, Tensor> forward(const Tensor& input, Tensor hx = {});
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED
  /// The layer over a PackedSequence, as RNN's.
  std::tuple<utils::rnn::PackedSequence, Tensor> forward_with_packed_input(
      const utils::rnn::PackedSequence& packed_input, Tensor hx = {});

  GRUOptions options;
};
BRASA_MODULE(GRU);

struct BRASA_API RNNCellOptions {
  using nonlinearity_t = EnumVariant<enumtype::kTanh, enumtype::kReLU>;
  RNNCellOptions(int64_t input_size, int64_t hidden_size)
      : input_size_(input_size), hidden_size_(hidden_size) {}
  BRASA_ARG(int64_t, input_size);
  BRASA_ARG(int64_t, hidden_size);
  BRASA_ARG(bool, bias) = true;
  BRASA_ARG(nonlinearity_t, nonlinearity) = kTanh;
};

struct BRASA_API LSTMCellOptions {
  LSTMCellOptions(int64_t input_size, int64_t hidden_size)
      : input_size_(input_size), hidden_size_(hidden_size) {}
  BRASA_ARG(int64_t, input_size);
  BRASA_ARG(int64_t, hidden_size);
  BRASA_ARG(bool, bias) = true;
};

struct BRASA_API GRUCellOptions {
  GRUCellOptions(int64_t input_size, int64_t hidden_size)
      : input_size_(input_size), hidden_size_(hidden_size) {}
  BRASA_ARG(int64_t, input_size);
  BRASA_ARG(int64_t, hidden_size);
  BRASA_ARG(bool, bias) = true;
};

namespace detail {
struct BRASA_API RNNCellOptionsBase {
  RNNCellOptionsBase(int64_t input_size, int64_t hidden_size, bool bias, int64_t num_chunks)
      : input_size_(input_size), hidden_size_(hidden_size), bias_(bias), num_chunks_(num_chunks) {}
  BRASA_ARG(int64_t, input_size);
  BRASA_ARG(int64_t, hidden_size);
  BRASA_ARG(bool, bias);
  BRASA_ARG(int64_t, num_chunks);
};

/// One step of a recurrent layer: weight_ih [G*H, in], weight_hh [G*H, H], bias_ih, bias_hh [G*H].
template <typename Derived>
class BRASA_API RNNCellImplBase : public Cloneable<Derived> {
 public:
  explicit RNNCellImplBase(const RNNCellOptionsBase& options_) : options_base(options_) {}
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  RNNCellOptionsBase options_base;
  Tensor weight_ih;
  Tensor weight_hh;
  Tensor bias_ih;
  Tensor bias_hh;

 protected:
  /// input [B, in] or [in]; hx [B, H] or [H] (undefined: zeros). Returns (input, hx) batched.
  std::tuple<Tensor, Tensor> check_and_batch(const Tensor& input, const Tensor& hx,
                                             const Tensor& cx = {}) const;
  virtual std::string nonlinearity_str() const { return ""; }
};
}  // namespace detail

/// input [B, in] (or [in]), hx [B, H] -> h' [B, H].
class BRASA_API RNNCellImpl : public detail::RNNCellImplBase<RNNCellImpl> {
 public:
  RNNCellImpl(int64_t input_size, int64_t hidden_size)
      : RNNCellImpl(RNNCellOptions(input_size, hidden_size)) {}
  explicit RNNCellImpl(const RNNCellOptions& options_);
  Tensor forward(const Tensor& input, Tensor hx = {});
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED

  RNNCellOptions options;

 protected:
  std::string nonlinearity_str() const override;
};
BRASA_MODULE(RNNCell);

/// input [B, in] (or [in]), (h, c) [B, H] -> (h', c').
class BRASA_API LSTMCellImpl : public detail::RNNCellImplBase<LSTMCellImpl> {
 public:
  LSTMCellImpl(int64_t input_size, int64_t hidden_size)
      : LSTMCellImpl(LSTMCellOptions(input_size, hidden_size)) {}
  explicit LSTMCellImpl(const LSTMCellOptions& options_);
  std::tuple<Tensor, Tensor> forward(const Tensor& input,
                                     std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED

  LSTMCellOptions options;
};
BRASA_MODULE(LSTMCell);

/// input [B, in] (or [in]), hx [B, H] -> h' [B, H].
class BRASA_API GRUCellImpl : public detail::RNNCellImplBase<GRUCellImpl> {
 public:
  GRUCellImpl(int64_t input_size, int64_t hidden_size)
      : GRUCellImpl(GRUCellOptions(input_size, hidden_size)) {}
  explicit GRUCellImpl(const GRUCellOptions& options_);
  Tensor forward(const Tensor& input, Tensor hx = {});
  BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED

  GRUCellOptions options;
};
BRASA_MODULE(GRUCell);

}  // namespace brasa::nn
