// Pooling functionals: option structs unpacked into the pooling ops.
#include "brasa/nn/functional/pooling.h"

#include "brasa/core/error.h"
#include "brasa/ops/pool.h"

namespace brasa::nn::functional {
namespace {

/// Output sizes with nullopt entries replaced by the input's own sizes.
template <size_t D>
std::vector<int64_t> adaptive_size(const Tensor& input,
                                   const ExpandingArrayWithOptionalElem<D>& s) {
  BRASA_CHECK(input.dim() >= static_cast<int64_t>(D),
              "adaptive pooling: expected an input with at "
              "least ",
              D, " dims, got ", input.dim());
  std::vector<int64_t> r;
  for (size_t i = 0; i < D; ++i)
    r.push_back((*s)[i] ? *(*s)[i] : input.size(input.dim() - static_cast<int64_t>(D - i)));
  return r;
}

}  // namespace

Tensor max_pool1d(const Tensor& input, const MaxPool1dFuncOptions& o) {
  return brasa::max_pool1d(input, o.kernel_size(), o.stride(), o.padding(), o.dilation(),
                           o.ceil_mode());
}
std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& input,
                                                   const MaxPool1dFuncOptions& o) {
  return brasa::max_pool1d_with_indices(input, o.kernel_size(), o.stride(), o.padding(),
                                        o.dilation(), o.ceil_mode());
}
Tensor max_pool2d(const Tensor& input, const MaxPool2dFuncOptions& o) {
  return brasa::max_pool2d(input, o.kernel_size(), o.stride(), o.padding(), o.dilation(),
                           o.ceil_mode());
}
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& input,
                                                   const MaxPool2dFuncOptions& o) {
  return brasa::max_pool2d_with_indices(input, o.kernel_size(), o.stride(), o.padding(),
                                        o.dilation(), o.ceil_mode());
}
Tensor max_pool3d(const Tensor& input, const MaxPool3dFuncOptions& o) {
  return brasa::max_pool3d(input, o.kernel_size(), o.stride(), o.padding(), o.dilation(),
                           o.ceil_mode());
}
std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& input,
                                                   const MaxPool3dFuncOptions& o) {
  return brasa::max_pool3d_with_indices(input, o.kernel_size(), o.stride(), o.padding(),
                                        o.dilation(), o.ceil_mode());
}

Tensor avg_pool1d(const Tensor& input, const AvgPool1dFuncOptions& o) {
  return brasa::avg_pool1d(input, o.kernel_size(), o.stride(), o.padding(), o.ceil_mode(),
                           o.count_include_pad());
}
Tensor avg_pool2d(const Tensor& input, const AvgPool2dFuncOptions& o) {
  return brasa::avg_pool2d(input, o.kernel_size(), o.stride(), o.padding(), o.ceil_mode(),
                           o.count_include_pad(), o.divisor_override());
}
Tensor avg_pool3d(const Tensor& input, const AvgPool3dFuncOptions& o) {
  return brasa::avg_pool3d(input, o.kernel_size(), o.stride(), o.padding(), o.ceil_mode(),
                           o.count_include_pad(), o.divisor_override());
}

Tensor adaptive_avg_pool1d(const Tensor& input, const AdaptiveAvgPool1dFuncOptions& o) {
  return brasa::adaptive_avg_pool1d(input, o.output_size());
}
Tensor adaptive_avg_pool2d(const Tensor& input, const AdaptiveAvgPool2dFuncOptions& o) {
  return brasa::adaptive_avg_pool2d(input, adaptive_size(input, o.output_size()));
}
Tensor adaptive_avg_pool3d(const Tensor& input, const AdaptiveAvgPool3dFuncOptions& o) {
  return brasa::adaptive_avg_pool3d(input, adaptive_size(input, o.output_size()));
}
std::tuple<Tensor, Tensor> adaptive_max_pool1d_with_indices(const Tensor& input,
                                                            const AdaptiveMaxPool1dFuncOptions& o) {
  return brasa::adaptive_max_pool1d(input, o.output_size());
}
std::tuple<Tensor, Tensor> adaptive_max_pool2d_with_indices(const Tensor& input,
                                                            const AdaptiveMaxPool2dFuncOptions& o) {
  return brasa::adaptive_max_pool2d(input, adaptive_size(input, o.output_size()));
}
std::tuple<Tensor, Tensor> adaptive_max_pool3d_with_indices(const Tensor& input,
                                                            const AdaptiveMaxPool3dFuncOptions& o) {
  return brasa::adaptive_max_pool3d(input, adaptive_size(input, o.output_size()));
}
Tensor adaptive_max_pool1d(const Tensor& input, const AdaptiveMaxPool1dFuncOptions& o) {
  return std::get<0>(adaptive_max_pool1d_with_indices(input, o));
}
Tensor adaptive_max_pool2d(const Tensor& input, const AdaptiveMaxPool2dFuncOptions& o) {
  return std::get<0>(adaptive_max_pool2d_with_indices(input, o));
}
Tensor adaptive_max_pool3d(const Tensor& input, const AdaptiveMaxPool3dFuncOptions& o) {
  return std::get<0>(adaptive_max_pool3d_with_indices(input, o));
}

namespace {

/// x^p averaged over the windows (avg_pool without padding), times the window size, sign kept,
/// to the power 1/p: libtorch's composition, so its gradient is the same at zero sums.
template <size_t D, class AvgPool>
Tensor lp_pool(const Tensor& input, const LPPoolOptions<D>& o, AvgPool avg_pool) {
  BRASA_CHECK(input.defined(), "lp_pool", D, "d: got an undefined tensor");
  const double p = o.norm_type();
  Tensor out = avg_pool(
      input.pow(p),
      AvgPoolOptions<D>(o.kernel_size()).stride(o.stride()).padding(0).ceil_mode(o.ceil_mode()));
  int64_t window = 1;
  for (size_t i = 0; i < D; ++i) window *= (*o.kernel_size())[i];
  return (out.sign() * out.abs().relu()).mul(window).pow(1.0 / p);
}

}  // namespace

Tensor lp_pool1d(const Tensor& input, const LPPool1dFuncOptions& o) {
  return lp_pool<1>(
      input, o, [](const Tensor& x, const AvgPool1dFuncOptions& a) { return avg_pool1d(x, a); });
}
Tensor lp_pool2d(const Tensor& input, const LPPool2dFuncOptions& o) {
  return lp_pool<2>(
      input, o, [](const Tensor& x, const AvgPool2dFuncOptions& a) { return avg_pool2d(x, a); });
}

}  // namespace brasa::nn::functional
