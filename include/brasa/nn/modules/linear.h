#pragma once
// Linear, Bilinear, Identity, Flatten and Unflatten modules with libtorch's option structs.

#include <cstdint>
#include <vector>

#include "brasa/core/options_arg.h"
#include "brasa/core/tensor.h"
#include "brasa/nn/cloneable.h"
#include "brasa/nn/pimpl.h"

namespace brasa::nn {

struct BRASA_API LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features)
      : in_features_(in_features), out_features_(out_features) {}
  BRASA_ARG(int64_t, in_features);
  BRASA_ARG(int64_t, out_features);
  BRASA_ARG(bool, bias) = true;
};

/// y = x W^T + b: input [*, in_features] -> [*, out_features]. weight [out, in] ~ kaiming_uniform_
/// (a = sqrt(5)), bias ~ U(-1/sqrt(in), 1/sqrt(in)). ValueError naming both shapes for a wrong
/// last dim.
class BRASA_API LinearImpl : public Cloneable<LinearImpl> {
 public:
  LinearImpl(int64_t in_features, int64_t out_features)
      : LinearImpl(LinearOptions(in_features, out_features)) {}
  explicit LinearImpl(const LinearOptions& options);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  LinearOptions options;
  Tensor weight;
  Tensor bias;
};
BRASA_MODULE(Linear);

struct BRASA_API BilinearOptions {
  BilinearOptions(int64_t in1_features, int64_t in2_features, int64_t out_features)
      : in1_features_(in1_features), in2_features_(in2_features), out_features_(out_features) {}
  BRASA_ARG(int64_t, in1_features);
  BRASA_ARG(int64_t, in2_features);
  BRASA_ARG(int64_t, out_features);
  BRASA_ARG(bool, bias) = true;
};

/// y_k = x1^T W_k x2 + b_k: [*, in1], [*, in2] -> [*, out]; weight [out, in1, in2] and bias
/// ~ U(-1/sqrt(in1), 1/sqrt(in1)).
class BRASA_API BilinearImpl : public Cloneable<BilinearImpl> {
 public:
  BilinearImpl(int64_t in1_features, int64_t in2_features, int64_t out_features)
      : BilinearImpl(BilinearOptions(in1_features, in2_features, out_features)) {}
  explicit BilinearImpl(const BilinearOptions& options);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input1, const Tensor& input2);

  BilinearOptions options;
  Tensor weight;
  Tensor bias;
};
BRASA_MODULE(Bilinear);

/// Returns its input.
class BRASA_API IdentityImpl : public Cloneable<IdentityImpl> {
 public:
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
};
BRASA_MODULE(Identity);

struct BRASA_API FlattenOptions {
  BRASA_ARG(int64_t, start_dim) = 1;
  BRASA_ARG(int64_t, end_dim) = -1;
};

/// Flattens dims start_dim..end_dim into one.
class BRASA_API FlattenImpl : public Cloneable<FlattenImpl> {
 public:
  explicit FlattenImpl(const FlattenOptions& options = {});
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  FlattenOptions options;
};
BRASA_MODULE(Flatten);

struct BRASA_API UnflattenOptions {
  UnflattenOptions(int64_t dim, std::vector<int64_t> sizes) : dim_(dim), sizes_(std::move(sizes)) {}
  BRASA_ARG(int64_t, dim);
  BRASA_ARG(std::vector<int64_t>, sizes);
};

/// Splits dim `dim` into `sizes` (one may be -1); ValueError when the product does not match.
class BRASA_API UnflattenImpl : public Cloneable<UnflattenImpl> {
 public:
  UnflattenImpl(int64_t dim, std::vector<int64_t> sizes)
      : UnflattenImpl(UnflattenOptions(dim, std::move(sizes))) {}
  explicit UnflattenImpl(UnflattenOptions options);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  UnflattenOptions options;
};
BRASA_MODULE(Unflatten);

}  // namespace brasa::nn
