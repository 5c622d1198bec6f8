// The matrix views libtorch has as Tensor properties: mT, mH (matrix_H) and numpy_T.
#include "brasa/core/error.h"
#include "brasa/core/tensor.h"
#include "brasa/ops/view.h"
#include "ops/view/view_utils.h"

namespace brasa {

Tensor Tensor::mT() const {
  BRASA_CHECK(dim() >= 2, "mT: expected a matrix or a batch of matrices (at least 2 dims), got a ",
              dim(), "-d tensor of sizes ", sizes());
  return transpose(-2, -1);
}

Tensor Tensor::mH() const {
  BRASA_CHECK(dim() >= 2, "mH: expected a matrix or a batch of matrices (at least 2 dims), got a ",
              dim(), "-d tensor of sizes ", sizes());
  return transpose(-2, -1).conj();
}

Tensor Tensor::numpy_T() const {
  DimVector dims;
  for (int64_t d = dim() - 1; d >= 0; --d) dims.push_back(d);
  return permute(dims);
}

}  // namespace brasa
