// AdaptiveLogSoftmaxWithLoss: the head scores the shortlist classes and one entry per cluster;
// a target in cluster i adds its within-cluster log-probability from tail i.

#include "brasa/nn/modules/adaptive.h"

#include <cmath>

#include "brasa/core/error.h"
#include "brasa/nn/modules/container/sequential.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/reduce.h"

namespace brasa::nn {

AdaptiveLogSoftmaxWithLossImpl::AdaptiveLogSoftmaxWithLossImpl(
    AdaptiveLogSoftmaxWithLossOptions options_)
    : options(std::move(options_)) {
  reset();
}

void AdaptiveLogSoftmaxWithLossImpl::reset() {
  const auto& c = options.cutoffs();
  bool ok = !c.empty();
  for (size_t i = 0; ok && i < c.size(); ++i)
    ok = c[i] > 0 && c[i] <= options.n_classes() - 1 && (i == 0 || c[i] > c[i - 1]);
  BRASA_CHECK(ok,
              "AdaptiveLogSoftmaxWithLoss: cutoffs should be a sequence of unique, positive "
              "integers sorted in an increasing order, where each value is between 1 and "
              "n_classes-1 (n_classes = ",
              options.n_classes(), "), got ", IntArrayRef(c));
  cutoffs = c;
  cutoffs.push_back(options.n_classes());
  shortlist_size = cutoffs[0];
  n_clusters = static_cast<int64_t>(cutoffs.size()) - 1;
  head_size = shortlist_size + n_clusters;
  head = register_module(
      "head", Linear(LinearOptions(options.in_features(), head_size).bias(options.head_bias())));
  tail = register_module("tail", ModuleList());
  for (int64_t i = 0; i < n_clusters; ++i) {
    const auto hidden = static_cast<int64_t>(std::floor(static_cast<double>(options.in_features()) /
                                                        std::pow(options.div_value(), i + 1)));
    const int64_t out = cutoffs[static_cast<size_t>(i) + 1] - cutoffs[static_cast<size_t>(i)];
    tail->push_back(Sequential(Linear(LinearOptions(options.in_features(), hidden).bias(false)),
                               Linear(LinearOptions(hidden, out).bias(false))));
  }
}

void AdaptiveLogSoftmaxWithLossImpl::reset_parameters() {
  head->reset_parameters();
  for (size_t i = 0; i < tail->size(); ++i) {
    auto& seq = tail->at<SequentialImpl>(i);
    for (size_t j = 0; j < seq.size(); ++j) seq.at<LinearImpl>(j).reset_parameters();
  }
}

void AdaptiveLogSoftmaxWithLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::AdaptiveLogSoftmaxWithLoss";
}

Tensor AdaptiveLogSoftmaxWithLossImpl::cluster_forward(int64_t cluster, const Tensor& input) {
  return tail->at<SequentialImpl>(static_cast<size_t>(cluster)).forward(input);
}

ASMoutput AdaptiveLogSoftmaxWithLossImpl::forward(const Tensor& input_, const Tensor& target_) {
  const char* name = "AdaptiveLogSoftmaxWithLoss";
  BRASA_CHECK(input_.defined() && target_.defined(), name, ": got an undefined input or target");
  const bool batched = target_.dim() == 1;
  BRASA_CHECK((batched && input_.dim() == 2) || (target_.dim() == 0 && input_.dim() == 1), name,
              ": expected input [N, in_features] with target [N], or input [in_features] with a "
              "0-d target, got input ",
              input_.sizes(), " and target ", target_.sizes());
  Tensor input = batched ? input_ : input_.unsqueeze(0);
  Tensor target = batched ? target_ : target_.unsqueeze(0);
  BRASA_CHECK(input.size(0) == target.size(0), name,
              ": input and target should have the same size in the batch dimension, got ",
              input.sizes(), " and ", target.sizes());
  BRASA_CHECK(input.size(1) == options.in_features(), name, ": expected input of ",
              options.in_features(), " features, got ", input.sizes());
  BRASA_CHECK_TYPE(target.scalar_type() == kLong, name, ": expected a Long target, got ",
                   target.scalar_type());
  const int64_t batch = target.size(0);
  if (batch > 0) {
    const int64_t lo = target.min().item<int64_t>(), hi = target.max().item<int64_t>();
    BRASA_CHECK(lo >= 0 && hi < options.n_classes(), name, ": target values should be in [0, ",
                options.n_classes() - 1, "], but values in range [", lo, ", ", hi, "] were found");
  }
  Tensor output = zeros({batch}, input.options());
  Tensor gather_index = target.clone();
  for (int64_t i = 1; i <= n_clusters; ++i) {
    const int64_t low = cutoffs[static_cast<size_t>(i) - 1], high = cutoffs[static_cast<size_t>(i)];
    Tensor rows = target.ge(low).logical_and(target.lt(high)).nonzero().reshape({-1});
    if (rows.numel() == 0) continue;
    Tensor relative = target.index_select(0, rows) - low;
    Tensor cluster_logprob = cluster_forward(i - 1, input.index_select(0, rows)).log_softmax(1);
    Tensor local = cluster_logprob.gather(1, relative.unsqueeze(1)).squeeze(1);
    output = output.index_copy(0, rows, local);
    gather_index = gather_index.index_fill(0, rows, shortlist_size + i - 1);
  }
  Tensor head_logprob = head(input).log_softmax(1);
  output = output + head_logprob.gather(1, gather_index.unsqueeze(1)).squeeze(1);
  const double loss = batch > 0 ? (-output).mean().item<double>() : std::nan("");
  return ASMoutput(batched ? output : output.squeeze(0), loss);
}

Tensor AdaptiveLogSoftmaxWithLossImpl::_get_full_log_prob(const Tensor& input,
                                                          const Tensor& head_output) {
  Tensor head_logprob = head_output.log_softmax(1);
  std::vector<Tensor> parts = {head_logprob.narrow(1, 0, shortlist_size)};
  for (int64_t i = 0; i < n_clusters; ++i) {
    Tensor cluster_logprob = cluster_forward(i, input).log_softmax(1);
    parts.push_back(cluster_logprob + head_logprob.select(1, shortlist_size + i).unsqueeze(1));
  }
  return cat(parts, 1);
}

Tensor AdaptiveLogSoftmaxWithLossImpl::log_prob(const Tensor& input) {
  BRASA_CHECK(input.defined() && input.dim() == 2 && input.size(1) == options.in_features(),
              "AdaptiveLogSoftmaxWithLoss: log_prob expected input [N, ", options.in_features(),
              "], got ", input.defined() ? input.sizes() : IntArrayRef{});
  return _get_full_log_prob(input, head(input));
}

Tensor AdaptiveLogSoftmaxWithLossImpl::predict(const Tensor& input) {
  BRASA_CHECK(input.defined() && input.dim() == 2 && input.size(1) == options.in_features(),
              "AdaptiveLogSoftmaxWithLoss: predict expected input [N, ", options.in_features(),
              "], got ", input.defined() ? input.sizes() : IntArrayRef{});
  Tensor head_output = head(input);
  Tensor output = head_output.argmax(1);
  Tensor outside = output.ge(shortlist_size);
  if (!outside.any().item<bool>()) return output;
  Tensor rows = outside.nonzero().reshape({-1});
  Tensor best =
      _get_full_log_prob(input.index_select(0, rows), head_output.index_select(0, rows)).argmax(1);
  return output.index_copy(0, rows, best);
}

}  // namespace brasa::nn
