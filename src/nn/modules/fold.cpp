// Fold and Unfold: libtorch's printing (every option as a pair), forward through F::fold /
// F::unfold.

#include "brasa/nn/modules/fold.h"

#include <ostream>

#include "print_util.h"

namespace brasa::nn {
using detail::print;

void FoldImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::Fold(output_size=" << print(options.output_size())
    << ", kernel_size=" << print(options.kernel_size())
    << ", dilation=" << print(options.dilation()) << ", padding=" << print(options.padding())
    << ", stride=" << print(options.stride()) << ")";
}
Tensor FoldImpl::forward(const Tensor& input) { return functional::fold(input, options); }

void UnfoldImpl::pretty_print(std::ostream& s) const {
  s << "torch::nn::Unfold(kernel_size=" << print(options.kernel_size())
    << ", dilation=" << print(options.dilation()) << ", padding=" << print(options.padding())
    << ", stride=" << print(options.stride()) << ")";
}
Tensor UnfoldImpl::forward(const Tensor& input) { return functional::unfold(input, options); }

}  // namespace brasa::nn
