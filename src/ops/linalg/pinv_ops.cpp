// pinv: the pseudo-inverse from the SVD (or, when hermitian, the eigendecomposition), with the
// singular values at most max(atol, rtol * largest) counted as zero. Its kernel is written with
// dispatched ops, so it serves Meta too; its derivative (spectral_grad.cpp) is pinv's own, which
// stays finite where the SVD's is not (repeated or dropped singular values).
#include <limits>

#include "brasa/ops/linalg.h"
#include "brasa/ops/linalg_decomp.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "ops/linalg/decomp_ops.h"
#include "ops/linalg/lapack_batch.h"

namespace brasa::ops {
namespace {

Tensor pinv_kernel(const Tensor& A, std::optional<double> atol, std::optional<double> rtol,
                   bool hermitian) {
  linalg_detail::check_matrix("linalg.pinv", A);
  const int64_t m = A.size(-2), n = A.size(-1);
  const double eps = A.dtype() == kFloat ? std::numeric_limits<float>::epsilon()
                                         : std::numeric_limits<double>::epsilon();
  // PyTorch's defaults: rtol = eps * max(m, n) when neither is given, 0 when only atol is.
  const double rel = rtol ? *rtol : (atol ? 0.0 : eps * static_cast<double>(std::max(m, n)));
  const double abs_tol = atol.value_or(0.0);
  auto invert = [&](const Tensor& s) {
    if (s.numel() == 0) return s;
    const Tensor mag = abs(s);
    const Tensor largest = mag.amax({-1}, true);
    const Tensor keep = (mag > largest * rel).to(s.dtype()) * (mag > abs_tol).to(s.dtype());
    return keep / (s * keep + (1 - keep));  // 1 / 1 where dropped: no 1/0
  };
  if (hermitian) {
    auto [w, V] = linalg_eigh(A);
    return matmul(V * invert(w).unsqueeze(-2), V.transpose(-2, -1));
  }
  auto [U, S, Vh] = linalg_svd(A, false);
  return matmul(Vh.transpose(-2, -1) * invert(S).unsqueeze(-2), U.transpose(-2, -1));
}

}  // namespace

BRASA_DEFINE_OP(linalg_pinv_op)
BRASA_REGISTER_KERNEL(linalg_pinv_op, pinv_kernel, CPU)
BRASA_REGISTER_KERNEL(linalg_pinv_op, pinv_kernel, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor linalg_pinv(const Tensor& A, std::optional<double> atol, std::optional<double> rtol,
                   bool hermitian) {
  return ops::linalg_pinv_op().call(A, atol, rtol, hermitian);
}

Tensor linalg_pinv(const Tensor& A, double rcond, bool hermitian) {
  return linalg_pinv(A, 0.0, rcond, hermitian);
}

}  // namespace brasa
