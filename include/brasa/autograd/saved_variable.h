#pragma once
// SavedVariable: a tensor kept for backward, with the version it had when saved. Unpacking checks
// that nothing modified it in place since. A saved *output* of a node is stored without its
// grad_fn (which would be the node itself: a cycle) and gets it back when unpacked.

#include <memory>

#include "brasa/core/tensor.h"

namespace brasa::autograd {

class Node;

class BRASA_API SavedVariable {
 public:
  SavedVariable() = default;
  /// Saves `t` (undefined is allowed); `is_output` when t is an output of the saving node.
  SavedVariable(const Tensor& t, bool is_output = false);

  /// The saved tensor; `owner` is the node that saved it (needed for saved outputs). Throws
  /// ValueError when the tensor was modified in place since it was saved, or was freed.
  Tensor unpack(const std::shared_ptr<Node>& owner = nullptr) const;
  bool defined() const { return data_.defined(); }
  void reset() { data_.reset(); }

 private:
  Tensor data_;
  uint32_t version_ = 0;
  uint32_t output_nr_ = 0;
  bool is_output_ = false;
  bool requires_grad_ = false;
};

}  // namespace brasa::autograd
