// flatten_dense_tensors / unflatten_dense_tensors (one flat buffer for a list of tensors, and
// views of it back), and libtorch's constant backend queries is_distributed / is_vulkan_available.

#include "brasa/ops/dense_tensor_lists.h"

#include <vector>

#include "brasa/core/error.h"
#include "brasa/ops/indexing_ops.h"

namespace brasa {

Tensor flatten_dense_tensors(ArrayRef<Tensor> tensors) {
  std::vector<Tensor> flat;
  flat.reserve(tensors.size());
  for (const Tensor& t : tensors) {
    BRASA_CHECK(t.defined(), "flatten_dense_tensors: got an undefined tensor");
    flat.push_back(t.reshape({-1}));
  }
  BRASA_CHECK(!flat.empty(), "flatten_dense_tensors: expected a non-empty list of tensors");
  return flat.size() == 1 ? flat[0].contiguous() : cat(flat, 0);
}

std::vector<Tensor> unflatten_dense_tensors(const Tensor& flat, ArrayRef<Tensor> tensors) {
  BRASA_CHECK(flat.defined() && flat.dim() == 1, "unflatten_dense_tensors: expected a 1-d flat ",
              "tensor, got shape ", flat.defined() ? flat.sizes() : IntArrayRef{});
  int64_t total = 0;
  for (const Tensor& t : tensors) {
    BRASA_CHECK(t.defined(), "unflatten_dense_tensors: got an undefined tensor");
    total += t.numel();
  }
  BRASA_CHECK(total == flat.numel(), "unflatten_dense_tensors: the tensors hold ", total,
              " elements, flat has ", flat.numel());
  std::vector<Tensor> out;
  out.reserve(tensors.size());
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    out.push_back(flat.narrow(0, offset, t.numel()).view(t.sizes()));
    offset += t.numel();
  }
  return out;
}

bool is_distributed(const Tensor&) { return false; }

bool is_vulkan_available() { return false; }

}  // namespace brasa
