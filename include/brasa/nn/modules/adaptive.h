#pragma once
// torch::nn::AdaptiveLogSoftmaxWithLoss (Grave et al., efficient softmax approximation): a head
// Linear over the shortlist classes plus one entry per cluster, and per cluster a tail
// Sequential(Linear(in, in / div_value^(i+1)), Linear(., cluster size)), parameters named and
// initialised as PyTorch's (head.weight, tail.0.0.weight, ...).

#include <cstdint>
#include <vector>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/modules/container/modulelist.h"
#include "brasa/nn/modules/linear.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

struct BRASA_API AdaptiveLogSoftmaxWithLossOptions {
  AdaptiveLogSoftmaxWithLossOptions(int64_t in_features, int64_t n_classes,
                                    std::vector<int64_t> cutoffs)  // NOLINT
      : in_features_(in_features), n_classes_(n_classes), cutoffs_(std::move(cutoffs)) {}
  BRASA_ARG(int64_t, in_features);
  BRASA_ARG(int64_t, n_classes);
  BRASA_ARG(std::vector<int64_t>, cutoffs);
  BRASA_ARG(double, div_value) = 4.;
  BRASA_ARG(bool, head_bias) = false;
};

/// forward's result: output [N] (or []) the log-probability of each target, loss the mean of
/// -output as a double (libtorch's type).
struct BRASA_API ASMoutput {
  ASMoutput(Tensor output_, double loss_) : output(std::move(output_)), loss(loss_) {}
  Tensor output;
  double loss;
};

/// reset() raises ValueError unless cutoffs are unique, increasing, within [1, n_classes - 1].
class BRASA_API AdaptiveLogSoftmaxWithLossImpl : public Cloneable<AdaptiveLogSoftmaxWithLossImpl> {
 public:
  AdaptiveLogSoftmaxWithLossImpl(int64_t in_features, int64_t n_classes,
                                 std::vector<int64_t> cutoffs)
      : AdaptiveLogSoftmaxWithLossImpl(
            AdaptiveLogSoftmaxWithLossOptions(in_features, n_classes, std::move(cutoffs))) {}
  explicit AdaptiveLogSoftmaxWithLossImpl(AdaptiveLogSoftmaxWithLossOptions options_);
  /// input [N, in_features] (or [in_features]), target Long [N] (or []) in [0, n_classes)
  /// (ValueError otherwise, naming the module and the shapes or values).
  ASMoutput forward(const Tensor& input, const Tensor& target);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  /// [N, n_classes] log-probabilities from input and head(input).
  Tensor _get_full_log_prob(const Tensor& input, const Tensor& head_output);
  /// input [N, in_features] -> [N, n_classes] log-probabilities of every class.
  Tensor log_prob(const Tensor& input);
  /// input [N, in_features] -> [N] the most likely class (Long).
  Tensor predict(const Tensor& input);

  AdaptiveLogSoftmaxWithLossOptions options;
  std::vector<int64_t> cutoffs;
  int64_t shortlist_size = 0;
  int64_t n_clusters = 0;
  int64_t head_size = 0;
  Linear head = nullptr;
  ModuleList tail;

 private:
  Tensor cluster_forward(int64_t cluster, const Tensor& input);
};
BRASA_MODULE(AdaptiveLogSoftmaxWithLoss);

}  // namespace brasa::nn
