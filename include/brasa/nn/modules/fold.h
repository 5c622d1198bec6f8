#pragma once
// Fold (col2im: [N, C * kh * kw, L] -> [N, C, H, W], overlaps summed) and Unfold (im2col, its
// adjoint) modules over F::fold / F::unfold (shapes and errors as those).

#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/fold.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

class BRASA_API FoldImpl : public Cloneable<FoldImpl> {
 public:
  FoldImpl(ExpandingArray<2> output_size, ExpandingArray<2> kernel_size)
      : FoldImpl(FoldOptions(output_size, kernel_size)) {}
  explicit FoldImpl(const FoldOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  FoldOptions options;
};
BRASA_MODULE(Fold);

class BRASA_API UnfoldImpl : public Cloneable<UnfoldImpl> {
 public:
  UnfoldImpl(ExpandingArray<2> kernel_size)  // NOLINT(google-explicit-constructor)
      : UnfoldImpl(UnfoldOptions(kernel_size)) {}
  explicit UnfoldImpl(const UnfoldOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  UnfoldOptions options;
};
BRASA_MODULE(Unfold);

}  // namespace brasa::nn
