// Reordering ops built from index_select, masked_fill and expand: flip, roll, tril, triu, repeat,
// tile. Each returns a new tensor (never a view of self).
#include "backends/cpu/new_tensor_writes.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "dispatch/inplace_name.h"
#include "ops/rearrange/rearrange_ops.h"

namespace brasa::ops {
namespace {

int64_t ndim1(const Tensor& t) { return std::max<int64_t>(t.dim(), 1); }

Tensor flip_kernel(const Tensor& self, IntArrayRef dims) {
  uint64_t seen = 0;
  Tensor out = self;
  for (int64_t dim : dims) {
    int64_t d = detail::wrap_dim(dim, ndim1(self), "flip");
    BRASA_CHECK(!(seen >> d & 1), "flip: dim ", d, " appears multiple times in the list of dims");
    seen |= uint64_t(1) << d;
    if (self.dim() == 0) continue;
    const int64_t n = self.sizes()[d];
    out = out.index_select(d, arange(n - 1, -1, -1, kLong));
  }
  return out.is_same(self) ? self.clone() : out;
}

/// Rotates one dim: out[i] = self[(i - shift) mod n].
Tensor roll_dim(const Tensor& self, int64_t shift, int64_t d) {
  const int64_t n = self.sizes()[d];
  if (n == 0) return self;
  const int64_t s = ((shift % n) + n) % n;
  return self.index_select(d, arange(n, kLong).sub(s).remainder(n));
}

Tensor roll_kernel(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  BRASA_CHECK(!shifts.empty(), "roll: `shifts` required");
  if (dims.empty()) {
    BRASA_CHECK(shifts.size() == 1,
                "roll: shifts and dimensions must align. shifts: ", shifts.size(), ", dims: 0");
    if (self.numel() == 0) return self.clone();
    return roll_dim(self.reshape({-1}), shifts[0], 0).view(self.sizes());
  }
  BRASA_CHECK(shifts.size() == dims.size(),
              "roll: shifts and dimensions must align. shifts: ", shifts.size(),
              ", dims: ", dims.size());
  Tensor out = self;
  for (size_t i = 0; i < dims.size(); ++i) {
    out = roll_dim(out, shifts[i], detail::wrap_dim(dims[i], self.dim(), "roll"));
  }
  return out.is_same(self) ? self.clone() : out;
}

/// True where an element of the last two dims lies on the kept side of `diagonal`.
Tensor triangle_mask(const Tensor& self, int64_t diagonal, bool lower, const char* op) {
  BRASA_CHECK(self.dim() >= 2, op, ": input tensor must have at least 2 dimensions, got ",
              self.sizes());
  const int64_t rows = self.sizes()[self.dim() - 2];
  const int64_t cols = self.sizes()[self.dim() - 1];
  Tensor offset = arange(cols, kLong).unsqueeze(0).sub(arange(rows, kLong).unsqueeze(1));
  // On self's device: a meta self (the op's shape rule) gets a meta mask.
  return (lower ? offset.gt(diagonal) : offset.lt(diagonal)).to(self.device());
}

Tensor tril_kernel(const Tensor& self, int64_t diagonal) {
  return self.masked_fill(triangle_mask(self, diagonal, true, "tril"), 0);
}
Tensor triu_kernel(const Tensor& self, int64_t diagonal) {
  return self.masked_fill(triangle_mask(self, diagonal, false, "triu"), 0);
}

Tensor repeat_kernel(const Tensor& self, IntArrayRef repeats) {
  const int64_t n = static_cast<int64_t>(repeats.size());
  BRASA_CHECK(n >= self.dim(), "repeat: number of dimensions of repeat dims (", n,
              ") can not be smaller than number of dimensions of tensor (", self.dim(), ")");
  DimVector padded(static_cast<size_t>(n - self.dim()), 1);
  for (int64_t s : self.sizes()) padded.push_back(s);
  DimVector interleaved, expanded, result;
  for (int64_t i = 0; i < n; ++i) {
    BRASA_CHECK(repeats[i] >= 0, "repeat: repeats can not be negative, got ", repeats);
    interleaved.push_back(1);
    interleaved.push_back(padded[i]);
    expanded.push_back(repeats[i]);
    expanded.push_back(padded[i]);
    result.push_back(repeats[i] * padded[i]);
  }
  Tensor out = empty(result, TensorOptions().dtype(self.dtype()).device(self.device()));
  if (out.numel() == 0) return out;
  cpu::NewTensorWrites new_tensor;  // Note [Version of new tensors]
  out.view(expanded).copy_(self.reshape(interleaved).expand(expanded));
  return out;
}

}  // namespace

BRASA_DEFINE_OP(flip_op)
BRASA_DEFINE_OP(roll_op)
BRASA_DEFINE_OP(tril_op)
BRASA_DEFINE_OP(triu_op)
BRASA_DEFINE_OP(repeat_op)
BRASA_REGISTER_KERNEL(flip_op, flip_kernel, CPU, Meta)
BRASA_REGISTER_KERNEL(roll_op, roll_kernel, CPU, Meta)
BRASA_REGISTER_KERNEL(tril_op, tril_kernel, CPU, Meta)
BRASA_REGISTER_KERNEL(triu_op, triu_kernel, CPU, Meta)
BRASA_REGISTER_KERNEL(repeat_op, repeat_kernel, CPU, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor flip(const Tensor& self, IntArrayRef dims) { return ops::flip_op().call(self, dims); }
Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  return ops::roll_op().call(self, shifts, dims);
}
Tensor tril(const Tensor& self, int64_t diagonal) { return ops::tril_op().call(self, diagonal); }
Tensor triu(const Tensor& self, int64_t diagonal) { return ops::triu_op().call(self, diagonal); }
Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  return ops::repeat_op().call(self, repeats);
}
Tensor tile(const Tensor& self, IntArrayRef reps) {
  if (static_cast<int64_t>(reps.size()) >= self.dim()) return repeat(self, reps);
  DimVector padded(static_cast<size_t>(self.dim()) - reps.size(), 1);
  for (int64_t r : reps) padded.push_back(r);
  return repeat(self, padded);
}

Tensor Tensor::flip(IntArrayRef dims) const { return brasa::flip(*this, dims); }
Tensor Tensor::roll(IntArrayRef shifts, IntArrayRef dims) const {
  return brasa::roll(*this, shifts, dims);
}
Tensor Tensor::tril(int64_t diagonal) const { return brasa::tril(*this, diagonal); }
Tensor Tensor::triu(int64_t diagonal) const { return brasa::triu(*this, diagonal); }
const Tensor& Tensor::tril_(int64_t diagonal) const {
  Tensor result = brasa::tril(*this, diagonal);
  autograd::InplaceName name("tril_");  // Note [In-place op names]
  return copy_(result);
}
const Tensor& Tensor::triu_(int64_t diagonal) const {
  Tensor result = brasa::triu(*this, diagonal);
  autograd::InplaceName name("triu_");
  return copy_(result);
}
Tensor Tensor::repeat(IntArrayRef repeats) const { return brasa::repeat(*this, repeats); }
Tensor Tensor::tile(IntArrayRef reps) const { return brasa::tile(*this, reps); }

}  // namespace brasa
