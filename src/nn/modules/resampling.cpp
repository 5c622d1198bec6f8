// PixelShuffle, PixelUnshuffle and Upsample.

#include "brasa/nn/modules/pixelshuffle.h"
#include "brasa/nn/modules/upsampling.h"
#include "print_util.h"

namespace brasa::nn {

void PixelShuffleImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::PixelShuffle(upscale_factor=" << options.upscale_factor() << ")";
}
Tensor PixelShuffleImpl::forward(const Tensor& input) {
  return functional::pixel_shuffle(input, options);
}

void PixelUnshuffleImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::PixelUnshuffle(downscale_factor=" << options.downscale_factor() << ")";
}
Tensor PixelUnshuffleImpl::forward(const Tensor& input) {
  return functional::pixel_unshuffle(input, options);
}

void UpsampleImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Upsample(";
  if (options.scale_factor())
    stream << "scale_factor=" << ArrayRef<double>(*options.scale_factor());
  else if (options.size())
    stream << "size=" << IntArrayRef(*options.size());
  stream << ", mode=" << detail::enum_name(options.mode()) << ")";
}

Tensor UpsampleImpl::forward(const Tensor& input) {
  functional::InterpolateFuncOptions f;
  f.size(options.size())
      .scale_factor(options.scale_factor())
      .align_corners(options.align_corners());
  nn::visit([&](auto tag) { f.mode(tag); }, options.mode());
  return functional::interpolate(input, f);
}

}  // namespace brasa::nn
