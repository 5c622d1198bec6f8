// Tensor::fill_diagonal_: fill_ on strided views of the diagonal, so it works for any layout and is
// recorded by autograd like any in-place fill of a view.
#include <algorithm>

#include "brasa/core/error.h"
#include "brasa/core/tensor.h"

namespace brasa {

const Tensor& Tensor::fill_diagonal_(const Scalar& fill_value, bool wrap) const {
  const int64_t n = dim();
  BRASA_CHECK(n >= 2, "fill_diagonal_: expected a tensor of at least 2 dims, got sizes ", sizes());
  if (n > 2) {
    for (int64_t d = 1; d < n; ++d) {
      BRASA_CHECK(size(d) == size(0),
                  "fill_diagonal_: all dims must have the same length when the tensor has more "
                  "than 2 dims, got sizes ",
                  sizes());
    }
    int64_t step = 0;
    for (int64_t d = 0; d < n; ++d) step += stride(d);
    as_strided({size(0)}, {step}, storage_offset()).fill_(fill_value);
    return *this;
  }
  const int64_t rows = size(0), cols = size(1);
  if (rows == 0 || cols == 0) return *this;
  // Without wrap only the first min(rows, cols) rows hold diagonal entries; with wrap a tall
  // matrix starts a new diagonal every cols + 1 rows (the row after one is left alone).
  const int64_t last = wrap ? rows : std::min(rows, cols);
  for (int64_t r = 0; r < last; r += cols + 1) {
    narrow(0, r, std::min(cols, last - r)).diagonal().fill_(fill_value);
  }
  return *this;
}

}  // namespace brasa
