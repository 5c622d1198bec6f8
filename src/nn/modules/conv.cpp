// Conv1d/2d/3d and ConvTranspose1d/2d/3d.

#include "brasa/nn/modules/conv.h"

#include <cmath>
#include <sstream>
#include <string>

#include "brasa/core/error.h"
#include "brasa/nn/functional/padding.h"
#include "brasa/nn/init.h"
#include "brasa/ops/conv.h"
#include "brasa/ops/factory.h"
#include "print_util.h"

namespace brasa::nn {
namespace {

template <size_t D>
detail::ConvNdOptions<D> nd_options(const ConvOptions<D>& o) {
  return detail::ConvNdOptions<D>(o.in_channels(), o.out_channels(), o.kernel_size())
      .stride(o.stride())
      .padding(o.padding())
      .dilation(o.dilation())
      .transposed(false)
      .groups(o.groups())
      .bias(o.bias())
      .padding_mode(o.padding_mode());
}

template <size_t D>
detail::ConvNdOptions<D> nd_options(const ConvTransposeOptions<D>& o) {
  return detail::ConvNdOptions<D>(o.in_channels(), o.out_channels(), o.kernel_size())
      .stride(o.stride())
      .padding(o.padding())
      .dilation(o.dilation())
      .transposed(true)
      .output_padding(o.output_padding())
      .groups(o.groups())
      .bias(o.bias())
      .padding_mode(o.padding_mode());
}

// "Conv2d(1, 32, kernel_size=[3, 3])", the layer's name in error messages.
template <size_t D>
std::string short_name(const detail::ConvNdOptions<D>& o) {
  std::ostringstream s;
  s << (o.transposed() ? "ConvTranspose" : "Conv") << D << "d(" << o.in_channels() << ", "
    << o.out_channels() << ", kernel_size=" << detail::print(o.kernel_size()) << ")";
  return s.str();
}

// F::pad's (left, right) pairs, last dim first, for a non-zeros padding mode.
template <size_t D>
std::vector<int64_t> explicit_padding(const detail::ConvNdOptions<D>& o) {
  std::vector<int64_t> pad;
  for (size_t j = D; j-- > 0;) {
    int64_t left = 0, right = 0;
    if (nn::holds_alternative<enumtype::kSame>(o.padding())) {
      const int64_t total = o.dilation()[j] * (o.kernel_size()[j] - 1);
      left = total / 2;
      right = total - left;
    } else if (const auto* p = nn::get_if<ExpandingArray<D>>(&o.padding())) {
      left = right = (*p)[j];
    }
    pad.push_back(left);
    pad.push_back(right);
  }
  return pad;
}

}  // namespace

template <size_t D, typename Derived>
void ConvNdImpl<D, Derived>::reset() {
  const std::string name = short_name(options);
  BRASA_CHECK(
      options.in_channels() > 0 && options.out_channels() > 0 && options.groups() > 0, name,
      ": in_channels, out_channels and groups must be positive, got groups=", options.groups());
  BRASA_CHECK(options.in_channels() % options.groups() == 0, name,
              ": in_channels must be divisible by groups (", options.groups(), ")");
  BRASA_CHECK(options.out_channels() % options.groups() == 0, name,
              ": out_channels must be divisible by groups (", options.groups(), ")");
  // Stride and dilation are checked by the convolution when it runs, as in libtorch, whose
  // modules accept (and print) any value.
  if (nn::holds_alternative<enumtype::kSame>(options.padding())) {
    for (size_t i = 0; i < D; ++i)
      BRASA_CHECK(options.stride()[i] == 1, name,
                  ": padding='same' is not supported for strided convolutions");
  }
  std::vector<int64_t> shape =
      options.transposed()
          ? std::vector<int64_t>{options.in_channels(), options.out_channels() / options.groups()}
          : std::vector<int64_t>{options.out_channels(), options.in_channels() / options.groups()};
  for (size_t i = 0; i < D; ++i) shape.push_back(options.kernel_size()[i]);
  weight = this->register_parameter("weight", brasa::empty(shape));
  bias = options.bias() ? this->register_parameter("bias", empty({options.out_channels()}))
                        : this->register_parameter("bias", Tensor(), false);
  reset_parameters();
}

template <size_t D, typename Derived>
void ConvNdImpl<D, Derived>::reset_parameters() {
  init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (bias.defined()) {
    const int64_t fan_in = std::get<0>(init::_calculate_fan_in_and_fan_out(weight));
    if (fan_in != 0) {
      const double bound = 1.0 / std::sqrt(static_cast<double>(fan_in));
      init::uniform_(bias, -bound, bound);
    }
  }
}

template <size_t D, typename Derived>
void ConvNdImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::" << (options.transposed() ? "ConvTranspose" : "Conv") << D << "d("
         << options.in_channels() << ", " << options.out_channels()
         << ", kernel_size=" << detail::print(options.kernel_size())
         << ", stride=" << detail::print(options.stride());
  if (nn::holds_alternative<enumtype::kValid>(options.padding())) {
    stream << ", padding='valid'";
  } else if (nn::holds_alternative<enumtype::kSame>(options.padding())) {
    stream << ", padding='same'";
  } else {
    const auto& pad = nn::get<ExpandingArray<D>>(options.padding());
    if (*pad != *ExpandingArray<D>(0)) stream << ", padding=" << detail::print(pad);
  }
  if (*options.dilation() != *ExpandingArray<D>(1))
    stream << ", dilation=" << detail::print(options.dilation());
  if (*options.output_padding() != *ExpandingArray<D>(0))
    stream << ", output_padding=" << detail::print(options.output_padding());
  if (options.groups() != 1) stream << ", groups=" << options.groups();
  if (!options.bias()) stream << ", bias=false";
  if (!nn::holds_alternative<enumtype::kZeros>(options.padding_mode())) {
    stream << ", padding_mode="
           << nn::visit(
                  [](auto tag) -> const char* {
                    if constexpr (std::is_same_v<decltype(tag), enumtype::kZeros>)
                      return "kZeros";
                    else
                      return detail::enum_name(tag);
                  },
                  options.padding_mode());
  }
  stream << ")";
}

template <size_t D, typename Derived>
void ConvNdImpl<D, Derived>::check_input(const Tensor& input) const {
  // libtorch's transposed modules take (and print) any padding mode and refuse it when they run.
  BRASA_CHECK(
      !options.transposed() || nn::holds_alternative<enumtype::kZeros>(options.padding_mode()),
      short_name(options),
      ": only the zeros padding mode is supported for transposed convolutions");
  const int64_t dim = input.dim();
  BRASA_CHECK(dim == int64_t(D) + 1 || dim == int64_t(D) + 2, short_name(options), ": expected a ",
              D + 1, "-D (unbatched) or ", D + 2, "-D (batched) input, got ", input.sizes());
  // The weight decides, not options.in_channels: libtorch programs replace weights with ones of
  // other shapes (weight.set_data) and the convolution follows them.
  const int64_t channels = input.size(dim == int64_t(D) + 2 ? 1 : 0);
  const int64_t expected =
      options.transposed() ? weight.size(0) : weight.size(1) * options.groups();
  BRASA_CHECK(channels == expected, short_name(options), ": expected input with ", expected,
              " channels, got ", input.sizes());
}

#define BRASA_CONV_DEFINE(D)                                                                     \
  template class ConvNdImpl<D, Conv##D##dImpl>;                                                  \
  template class ConvNdImpl<D, ConvTranspose##D##dImpl>;                                         \
  Conv##D##dImpl::Conv##D##dImpl(ConvOptions<D> options_) : ConvNdImpl(nd_options(options_)) {   \
    reset();                                                                                     \
  }                                                                                              \
  Tensor Conv##D##dImpl::forward(const Tensor& input) {                                          \
    check_input(input);                                                                          \
    functional::ConvFuncOptions<D> f;                                                            \
    f.bias(bias).stride(options.stride()).dilation(options.dilation()).groups(options.groups()); \
    if (nn::holds_alternative<enumtype::kZeros>(options.padding_mode())) {                       \
      f.padding(options.padding());                                                              \
      return functional::conv##D##d(input, weight, f);                                           \
    }                                                                                            \
    functional::PadFuncOptions p(explicit_padding(options));                                     \
    nn::visit(                                                                                   \
        [&](auto tag) {                                                                          \
          if constexpr (!std::is_same_v<decltype(tag), enumtype::kZeros>) p.mode(tag);           \
        },                                                                                       \
        options.padding_mode());                                                                 \
    f.padding(ExpandingArray<D>(0));                                                             \
    return functional::conv##D##d(functional::pad(input, p), weight, f);                         \
  }                                                                                              \
  ConvTranspose##D##dImpl::ConvTranspose##D##dImpl(ConvTransposeOptions<D> options_)             \
      : ConvNdImpl(nd_options(options_)) {                                                       \
    reset();                                                                                     \
  }                                                                                              \
  Tensor ConvTranspose##D##dImpl::forward(const Tensor& input,                                   \
                                          const OptionalIntArrayRef& output_size) {              \
    check_input(input);                                                                          \
    const auto& pad = nn::get<ExpandingArray<D>>(options.padding());                             \
    return conv_transpose##D##d(                                                                 \
        input, weight, bias, options.stride(), pad,                                              \
        transposed_output_padding<D>(options, input, output_size, short_name(options)),          \
        options.groups(), options.dilation());                                                   \
  }

namespace {
template <size_t D>
std::vector<int64_t> transposed_output_padding(const detail::ConvNdOptions<D>& o,
                                               const Tensor& input,
                                               const OptionalIntArrayRef& output_size,
                                               const std::string& name) {
  std::vector<int64_t> out(o.output_padding()->begin(), o.output_padding()->end());
  if (!output_size) return out;
  IntArrayRef size = *output_size;
  BRASA_CHECK(size.size() == D || size.size() == size_t(input.dim()), name,
              ": output_size must have ", D, " or ", input.dim(), " elements, got ", size);
  size = size.slice(size.size() - D);
  const auto& pad = nn::get<ExpandingArray<D>>(o.padding());
  for (size_t i = 0; i < D; ++i) {
    const int64_t in = input.size(input.dim() - int64_t(D) + int64_t(i));
    const int64_t min_size =
        (in - 1) * o.stride()[i] - 2 * pad[i] + o.dilation()[i] * (o.kernel_size()[i] - 1) + 1;
    const int64_t max_size = min_size + o.stride()[i] - 1;
    BRASA_CHECK(size[i] >= min_size && size[i] <= max_size, name, ": requested output size ", size,
                " is not reachable from input ", input.sizes(), " (dim ", i, " must be in [",
                min_size, ", ", max_size, "])");
    out[i] = size[i] - min_size;
  }
  return out;
}
}  // namespace

BRASA_CONV_DEFINE(1)
BRASA_CONV_DEFINE(2)
BRASA_CONV_DEFINE(3)

}  // namespace brasa::nn
