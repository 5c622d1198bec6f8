#pragma once
// F::pixel_shuffle / F::pixel_unshuffle ([*, C * r^2, H, W] <-> [*, C, H * r, W * r]).

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"

namespace brasa::nn::functional {

struct BRASA_API PixelShuffleFuncOptions {
  PixelShuffleFuncOptions(int64_t upscale_factor) : upscale_factor_(upscale_factor) {}  // NOLINT
  BRASA_ARG(int64_t, upscale_factor);
};
struct BRASA_API PixelUnshuffleFuncOptions {
  PixelUnshuffleFuncOptions(int64_t downscale_factor)  // NOLINT
      : downscale_factor_(downscale_factor) {}
  BRASA_ARG(int64_t, downscale_factor);
};

BRASA_API Tensor pixel_shuffle(const Tensor& input, const PixelShuffleFuncOptions& options);
BRASA_API Tensor pixel_unshuffle(const Tensor& input, const PixelUnshuffleFuncOptions& options);

}  // namespace brasa::nn::functional
