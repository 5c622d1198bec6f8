#pragma once
// BatchNorm1d/2d/3d and InstanceNorm1d/2d/3d modules (libtorch's BatchNormOptions /
// InstanceNormOptions). Running statistics are the buffers running_mean, running_var and
// num_batches_tracked (absent without track_running_stats).

#include <cstdint>
#include <optional>

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional/normalization.h"
#include "brasa/nn/pimpl.h"
#include "brasa/ops/factory.h"

namespace brasa::nn {

struct BRASA_API BatchNormOptions {
  BatchNormOptions(int64_t num_features) : num_features_(num_features) {}  // NOLINT
  BRASA_ARG(int64_t, num_features);
  BRASA_ARG(double, eps) = 1e-5;
  /// Absent: running statistics are the cumulative average over all batches seen.
  BRASA_ARG(std::optional<double>, momentum) = 0.1;
  BRASA_ARG(bool, affine) = true;
  BRASA_ARG(bool, track_running_stats) = true;
};
using BatchNorm1dOptions = BatchNormOptions;
using BatchNorm2dOptions = BatchNormOptions;
using BatchNorm3dOptions = BatchNormOptions;

struct BRASA_API InstanceNormOptions {
  InstanceNormOptions(int64_t num_features) : num_features_(num_features) {}  // NOLINT
  BRASA_ARG(int64_t, num_features);
  BRASA_ARG(double, eps) = 1e-5;
  BRASA_ARG(double, momentum) = 0.1;
  BRASA_ARG(bool, affine) = false;
  BRASA_ARG(bool, track_running_stats) = false;
};
using InstanceNorm1dOptions = InstanceNormOptions;
using InstanceNorm2dOptions = InstanceNormOptions;
using InstanceNorm3dOptions = InstanceNormOptions;

/// Parameters (weight = 1, bias = 0, [num_features], when affine) and running-stat buffers
/// (running_mean = 0, running_var = 1, num_batches_tracked = 0 Long, when track_running_stats).
template <size_t D, typename Derived, typename DerivedOptions>
class NormImplBase : public Cloneable<Derived> {
 protected:
  /// ValueError naming the layer and the input's shape for a wrong rank or channel count.
  virtual void _check_input_dim(const Tensor& input) = 0;

 public:
  NormImplBase(const DerivedOptions& options_) : options(options_) {}  // NOLINT
  void reset() override {
    const int64_t n = options.num_features();
    BRASA_CHECK(n > 0, "norm layer: num_features must be positive, got ", n);
    if (options.affine()) {
      weight = this->register_parameter("weight", brasa::empty({n}));
      bias = this->register_parameter("bias", brasa::empty({n}));
    } else {
      weight = this->register_parameter("weight", Tensor(), false);
      bias = this->register_parameter("bias", Tensor(), false);
    }
    if (options.track_running_stats()) {
      running_mean = this->register_buffer("running_mean", brasa::zeros({n}));
      running_var = this->register_buffer("running_var", brasa::ones({n}));
      num_batches_tracked =
          this->register_buffer("num_batches_tracked", brasa::zeros({}, TensorOptions(kLong)));
    } else {
      running_mean = this->register_buffer("running_mean", Tensor());
      running_var = this->register_buffer("running_var", Tensor());
      num_batches_tracked = this->register_buffer("num_batches_tracked", Tensor());
    }
    reset_parameters();
  }
  void reset_running_stats() {
    if (!options.track_running_stats()) return;
    NoGradGuard no_grad;
    running_mean.zero_();
    running_var.fill_(1);
    num_batches_tracked.zero_();
  }
  void reset_parameters() {
    reset_running_stats();
    if (options.affine()) {
      NoGradGuard no_grad;
      weight.fill_(1);
      bias.zero_();
    }
  }

  DerivedOptions options;
  Tensor weight;
  Tensor bias;
  Tensor running_mean;
  Tensor running_var;
  Tensor num_batches_tracked;
};

/// Training: normalises with the batch statistics per channel and (track_running_stats) updates
/// the running ones (momentum, or the cumulative average when momentum is absent); evaluation:
/// normalises with the running statistics.
template <size_t D, typename Derived>
class BRASA_API BatchNormImplBase : public NormImplBase<D, Derived, BatchNormOptions> {
 public:
  using NormImplBase<D, Derived, BatchNormOptions>::NormImplBase;
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override;
};

/// Normalises each (sample, channel) plane; uses the running statistics only in evaluation with
/// track_running_stats.
template <size_t D, typename Derived>
class BRASA_API InstanceNormImpl : public NormImplBase<D, Derived, InstanceNormOptions> {
 public:
  using NormImplBase<D, Derived, InstanceNormOptions>::NormImplBase;
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override;
};

#define BRASA_NORM_MODULE(Kind, D, OptionsType)                                  \
  class BRASA_API Kind##D##dImpl : public Kind##ImplBaseFor<D, Kind##D##dImpl> { \
   public:                                                                       \
    Kind##D##dImpl(const OptionsType& options_) /* NOLINT */                     \
        : Kind##ImplBaseFor<D, Kind##D##dImpl>(options_) {                       \
      reset();                                                                   \
    }                                                                            \
                                                                                 \
   protected:                                                                    \
    void _check_input_dim(const Tensor& input) override;                         \
  };                                                                             \
  BRASA_MODULE(Kind##D##d)

template <size_t D, typename Derived>
using BatchNormImplBaseFor = BatchNormImplBase<D, Derived>;
template <size_t D, typename Derived>
using InstanceNormImplBaseFor = InstanceNormImpl<D, Derived>;

BRASA_NORM_MODULE(BatchNorm, 1, BatchNormOptions);
BRASA_NORM_MODULE(BatchNorm, 2, BatchNormOptions);
BRASA_NORM_MODULE(BatchNorm, 3, BatchNormOptions);
BRASA_NORM_MODULE(InstanceNorm, 1, InstanceNormOptions);
BRASA_NORM_MODULE(InstanceNorm, 2, InstanceNormOptions);
BRASA_NORM_MODULE(InstanceNorm, 3, InstanceNormOptions);
#undef BRASA_NORM_MODULE

}  // namespace brasa::nn
