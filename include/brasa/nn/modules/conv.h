#pragma once
// Conv1d/2d/3d and ConvTranspose1d/2d/3d modules with libtorch's option structs:
// `Conv2d(Conv2dOptions(1, 32, 3).padding(1))`, `.padding(torch::kSame)`,
// `.padding_mode(torch::kReflect)`.

#include <cstdint>
#include <optional>
#include <vector>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/enum_variant.h"
#include "brasa/nn/expanding_array.h"
#include "brasa/nn/functional/conv.h"
#include "brasa/nn/modes.h"
#include "brasa/nn/modules/container/any_value.h"
#include "brasa/nn/pimpl.h"

namespace brasa {
namespace nn {
namespace detail {
using conv_padding_mode_t =
    EnumVariant<enumtype::kZeros, enumtype::kReflect, enumtype::kReplicate, enumtype::kCircular>;

/// The options every convolution module shares (libtorch's ConvNdOptions).
template <size_t D>
struct ConvNdOptions {
  using padding_t = conv_padding_t<D>;
  ConvNdOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(kernel_size) {}
  BRASA_ARG(int64_t, in_channels);
  BRASA_ARG(int64_t, out_channels);
  BRASA_ARG(ExpandingArray<D>, kernel_size);
  BRASA_ARG(ExpandingArray<D>, stride) = 1;
  BRASA_ARG(padding_t, padding) = ExpandingArray<D>(0);
  BRASA_ARG(ExpandingArray<D>, dilation) = 1;
  BRASA_ARG(bool, transposed) = false;
  BRASA_ARG(ExpandingArray<D>, output_padding) = 0;
  BRASA_ARG(int64_t, groups) = 1;
  BRASA_ARG(bool, bias) = true;
  BRASA_ARG(conv_padding_mode_t, padding_mode) = enumtype::kZeros{};
};
}  // namespace detail

template <size_t D>
struct ConvOptions {
  using padding_mode_t = detail::conv_padding_mode_t;
  using padding_t = detail::conv_padding_t<D>;
  ConvOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(kernel_size) {}
  BRASA_ARG(int64_t, in_channels);
  BRASA_ARG(int64_t, out_channels);
  BRASA_ARG(ExpandingArray<D>, kernel_size);
  BRASA_ARG(ExpandingArray<D>, stride) = 1;
  BRASA_ARG(padding_t, padding) = ExpandingArray<D>(0);
  BRASA_ARG(ExpandingArray<D>, dilation) = 1;
  BRASA_ARG(int64_t, groups) = 1;
  BRASA_ARG(bool, bias) = true;
  BRASA_ARG(padding_mode_t, padding_mode) = enumtype::kZeros{};
};
using Conv1dOptions = ConvOptions<1>;
using Conv2dOptions = ConvOptions<2>;
using Conv3dOptions = ConvOptions<3>;

template <size_t D>
struct ConvTransposeOptions {
  using padding_mode_t = detail::conv_padding_mode_t;
  ConvTransposeOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(kernel_size) {}
  BRASA_ARG(int64_t, in_channels);
  BRASA_ARG(int64_t, out_channels);
  BRASA_ARG(ExpandingArray<D>, kernel_size);
  BRASA_ARG(ExpandingArray<D>, stride) = 1;
  BRASA_ARG(ExpandingArray<D>, padding) = 0;
  BRASA_ARG(ExpandingArray<D>, output_padding) = 0;
  BRASA_ARG(int64_t, groups) = 1;
  BRASA_ARG(bool, bias) = true;
  BRASA_ARG(ExpandingArray<D>, dilation) = 1;
  /// Only kZeros is supported by transposed convolutions (ValueError otherwise).
  BRASA_ARG(padding_mode_t, padding_mode) = enumtype::kZeros{};
};
using ConvTranspose1dOptions = ConvTransposeOptions<1>;
using ConvTranspose2dOptions = ConvTransposeOptions<2>;
using ConvTranspose3dOptions = ConvTransposeOptions<3>;

/// Shared state of the convolution modules: weight [out, in / groups, *k] (transposed:
/// [in, out / groups, *k]) ~ kaiming_uniform_(a = sqrt(5)), bias [out] ~ U(-1/sqrt(fan_in), ..).
template <size_t D, typename Derived>
class BRASA_API ConvNdImpl : public Cloneable<Derived> {
 public:
  explicit ConvNdImpl(detail::ConvNdOptions<D> options_) : options(std::move(options_)) {}
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  detail::ConvNdOptions<D> options;
  Tensor weight;
  Tensor bias;

 protected:
  /// ValueError naming the layer and both shapes unless `input` is [N, C_in, *D] or [C_in, *D].
  void check_input(const Tensor& input) const;
};

#define BRASA_CONV_MODULE(D)                                                                       \
  /** input [N, C_in, *D] or unbatched [C_in, *D] -> [N, C_out, *D_out]. Non-zeros padding         \
   * modes pad the input with F::pad first. ValueError for a wrong rank or channel count. */       \
  class BRASA_API Conv##D##dImpl : public ConvNdImpl<D, Conv##D##dImpl> {                          \
   public:                                                                                         \
    Conv##D##dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<D> kernel_size) \
        : Conv##D##dImpl(ConvOptions<D>(input_channels, output_channels, kernel_size)) {}          \
    explicit Conv##D##dImpl(ConvOptions<D> options_);                                              \
    Tensor forward(const Tensor& input);                                                           \
  };                                                                                               \
  BRASA_MODULE(Conv##D##d);                                                                        \
  /** Transposed convolution [N, C_in, *D] (or unbatched) -> [N, C_out, *D_out]; output_size       \
   * (full shape or its spatial part) picks output_padding like PyTorch. */                        \
  class BRASA_API ConvTranspose##D##dImpl : public ConvNdImpl<D, ConvTranspose##D##dImpl> {        \
   public:                                                                                         \
    ConvTranspose##D##dImpl(int64_t input_channels, int64_t output_channels,                       \
                            ExpandingArray<D> kernel_size)                                         \
        : ConvTranspose##D                                                                         \
          ##dImpl(ConvTransposeOptions<D>(input_channels, output_channels, kernel_size)) {}        \
    explicit ConvTranspose##D##dImpl(ConvTransposeOptions<D> options_);                            \
    Tensor forward(const Tensor& input, const OptionalIntArrayRef& output_size = std::nullopt);    \
    BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED                                                        \
  };                                                                                               \
  BRASA_MODULE(ConvTranspose##D##d)

BRASA_CONV_MODULE(1);
BRASA_CONV_MODULE(2);
BRASA_CONV_MODULE(3);
#undef BRASA_CONV_MODULE

}  // namespace nn
}  // namespace brasa
