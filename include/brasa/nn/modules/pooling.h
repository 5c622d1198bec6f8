#pragma once
// MaxPool, AvgPool, AdaptiveAvgPool and AdaptiveMaxPool modules (1-3 spatial dims) over the pooling
// functionals; options as libtorch (`MaxPool2d(MaxPool2dOptions(3).stride(2))`). Errors as the
// functionals.

#include <tuple>

#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/pooling.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

#define BRASA_POOL_MODULE(Name, Options, Arg, EXTRA)                    \
  class BRASA_API Name##Impl : public Cloneable<Name##Impl> {           \
   public:                                                              \
    Name##Impl(Arg arg) : Name##Impl(Options(arg)) {} /* NOLINT */      \
    explicit Name##Impl(const Options& options_) : options(options_) {} \
    void reset() override {}                                            \
    void pretty_print(std::ostream& stream) const override;             \
    Tensor forward(const Tensor& input);                                \
    EXTRA                                                               \
    Options options;                                                    \
  };                                                                    \
  BRASA_MODULE(Name)

#define BRASA_POOL_WITH_INDICES \
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
#define BRASA_POOL_NOTHING

/// Max over kernel_size windows: [N, C, *D] (or [C, *D]) -> pooled; forward_with_indices also
/// returns the flat spatial indices of the maxima (Long).
BRASA_POOL_MODULE(MaxPool1d, MaxPool1dOptions, ExpandingArray<1>, BRASA_POOL_WITH_INDICES);
BRASA_POOL_MODULE(MaxPool2d, MaxPool2dOptions, ExpandingArray<2>, BRASA_POOL_WITH_INDICES);
BRASA_POOL_MODULE(MaxPool3d, MaxPool3dOptions, ExpandingArray<3>, BRASA_POOL_WITH_INDICES);
/// Mean over kernel_size windows (count_include_pad, divisor_override as PyTorch).
BRASA_POOL_MODULE(AvgPool1d, AvgPool1dOptions, ExpandingArray<1>, BRASA_POOL_NOTHING);
BRASA_POOL_MODULE(AvgPool2d, AvgPool2dOptions, ExpandingArray<2>, BRASA_POOL_NOTHING);
BRASA_POOL_MODULE(AvgPool3d, AvgPool3dOptions, ExpandingArray<3>, BRASA_POOL_NOTHING);
/// Mean over adaptive windows to output_size (None entries keep the input's size).
BRASA_POOL_MODULE(AdaptiveAvgPool1d, AdaptiveAvgPool1dOptions, ExpandingArray<1>,
                  BRASA_POOL_NOTHING);
BRASA_POOL_MODULE(AdaptiveAvgPool2d, AdaptiveAvgPool2dOptions, ExpandingArrayWithOptionalElem<2>,
                  BRASA_POOL_NOTHING);
BRASA_POOL_MODULE(AdaptiveAvgPool3d, AdaptiveAvgPool3dOptions, ExpandingArrayWithOptionalElem<3>,
                  BRASA_POOL_NOTHING);
/// Max over adaptive windows; forward_with_indices also returns the argmax indices.
BRASA_POOL_MODULE(AdaptiveMaxPool1d, AdaptiveMaxPool1dOptions, ExpandingArray<1>,
                  BRASA_POOL_WITH_INDICES);
BRASA_POOL_MODULE(AdaptiveMaxPool2d, AdaptiveMaxPool2dOptions, ExpandingArrayWithOptionalElem<2>,
                  BRASA_POOL_WITH_INDICES);
BRASA_POOL_MODULE(AdaptiveMaxPool3d, AdaptiveMaxPool3dOptions, ExpandingArrayWithOptionalElem<3>,
                  BRASA_POOL_WITH_INDICES);

/// Power-average pooling (F::lp_pool1d / lp_pool2d): LPPool2d(norm_type, kernel_size).
#define BRASA_LP_POOL_MODULE(D)                                                           \
  class BRASA_API LPPool##D##dImpl : public Cloneable<LPPool##D##dImpl> {                 \
   public:                                                                                \
    LPPool##D##dImpl(double norm_type, ExpandingArray<D> kernel_size)                     \
        : LPPool##D##dImpl(LPPool##D##dOptions(norm_type, kernel_size)) {}                \
    explicit LPPool##D##dImpl(const LPPool##D##dOptions& options_) : options(options_) {} \
    void reset() override {}                                                              \
    void pretty_print(std::ostream& stream) const override;                               \
    Tensor forward(const Tensor& input);                                                  \
    LPPool##D##dOptions options;                                                          \
  };                                                                                      \
  BRASA_MODULE(LPPool##D##d)
BRASA_LP_POOL_MODULE(1);
BRASA_LP_POOL_MODULE(2);
#undef BRASA_LP_POOL_MODULE

#undef BRASA_POOL_MODULE
#undef BRASA_POOL_WITH_INDICES
#undef BRASA_POOL_NOTHING

}  // namespace brasa::nn
