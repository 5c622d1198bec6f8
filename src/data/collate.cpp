// The batch fast path of Normalize and Stack: rows that tile one block are handled as the block.

#include <vector>

#include "brasa/data/transforms/stack.h"
#include "brasa/data/transforms/tensor.h"
#include "brasa/ops/indexing_ops.h"

namespace brasa::data::transforms::detail {

Tensor as_block(const std::vector<Tensor>& tensors) {
  if (tensors.empty() || !tensors[0].defined()) {
    return {};
  }
  const Tensor& first = tensors[0];
  const int64_t numel = first.numel();
  if (numel == 0 || !first.is_contiguous() || first.requires_grad()) {
    return {};
  }
  for (size_t i = 1; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (!t.defined() || t.storage().get() != first.storage().get() ||
        t.scalar_type() != first.scalar_type() || t.sizes() != first.sizes() ||
        !t.is_contiguous() || t.requires_grad() ||
        t.storage_offset() != first.storage_offset() + static_cast<int64_t>(i) * numel) {
      return {};
    }
  }
  std::vector<int64_t> sizes{static_cast<int64_t>(tensors.size())};
  std::vector<int64_t> strides{numel};
  for (int64_t d = 0; d < first.dim(); ++d) {
    sizes.push_back(first.size(d));
    strides.push_back(first.stride(d));
  }
  return first.as_strided(sizes, strides, first.storage_offset());
}

Tensor stack_examples(const std::vector<Tensor>& tensors) {
  if (Tensor block = as_block(tensors); block.defined()) {
    return block.clone();
  }
  return brasa::stack(tensors);
}

}  // namespace brasa::data::transforms::detail
