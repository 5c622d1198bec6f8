#pragma once
// MaxUnpool{1,2,3}d and FractionalMaxPool{2,3}d modules over the functionals of
// brasa/nn/functional/unpooling.h; options as libtorch (`MaxUnpool2d(MaxUnpool2dOptions(2))`,
// `FractionalMaxPool2d(FractionalMaxPool2dOptions(3).output_size(5))`).

#include <optional>
#include <tuple>
#include <vector>

#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/unpooling.h"
#include "brasa/nn/modules/container/any_value.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

#define BRASA_MAX_UNPOOL_MODULE(D)                                                          \
  class BRASA_API MaxUnpool##D##dImpl : public Cloneable<MaxUnpool##D##dImpl> {             \
   public:                                                                                  \
    MaxUnpool##D##dImpl(ExpandingArray<D> kernel_size) /* NOLINT */                         \
        : MaxUnpool##D##dImpl(MaxUnpoolOptions<D>(kernel_size)) {}                          \
    explicit MaxUnpool##D##dImpl(const MaxUnpoolOptions<D>& options_) : options(options_) { \
      reset();                                                                              \
    }                                                                                       \
    void reset() override {}                                                                \
    void pretty_print(std::ostream& stream) const override;                                 \
    /** input and indices of a max_pool##D##d; output_size as MaxUnpoolFuncOptions. */      \
    Tensor forward(const Tensor& input, const Tensor& indices,                              \
                   const std::optional<std::vector<int64_t>>& output_size = std::nullopt);  \
    BRASA_FORWARD_HAS_DEFAULT_ARGS_DECLARED                                                 \
    MaxUnpoolOptions<D> options;                                                            \
  };                                                                                        \
  BRASA_MODULE(MaxUnpool##D##d)

BRASA_MAX_UNPOOL_MODULE(1);
BRASA_MAX_UNPOOL_MODULE(2);
BRASA_MAX_UNPOOL_MODULE(3);
#undef BRASA_MAX_UNPOOL_MODULE

/// reset() checks output_size / output_ratio (ValueError: neither or both given, a ratio
/// outside (0, 1)) and registers the `_random_samples` buffer.
#define BRASA_FRACTIONAL_MAX_POOL_MODULE(D)                                                     \
  class BRASA_API FractionalMaxPool##D##dImpl : public Cloneable<FractionalMaxPool##D##dImpl> { \
   public:                                                                                      \
    FractionalMaxPool##D##dImpl(ExpandingArray<D> kernel_size) /* NOLINT */                     \
        : FractionalMaxPool##D##dImpl(FractionalMaxPool##D##dOptions(kernel_size)) {}           \
    explicit FractionalMaxPool##D##dImpl(const FractionalMaxPool##D##dOptions& options_)        \
        : options(options_) {                                                                   \
      reset();                                                                                  \
    }                                                                                           \
    void reset() override;                                                                      \
    void pretty_print(std::ostream& stream) const override;                                     \
    Tensor forward(const Tensor& input);                                                        \
    std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);                       \
    FractionalMaxPool##D##dOptions options;                                                     \
    Tensor _random_samples;                                                                     \
  };                                                                                            \
  BRASA_MODULE(FractionalMaxPool##D##d)

BRASA_FRACTIONAL_MAX_POOL_MODULE(2);
BRASA_FRACTIONAL_MAX_POOL_MODULE(3);
#undef BRASA_FRACTIONAL_MAX_POOL_MODULE

}  // namespace brasa::nn
