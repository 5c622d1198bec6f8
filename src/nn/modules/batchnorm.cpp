// BatchNorm1d/2d/3d and InstanceNorm1d/2d/3d.

#include "brasa/nn/modules/batchnorm.h"

#include "brasa/core/error.h"

namespace brasa::nn {
namespace {

void check_rank_and_channels(const Tensor& input, const char* kind, size_t d, int64_t features,
                             int64_t min_dim, int64_t max_dim, bool check_channels,
                             bool batch_norm) {
  const int64_t dim = input.dim();
  BRASA_CHECK(dim >= min_dim && dim <= max_dim, kind, d, "d(", features, "): expected a ",
              min_dim == max_dim ? "" : (std::to_string(min_dim) + "-D or ").c_str(), max_dim,
              "-D input, got ", input.sizes());
  if (!check_channels) return;
  const int64_t channels = input.size(batch_norm || dim == max_dim ? 1 : 0);
  BRASA_CHECK(channels == features, kind, d, "d(", features, "): expected input with ", features,
              " channels, got ", input.sizes());
}

template <typename Options>
void print_norm(std::ostream& stream, const char* kind, size_t d, const Options& o,
                const std::optional<double>& momentum) {
  stream << std::boolalpha << "torch::nn::" << kind << d << "d(" << o.num_features()
         << ", eps=" << o.eps() << ", momentum=";
  if (momentum)
    stream << *momentum;
  else
    stream << "None";
  stream << ", affine=" << o.affine() << ", track_running_stats=" << o.track_running_stats() << ")";
}

}  // namespace

template <size_t D, typename Derived>
Tensor BatchNormImplBase<D, Derived>::forward(const Tensor& input) {
  this->_check_input_dim(input);
  const auto& o = this->options;
  double factor = o.momentum().value_or(0.0);
  if (this->is_training() && o.track_running_stats()) {
    {
      NoGradGuard no_grad;
      this->num_batches_tracked.add_(1);
    }
    if (!o.momentum()) factor = 1.0 / this->num_batches_tracked.template item<double>();
  }
  return functional::batch_norm(input, this->running_mean, this->running_var,
                                functional::BatchNormFuncOptions()
                                    .weight(this->weight)
                                    .bias(this->bias)
                                    .training(this->is_training() || !o.track_running_stats())
                                    .momentum(factor)
                                    .eps(o.eps()));
}

template <size_t D, typename Derived>
void BatchNormImplBase<D, Derived>::pretty_print(std::ostream& stream) const {
  print_norm(stream, "BatchNorm", D, this->options, this->options.momentum());
}

template <size_t D, typename Derived>
Tensor InstanceNormImpl<D, Derived>::forward(const Tensor& input) {
  this->_check_input_dim(input);
  const auto& o = this->options;
  const bool unbatched = input.dim() == int64_t(D) + 1;
  Tensor x = unbatched ? input.unsqueeze(0) : input;
  Tensor y = functional::instance_norm(
      x, functional::InstanceNormFuncOptions()
             .running_mean(this->running_mean)
             .running_var(this->running_var)
             .weight(this->weight)
             .bias(this->bias)
             .use_input_stats(this->is_training() || !o.track_running_stats())
             .momentum(o.momentum())
             .eps(o.eps()));
  return unbatched ? y.squeeze(0) : y;
}

template <size_t D, typename Derived>
void InstanceNormImpl<D, Derived>::pretty_print(std::ostream& stream) const {
  print_norm(stream, "InstanceNorm", D, this->options, this->options.momentum());
}

template class BatchNormImplBase<1, BatchNorm1dImpl>;
template class BatchNormImplBase<2, BatchNorm2dImpl>;
template class BatchNormImplBase<3, BatchNorm3dImpl>;
template class InstanceNormImpl<1, InstanceNorm1dImpl>;
template class InstanceNormImpl<2, InstanceNorm2dImpl>;
template class InstanceNormImpl<3, InstanceNorm3dImpl>;

void BatchNorm1dImpl::_check_input_dim(const Tensor& input) {
  check_rank_and_channels(input, "BatchNorm", 1, options.num_features(), 2, 3, true, true);
}
void BatchNorm2dImpl::_check_input_dim(const Tensor& input) {
  check_rank_and_channels(input, "BatchNorm", 2, options.num_features(), 4, 4, true, true);
}
void BatchNorm3dImpl::_check_input_dim(const Tensor& input) {
  check_rank_and_channels(input, "BatchNorm", 3, options.num_features(), 5, 5, true, true);
}
void InstanceNorm1dImpl::_check_input_dim(const Tensor& input) {
  check_rank_and_channels(input, "InstanceNorm", 1, options.num_features(), 2, 3, options.affine(),
                          false);
}
void InstanceNorm2dImpl::_check_input_dim(const Tensor& input) {
  check_rank_and_channels(input, "InstanceNorm", 2, options.num_features(), 3, 4, options.affine(),
                          false);
}
void InstanceNorm3dImpl::_check_input_dim(const Tensor& input) {
  check_rank_and_channels(input, "InstanceNorm", 3, options.num_features(), 4, 5, options.affine(),
                          false);
}

}  // namespace brasa::nn
