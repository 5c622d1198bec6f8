#pragma once
// Stack<>: collates a vector of examples into one example of stacked tensors.

#include <vector>

#include "brasa/data/example.h"
#include "brasa/data/transforms/collate.h"

namespace brasa::data::transforms {

namespace detail {
/// brasa::stack(tensors), as one copy when the tensors tile a block (see as_block). Throws like
/// brasa::stack for an empty list or mismatched shapes.
BRASA_API Tensor stack_examples(const std::vector<Tensor>& tensors);
}  // namespace detail

template <typename T = Example<>>
struct Stack;

/// Data [B, ...] and target [B, ...] from B examples of equal shapes.
template <>
struct Stack<Example<>> : public Collation<Example<>> {
  Example<> apply_batch(std::vector<Example<>> examples) override {
    std::vector<Tensor> data, targets;
    data.reserve(examples.size());
    targets.reserve(examples.size());
    for (auto& example : examples) {
      data.push_back(std::move(example.data));
      targets.push_back(std::move(example.target));
    }
    return {detail::stack_examples(data), detail::stack_examples(targets)};
  }
};

template <>
struct Stack<TensorExample> : public Collation<TensorExample> {
  TensorExample apply_batch(std::vector<TensorExample> examples) override {
    std::vector<Tensor> data;
    data.reserve(examples.size());
    for (auto& example : examples) {
      data.push_back(std::move(example.data));
    }
    return detail::stack_examples(data);
  }
};

}  // namespace brasa::data::transforms
