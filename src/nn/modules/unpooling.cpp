// MaxUnpool and FractionalMaxPool modules.

#include "brasa/nn/modules/unpooling.h"

#include "brasa/core/error.h"
#include "print_util.h"

namespace brasa::nn {
namespace F = functional;

#define BRASA_DEFINE_MAX_UNPOOL(D)                                                       \
  void MaxUnpool##D##dImpl::pretty_print(std::ostream& stream) const {                   \
    stream << "torch::nn::MaxUnpool" << D                                                \
           << "d(kernel_size=" << detail::print(options.kernel_size())                   \
           << ", stride=" << detail::print(options.stride())                             \
           << ", padding=" << detail::print(options.padding()) << ")";                   \
  }                                                                                      \
  Tensor MaxUnpool##D##dImpl::forward(const Tensor& input, const Tensor& indices,        \
                                      const std::optional<std::vector<int64_t>>& size) { \
    return F::max_unpool##D##d(input, indices,                                           \
                               F::MaxUnpool##D##dFuncOptions(options.kernel_size())      \
                                   .stride(options.stride())                             \
                                   .padding(options.padding())                           \
                                   .output_size(size));                                  \
  }

BRASA_DEFINE_MAX_UNPOOL(1)
BRASA_DEFINE_MAX_UNPOOL(2)
BRASA_DEFINE_MAX_UNPOOL(3)
#undef BRASA_DEFINE_MAX_UNPOOL

#define BRASA_DEFINE_FRACTIONAL_MAX_POOL(D)                                                        \
  void FractionalMaxPool##D##dImpl::reset() {                                                      \
    const char* name = "FractionalMaxPool" #D "d";                                                 \
    _random_samples = register_buffer("_random_samples", options._random_samples());               \
    BRASA_CHECK(options.output_size() || options.output_ratio(), name,                             \
                ": requires specifying either an output size, or a pooling ratio");                \
    BRASA_CHECK(!(options.output_size() && options.output_ratio()), name,                          \
                ": only one of output_size and output_ratio may be specified");                    \
    if (options.output_ratio()) {                                                                  \
      for (size_t d = 0; d < D; ++d) {                                                             \
        const double r = (*options.output_ratio())[d];                                             \
        BRASA_CHECK(r > 0 && r < 1, name, ": output_ratio must be between 0 and 1 (got ", r, ")"); \
      }                                                                                            \
    }                                                                                              \
  }                                                                                                \
  void FractionalMaxPool##D##dImpl::pretty_print(std::ostream& stream) const {                     \
    stream << "torch::nn::FractionalMaxPool" #D "d()";                                             \
  }                                                                                                \
  std::tuple<Tensor, Tensor> FractionalMaxPool##D##dImpl::forward_with_indices(                    \
      const Tensor& input) {                                                                       \
    auto o = options;                                                                              \
    o._random_samples(_random_samples);                                                            \
    return F::fractional_max_pool##D##d_with_indices(input, o);                                    \
  }                                                                                                \
  Tensor FractionalMaxPool##D##dImpl::forward(const Tensor& input) {                               \
    return std::get<0>(forward_with_indices(input));                                               \
  }

BRASA_DEFINE_FRACTIONAL_MAX_POOL(2)
BRASA_DEFINE_FRACTIONAL_MAX_POOL(3)
#undef BRASA_DEFINE_FRACTIONAL_MAX_POOL

}  // namespace brasa::nn
