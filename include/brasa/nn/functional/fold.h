#pragma once
// F::unfold (im2col: [N, C, H, W] -> [N, C * kh * kw, L]) and F::fold (col2im, summing overlaps),
// with the options of the Fold / Unfold modules.

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/expanding_array.h"

namespace brasa::nn {

struct BRASA_API FoldOptions {
  FoldOptions(ExpandingArray<2> output_size, ExpandingArray<2> kernel_size)
      : output_size_(output_size), kernel_size_(kernel_size) {}
  BRASA_ARG(ExpandingArray<2>, output_size);
  BRASA_ARG(ExpandingArray<2>, kernel_size);
  BRASA_ARG(ExpandingArray<2>, dilation) = 1;
  BRASA_ARG(ExpandingArray<2>, padding) = 0;
  BRASA_ARG(ExpandingArray<2>, stride) = 1;
};
struct BRASA_API UnfoldOptions {
  UnfoldOptions(ExpandingArray<2> kernel_size) : kernel_size_(kernel_size) {}  // NOLINT
  BRASA_ARG(ExpandingArray<2>, kernel_size);
  BRASA_ARG(ExpandingArray<2>, dilation) = 1;
  BRASA_ARG(ExpandingArray<2>, padding) = 0;
  BRASA_ARG(ExpandingArray<2>, stride) = 1;
};

namespace functional {

using FoldFuncOptions = FoldOptions;
using UnfoldFuncOptions = UnfoldOptions;

BRASA_API Tensor fold(const Tensor& input, const FoldFuncOptions& options);
BRASA_API Tensor unfold(const Tensor& input, const UnfoldFuncOptions& options);

}  // namespace functional
}  // namespace brasa::nn
