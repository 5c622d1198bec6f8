#pragma once
// Example<Data, Target>: one sample (or one collated batch) of a dataset, as in torch::data.

#include <utility>

#include "brasa/core/tensor.h"

namespace brasa::data {

/// A (data, target) pair; Example<Data, example::NoTarget> holds data only.
template <typename Data = Tensor, typename Target = Tensor>
struct Example {
  using DataType = Data;
  using TargetType = Target;

  Example() = default;
  Example(Data data, Target target) : data(std::move(data)), target(std::move(target)) {}

  Data data;
  Target target;
};

namespace example {
using NoTarget = void;
}  // namespace example

template <typename Data>
struct Example<Data, example::NoTarget> {
  using DataType = Data;
  using TargetType = example::NoTarget;

  Example() = default;
  Example(Data data) : data(std::move(data)) {}  // NOLINT: implicit like libtorch

  operator Data&() { return data; }              // NOLINT
  operator const Data&() const { return data; }  // NOLINT

  Data data;
};

using TensorExample = Example<Tensor, example::NoTarget>;

}  // namespace brasa::data
