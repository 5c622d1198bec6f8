#pragma once
// TensorTransform / TensorLambda / Normalize: transforms of an example's data tensor.

#include <functional>
#include <utility>
#include <vector>

#include "brasa/core/array_ref.h"
#include "brasa/data/example.h"
#include "brasa/data/transforms/base.h"
#include "brasa/ops/tensor_data.h"

namespace brasa::data::transforms {

namespace detail {
/// The tensors as one [n, ...] view when they are equal-shaped contiguous views tiling one
/// storage in order (the rows a batch fast path produced), else an undefined tensor.
BRASA_API Tensor as_block(const std::vector<Tensor>& tensors);
}  // namespace detail

/// Transforms `example.data` with operator(); the target passes through.
template <typename Target = Tensor>
class TensorTransform : public Transform<Example<Tensor, Target>, Example<Tensor, Target>> {
 public:
  using E = Example<Tensor, Target>;
  using typename Transform<E, E>::InputType;
  using typename Transform<E, E>::OutputType;

  virtual Tensor operator()(Tensor input) = 0;

  OutputType apply(InputType input) override {
    input.data = (*this)(std::move(input.data));
    return input;
  }
};

/// A TensorTransform given as a function.
template <typename Target = Tensor>
class TensorLambda : public TensorTransform<Target> {
 public:
  using FunctionType = std::function<Tensor(Tensor)>;
  explicit TensorLambda(FunctionType function) : function_(std::move(function)) {}
  Tensor operator()(Tensor input) override { return function_(std::move(input)); }

 private:
  FunctionType function_;
};

/// (data - mean) / stddev per channel: mean and stddev have one value or one per channel (dim 0
/// of a [C, H, W] example); float32 result.
template <typename Target = Tensor>
struct Normalize : public TensorTransform<Target> {
  Normalize(ArrayRef<double> mean, ArrayRef<double> stddev)
      : mean(brasa::tensor(mean, kFloat32).unsqueeze(1).unsqueeze(2)),
        stddev(brasa::tensor(stddev, kFloat32).unsqueeze(1).unsqueeze(2)) {}

  Tensor operator()(Tensor input) override { return input.sub(mean).div(stddev); }

  /// Rows of one block (see detail::as_block) are normalized in one op pair, not one per example.
  std::vector<Example<Tensor, Target>> apply_batch(
      std::vector<Example<Tensor, Target>> batch) override {
    std::vector<Tensor> rows;
    rows.reserve(batch.size());
    for (const auto& example : batch) {
      rows.push_back(example.data);
    }
    Tensor block = detail::as_block(rows);
    if (!block.defined()) {
      return TensorTransform<Target>::apply_batch(std::move(batch));
    }
    Tensor normalized = (*this)(block);
    for (size_t i = 0; i < batch.size(); ++i) {
      batch[i].data = normalized[static_cast<int64_t>(i)];
    }
    return batch;
  }

  Tensor mean, stddev;
};

}  // namespace brasa::data::transforms
