#pragma once
// Helpers of the random family's MT19937 path (Note [Generator kinds] in brasa/core/generator.h).
//
// Note [Random fill order]
// libtorch fills a tensor serially in its TensorIterator order: dims sorted by stride, the
// smallest stride innermost, i.e. memory order, so a transposed tensor gets the same values in
// memory as a contiguous one, and a strided slice gets them in row-major order. fill_in_order
// draws the values into a contiguous buffer in that order and copies them into place.

#include <mutex>
#include <optional>
#include <vector>

#include "brasa/core/empty.h"
#include "brasa/core/generator.h"
#include "brasa/core/tensor.h"

namespace brasa::ops {

/// `gen` when given, else the default generator.
const Generator& resolve_generator(const std::optional<Generator>& gen);
inline bool is_philox(const std::optional<Generator>& gen) {
  return resolve_generator(gen).kind() == GeneratorKind::Philox;
}

/// The permutation of self's dims into libtorch's fill order (outermost first), and self permuted.
std::vector<int64_t> fill_order(const Tensor& self);
inline Tensor in_fill_order(const Tensor& self) { return self.permute(fill_order(self)); }

/// Calls fill(data, n) with a contiguous buffer of `buffer_dtype` for self's n elements in fill
/// order (self's own memory when it is contiguous and of that dtype), then copies the buffer
/// into self, converting as a cast would.
template <typename F>
void fill_in_order(const Tensor& self, ScalarType buffer_dtype, const F& fill) {
  const int64_t n = self.numel();
  if (n == 0) return;
  if (self.is_contiguous() && self.scalar_type() == buffer_dtype) {
    fill(self.data_ptr(), n);
    self.unsafeGetTensorImpl()->bump_version();
    return;
  }
  Tensor ordered = in_fill_order(self);
  Tensor buffer = detail::empty_generic(ordered.sizes(), buffer_dtype, self.device());
  fill(buffer.data_ptr(), n);
  ordered.copy_(buffer);
}

/// fill_in_order with draws from the MT19937 engine of `gen` (else the default generator), under
/// its lock: fill(engine, T* data, n).
template <typename T, typename F>
void fill_from_engine(const Tensor& self, const std::optional<Generator>& gen,
                      ScalarType buffer_dtype, const F& fill) {
  const Generator& g = resolve_generator(gen);
  std::lock_guard<std::mutex> lock(g.mutex());
  fill_in_order(self, buffer_dtype,
                [&](void* d, int64_t n) { fill(g.get()->engine(), static_cast<T*>(d), n); });
}

}  // namespace brasa::ops
