// Composite products: matmul (PyTorch's rank rules and batch broadcasting), outer, linear.
#include "backends/cpu/tensor_iterator.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/autocast_mode.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/view.h"

namespace brasa {

Tensor matmul(const Tensor& self, const Tensor& other) {
  if (BRASA_UNLIKELY(autocast::is_active())) {  // Note [Autocast]: a lower-precision op
    const ScalarType dt = autocast::get_autocast_cpu_dtype();
    autocast::AutocastExclude exclude;
    return matmul(autocast::cached_cast(dt, self), autocast::cached_cast(dt, other));
  }
  BRASA_CHECK(self.defined() && other.defined(), "matmul: got an undefined tensor");
  const int64_t d1 = self.dim(), d2 = other.dim();
  BRASA_CHECK(d1 >= 1 && d2 >= 1, "matmul: both arguments to matmul need to be at least 1D, but ",
              "they are ", d1, "D and ", d2, "D");
  if (d1 == 1 && d2 == 1) return dot(self, other);
  if (d1 == 2 && d2 == 1) return mv(self, other);
  if (d1 == 1 && d2 == 2) return mm(self.unsqueeze(0), other).squeeze(0);
  if (d1 == 2 && d2 == 2) return mm(self, other);
  if (d1 >= 3 && d2 <= 2) {
    // Fold the batch dims of self into its rows: one mm.
    DimVector out_shape;
    for (int64_t i = 0; i + 1 < d1; ++i) out_shape.push_back(self.size(i));
    Tensor w = d2 == 1 ? other.unsqueeze(-1) : other;
    Tensor r = mm(self.reshape({-1, self.size(-1)}), w);
    if (d2 == 2) out_shape.push_back(other.size(1));
    return r.view(out_shape);
  }
  Tensor a = d1 == 1 ? self.unsqueeze(0) : self;
  Tensor b = d2 == 1 ? other.unsqueeze(-1) : other;
  const int64_t M = a.size(-2), K = a.size(-1), K2 = b.size(-2), N = b.size(-1);
  IntArrayRef ab = a.sizes().slice(0, a.dim() - 2), bb = b.sizes().slice(0, b.dim() - 2);
  DimVector batch = cpu::broadcast_shapes(ab, bb, "matmul");
  int64_t nb = 1;
  for (int64_t s : batch) nb *= s;
  DimVector ea(batch), eb(batch);
  ea.push_back(M);
  ea.push_back(K);
  eb.push_back(K2);
  eb.push_back(N);
  BRASA_CHECK(K == K2, "matmul: mat1 and mat2 shapes cannot be multiplied (", M, "x", K, " and ",
              K2, "x", N, ")");
  Tensor r = bmm(a.expand(ea).reshape({nb, M, K}), b.expand(eb).reshape({nb, K, N}));
  DimVector out(batch);
  if (d1 > 1) out.push_back(M);
  if (d2 > 1) out.push_back(N);
  return r.view(out);
}

Tensor outer(const Tensor& self, const Tensor& vec2) {
  BRASA_CHECK(self.defined() && vec2.defined(), "outer: got an undefined tensor");
  BRASA_CHECK(self.dim() == 1 && vec2.dim() == 1, "outer: expected 1-D arguments, but got ",
              self.dim(), "-D and ", vec2.dim(), "-D");
  return self.unsqueeze(1).mul(vec2);
}
Tensor ger(const Tensor& self, const Tensor& vec2) { return outer(self, vec2); }

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  if (BRASA_UNLIKELY(autocast::is_active())) {  // Note [Autocast]: a lower-precision op
    const ScalarType dt = autocast::get_autocast_cpu_dtype();
    autocast::AutocastExclude exclude;
    return linear(autocast::cached_cast(dt, input), autocast::cached_cast(dt, weight),
                  autocast::cached_cast(dt, bias));
  }
  BRASA_CHECK(input.defined() && weight.defined(), "linear: got an undefined tensor");
  BRASA_CHECK(weight.dim() == 2 || weight.dim() == 1, "linear: weight must be 1-D or 2-D, got ",
              weight.dim(), "-D");
  if (input.dim() == 2 && weight.dim() == 2 && bias.defined())
    return addmm(bias, input, weight.t());
  Tensor r = matmul(input, weight.t());
  return bias.defined() ? r.add(bias) : r;
}

Tensor Tensor::matmul(const Tensor& other) const { return brasa::matmul(*this, other); }
Tensor Tensor::outer(const Tensor& vec2) const { return brasa::outer(*this, vec2); }

}  // namespace brasa
