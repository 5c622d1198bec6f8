// MaxPool, AvgPool, AdaptiveAvgPool, AdaptiveMaxPool and LPPool modules.

#include "brasa/nn/modules/pooling.h"

#include "print_util.h"

namespace brasa::nn {

#define BRASA_MAX_POOL(D)                                                                   \
  void MaxPool##D##dImpl::pretty_print(std::ostream& stream) const {                        \
    stream << std::boolalpha << "torch::nn::MaxPool" << D                                   \
           << "d(kernel_size=" << detail::print(options.kernel_size())                      \
           << ", stride=" << detail::print(options.stride())                                \
           << ", padding=" << detail::print(options.padding())                              \
           << ", dilation=" << detail::print(options.dilation())                            \
           << ", ceil_mode=" << options.ceil_mode() << ")";                                 \
  }                                                                                         \
  Tensor MaxPool##D##dImpl::forward(const Tensor& input) {                                  \
    return functional::max_pool##D##d(input, options);                                      \
  }                                                                                         \
  std::tuple<Tensor, Tensor> MaxPool##D##dImpl::forward_with_indices(const Tensor& input) { \
    return functional::max_pool##D##d_with_indices(input, options);                         \
  }                                                                                         \
  void AvgPool##D##dImpl::pretty_print(std::ostream& stream) const {                        \
    stream << "torch::nn::AvgPool" << D                                                     \
           << "d(kernel_size=" << detail::print(options.kernel_size())                      \
           << ", stride=" << detail::print(options.stride())                                \
           << ", padding=" << detail::print(options.padding()) << ")";                      \
  }                                                                                         \
  Tensor AvgPool##D##dImpl::forward(const Tensor& input) {                                  \
    return functional::avg_pool##D##d(input, options);                                      \
  }                                                                                         \
  void AdaptiveAvgPool##D##dImpl::pretty_print(std::ostream& stream) const {                \
    stream << "torch::nn::AdaptiveAvgPool" << D                                             \
           << "d(output_size=" << detail::print(options.output_size()) << ")";              \
  }                                                                                         \
  Tensor AdaptiveAvgPool##D##dImpl::forward(const Tensor& input) {                          \
    return functional::adaptive_avg_pool##D##d(input, options);                             \
  }                                                                                         \
  void AdaptiveMaxPool##D##dImpl::pretty_print(std::ostream& stream) const {                \
    stream << "torch::nn::AdaptiveMaxPool" << D                                             \
           << "d(output_size=" << detail::print(options.output_size()) << ")";              \
  }                                                                                         \
  Tensor AdaptiveMaxPool##D##dImpl::forward(const Tensor& input) {                          \
    return functional::adaptive_max_pool##D##d(input, options);                             \
  }                                                                                         \
  std::tuple<Tensor, Tensor> AdaptiveMaxPool##D##dImpl::forward_with_indices(               \
      const Tensor& input) {                                                                \
    return functional::adaptive_max_pool##D##d_with_indices(input, options);                \
  }

BRASA_MAX_POOL(1)
BRASA_MAX_POOL(2)
BRASA_MAX_POOL(3)

#define BRASA_LP_POOL(D)                                                                          \
  void LPPool##D##dImpl::pretty_print(std::ostream& stream) const {                               \
    stream << std::boolalpha << "torch::nn::LPPool" << D << "d(norm_type=" << options.norm_type() \
           << ", kernel_size=" << detail::print(options.kernel_size())                            \
           << ", stride=" << detail::print(options.stride())                                      \
           << ", ceil_mode=" << options.ceil_mode() << ")";                                       \
  }                                                                                               \
  Tensor LPPool##D##dImpl::forward(const Tensor& input) {                                         \
    return functional::lp_pool##D##d(input, options);                                             \
  }
BRASA_LP_POOL(1)
BRASA_LP_POOL(2)
#undef BRASA_LP_POOL

}  // namespace brasa::nn
