// Matrix functions written with matmul: matrix_power (repeated squaring; the inverse's for
// negative powers) and matrix_exp (scaling and squaring of a Taylor polynomial), and
// linalg_vander (cumprod). Autograd differentiates them through those ops.
#include <cmath>

#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/linalg_decomp.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/products.h"
#include "brasa/ops/reduce.h"

namespace brasa {
namespace {

void check_square(const Tensor& A, const char* op) {
  BRASA_CHECK(A.dim() >= 2, op, ": The input tensor A must have at least 2 dimensions, got ",
              A.sizes());
  BRASA_CHECK(A.size(-1) == A.size(-2), op, ": A must be batches of square matrices, but they ",
              "are ", A.size(-2), " by ", A.size(-1), " matrices");
}

/// Identity matrices of A's shape; like libtorch, a copy into A's clone, so that the result
/// depends on A (with a zero gradient).
Tensor identity_like(const Tensor& A) {
  Tensor I = A.clone();
  I.copy_(eye(A.size(-1), A.options()).expand(A.sizes()));
  return I;
}

// Note [matrix_exp]: exp(A) = exp(A / 2^s)^(2^s), with s chosen so that the 1-norm of
// X = A / 2^s is at most 1/2; exp(X) is the Taylor polynomial of degree 18 (truncation error
// below 0.5^19 / 19!, under double's rounding), evaluated by Horner's rule. One s serves the
// whole batch (the largest norm decides), which only costs extra squarings.
constexpr int kTaylorDegree = 18;

}  // namespace

Tensor matrix_power(const Tensor& self, int64_t n) {
  check_square(self, "linalg.matrix_power");
  if (n == 0) return identity_like(self);
  const bool inverse = n < 0;
  Tensor base = inverse ? linalg_inv(self) : self;
  if (inverse) n = -n;
  if (n == 1) return inverse ? base : base.clone();
  Tensor result;
  while (true) {
    if (n & 1) result = result.defined() ? matmul(result, base) : base;
    n >>= 1;
    if (n == 0) break;
    base = matmul(base, base);
  }
  return result;
}

Tensor linalg_matrix_power(const Tensor& self, int64_t n) { return matrix_power(self, n); }

Tensor matrix_exp(const Tensor& self) {
  check_square(self, "linalg.matrix_exp");
  BRASA_CHECK_TYPE(self.is_floating_point() || self.is_complex(), "linalg.matrix_exp: Expected ",
                   "a floating point or complex tensor as input. Got ", self.dtype());
  if (self.numel() == 0) return self.clone();
  const double norm = amax(sum(abs(self.detach()), {-2})).item<double>();
  const int squarings = norm > 0.5 ? static_cast<int>(std::ceil(std::log2(norm / 0.5))) : 0;
  const Tensor X = squarings > 0 ? self.div(std::ldexp(1.0, squarings)) : self;
  const Tensor I = identity_like(self);
  Tensor P = I;
  for (int k = kTaylorDegree; k >= 1; --k) P = I.add(matmul(X, P).div(k));
  for (int i = 0; i < squarings; ++i) P = matmul(P, P);
  return P;
}

Tensor linalg_matrix_exp(const Tensor& self) { return matrix_exp(self); }

Tensor linalg_vander(const Tensor& x, std::optional<int64_t> N) {
  BRASA_CHECK(x.dim() >= 1, "linalg.vander: x must have at least one dimension.");
  BRASA_CHECK_TYPE(x.dtype() != kBool, "linalg.vander supports floating point, complex, and ",
                   "integer tensors, but got ", x.dtype());
  const int64_t n = N.value_or(x.size(-1));
  BRASA_CHECK(n > 1, "linalg.vander: N must be greater than 1, got ", n);
  std::vector<int64_t> shape(x.sizes().begin(), x.sizes().end());
  shape.push_back(n - 1);
  return cumprod(cat({ones_like(x).unsqueeze(-1), x.unsqueeze(-1).expand(shape)}, -1), -1);
}

}  // namespace brasa
