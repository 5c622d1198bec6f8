#pragma once
// TensorDataset: the rows of one tensor as examples without targets.

#include <cstddef>
#include <optional>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/data/datasets/base.h"
#include "brasa/ops/indexing_ops.h"

namespace brasa::data::datasets {

/// Example i is tensor[i] (a view). Throws IndexError for i >= size().
struct TensorDataset : public Dataset<TensorDataset, TensorExample> {
  explicit TensorDataset(const std::vector<Tensor>& tensors)
      : TensorDataset(brasa::stack(tensors)) {}
  explicit TensorDataset(Tensor tensor) : tensor(std::move(tensor)) {}

  TensorExample get(size_t index) override {
    BRASA_CHECK_INDEX(index < static_cast<size_t>(tensor.size(0)), "TensorDataset: index ", index,
                      " is out of range for ", tensor.size(0), " examples");
    return tensor[static_cast<int64_t>(index)];
  }
  std::optional<size_t> size() const override { return static_cast<size_t>(tensor.size(0)); }

  Tensor tensor;
};

}  // namespace brasa::data::datasets
