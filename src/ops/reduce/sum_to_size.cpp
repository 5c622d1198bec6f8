// Tensor::sum_to_size: the reverse of expand — sums the leading dims `size` lacks and the dims
// where `size` has 1, keeping those as 1.
#include "brasa/core/error.h"
#include "brasa/core/small_vector.h"
#include "brasa/core/tensor.h"

namespace brasa {

Tensor Tensor::sum_to_size(IntArrayRef size) const {
  const auto n = static_cast<int64_t>(size.size());
  bool expandable = n <= dim();
  for (int64_t i = 0; expandable && i < n; ++i) {
    const int64_t want = size[i], have = this->size(dim() - n + i);
    expandable = want == have || want == 1;
  }
  BRASA_CHECK(expandable, "sum_to_size: size ", size, " is not expandable to the tensor's sizes ",
              sizes());
  const int64_t lead = dim() - n;
  SmallVector<int64_t, 8> keep, drop;
  for (int64_t d = 0; d < lead; ++d) drop.push_back(d);
  for (int64_t i = 0; i < n; ++i) {
    if (size[i] == 1 && this->size(lead + i) != 1) keep.push_back(lead + i);
  }
  Tensor r = *this;
  if (!keep.empty()) r = r.sum(IntArrayRef(keep.data(), keep.size()), /*keepdim=*/true);
  if (!drop.empty()) r = r.sum(IntArrayRef(drop.data(), drop.size()), /*keepdim=*/false);
  return r;
}

}  // namespace brasa
