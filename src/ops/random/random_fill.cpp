// The MT19937 path's helpers: the generator a call uses, and libtorch's fill order (Note [Random
// fill order]).
#include "ops/random/random_fill.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

namespace brasa::ops {

const Generator& resolve_generator(const std::optional<Generator>& gen) {
  return gen && gen->defined() ? *gen : default_generator();
}

std::vector<int64_t> fill_order(const Tensor& self) {
  const int64_t dims = self.dim();
  std::vector<int64_t> order(static_cast<size_t>(dims));
  std::iota(order.begin(), order.end(), 0);
  // Size-1 dims hold one index and go outermost; the others by decreasing stride, ties in order.
  auto key = [&](int64_t d) {
    return self.size(d) == 1 ? std::numeric_limits<int64_t>::max() : self.stride(d);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return key(a) > key(b); });
  return order;
}

}  // namespace brasa::ops
