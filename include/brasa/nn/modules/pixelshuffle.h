#pragma once
// PixelShuffle / PixelUnshuffle modules ([*, C * r^2, H, W] <-> [*, C, H * r, W * r]).

#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/pixelshuffle.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

using PixelShuffleOptions = functional::PixelShuffleFuncOptions;
using PixelUnshuffleOptions = functional::PixelUnshuffleFuncOptions;

/// [*, C * r^2, H, W] -> [*, C, H * r, W * r]; errors as F::pixel_shuffle.
class BRASA_API PixelShuffleImpl : public Cloneable<PixelShuffleImpl> {
 public:
  explicit PixelShuffleImpl(const PixelShuffleOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  PixelShuffleOptions options;
};
BRASA_MODULE(PixelShuffle);

/// [*, C, H * r, W * r] -> [*, C * r^2, H, W]; errors as F::pixel_unshuffle.
class BRASA_API PixelUnshuffleImpl : public Cloneable<PixelUnshuffleImpl> {
 public:
  explicit PixelUnshuffleImpl(const PixelUnshuffleOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  PixelUnshuffleOptions options;
};
BRASA_MODULE(PixelUnshuffle);

}  // namespace brasa::nn
