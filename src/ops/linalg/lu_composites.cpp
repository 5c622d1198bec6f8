// What is built on linalg_lu_factor_ex (lu_factor.cpp): lu_unpack, linalg_lu, linalg_lu_solve /
// lu_solve (triangular solves with the unpacked factors), linalg_lu_factor, and the _ex forms of
// inv, solve and cholesky, which report singular (not positive-definite) matrices in `info`.
// All differentiable through the ops they call.
#include <limits>

#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/linalg_decomp.h"
#include "brasa/ops/linalg_lu.h"
#include "brasa/ops/linalg_solvers.h"
#include "brasa/ops/pointwise.h"
#include "ops/linalg/lapack_batch.h"
#include "ops/linalg/lu_factor_ops.h"

namespace brasa {
namespace {

using namespace ops::linalg_detail;  // NOLINT

/// int64 [..., m] permutations perm with (P^T A)[r] = A[perm[r]], from LAPACK's 1-based row
/// interchanges (row i swapped with row pivots[i] - 1, in order).
Tensor permutations(const Tensor& pivots, int64_t m) {
  const Tensor piv = pivots.to(Device(kCPU)).contiguous();  // read on the host
  const int64_t k = piv.size(-1), batch = piv.numel() / std::max<int64_t>(k, 1);
  std::vector<int64_t> shape(piv.sizes().begin(), piv.sizes().end());
  shape.back() = m;
  Tensor perm = arange(m, kLong).expand(shape).contiguous();
  int64_t* p = perm.data_ptr<int64_t>();
  const int* s = piv.data_ptr<int>();
  for (int64_t b = 0; b < (k > 0 ? batch : 0); ++b) {
    for (int64_t i = 0; i < k; ++i) {
      const int64_t j = s[b * k + i] - 1;
      BRASA_CHECK_INDEX(j >= i && j < m, "lu_unpack: pivot ", j + 1, " of row ", i + 1,
                        " is out of range [", i + 1, ", ", m, "]");
      std::swap(p[b * m + i], p[b * m + j]);
    }
  }
  return perm;
}

/// A batch mask [...] with trailing size-1 dims up to `dims` dims, to select whole matrices
/// (vectors) of a batch.
Tensor per_matrix(const Tensor& mask, int64_t dims) {
  Tensor m = mask;
  while (m.dim() < dims) m = m.unsqueeze(-1);
  return m;
}

/// A with the matrices that failed (info > 0) replaced by the identity, so that an op that throws
/// on them can run; their results are then replaced by NaN.
Tensor failed_to_identity(const Tensor& A, const Tensor& failed) {
  return where(per_matrix(failed, failed.dim() + 2), eye(A.size(-1), A.options()), A);
}

/// result with the failed matrices NaN. Their gradient with respect to A is NaN too (as
/// libtorch's, computed from NaN results): they are taken from A * NaN.
Tensor nan_where(const Tensor& result, const Tensor& failed, const Tensor& A) {
  const Tensor mask = per_matrix(failed, failed.dim() + 2);
  const Tensor nan_branch = where(mask, A, Scalar(0)).mul(std::numeric_limits<double>::quiet_NaN());
  return where(mask, nan_branch, result);
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> linalg_lu_factor_ex(const Tensor& A, bool pivot,
                                                       bool check_errors) {
  return ops::linalg_lu_factor_ex_op().call(A, pivot, check_errors);
}

std::tuple<Tensor, Tensor> linalg_lu_factor(const Tensor& A, bool pivot) {
  auto [LU, pivots, info] = linalg_lu_factor_ex(A, pivot, false);
  const Tensor flat = info.to(Device(kCPU)).reshape({-1});  // read on the host
  const int* i = flat.data_ptr<int>();
  for (int64_t b = 0; b < flat.numel(); ++b) {
    BRASA_CHECK_LINALG(i[b] == 0, "torch.linalg.lu_factor: ", which_matrix(A, b), ": U[", i[b] - 1,
                       ",", i[b] - 1, "] is zero and using it on lu_solve would result ",
                       "in a division by zero; linalg.lu_factor_ex(A) factors it all the same");
  }
  return {LU, pivots};
}

std::tuple<Tensor, Tensor, Tensor> lu_unpack(const Tensor& LU_data, const Tensor& LU_pivots,
                                             bool unpack_data, bool unpack_pivots) {
  BRASA_CHECK(LU_data.dim() >= 2, "lu_unpack: LU_data must have at least 2 dimensions, got ",
              LU_data.sizes());
  const int64_t m = LU_data.size(-2), n = LU_data.size(-1), k = std::min(m, n);
  std::vector<int64_t> pivot_shape(LU_data.sizes().begin(), LU_data.sizes().end() - 2);
  pivot_shape.push_back(k);
  BRASA_CHECK_TYPE(LU_pivots.dtype() == kInt, "lu_unpack: LU_pivots is expected to be a tensor ",
                   "of torch.int32 dtype, got ", LU_pivots.dtype());
  BRASA_CHECK(LU_pivots.sizes() == IntArrayRef(pivot_shape), "lu_unpack: LU_pivots ",
              LU_pivots.sizes(), " do not fit LU_data ", LU_data.sizes(), " (expected ",
              IntArrayRef(pivot_shape), ")");
  Tensor P = empty({0}, LU_data.options()), L = P, U = P;
  if (unpack_data) {
    L = tril(LU_data, -1).narrow(-1, 0, k).add(eye(m, k, LU_data.options()));
    U = triu(LU_data).narrow(-2, 0, k);
  }
  if (unpack_pivots) {
    const Tensor perm = permutations(LU_pivots, m).to(LU_data.device());
    // P[..., i, r] = 1 where i == perm[..., r].
    P = arange(m, TensorOptions(kLong).device(LU_data.device()))
            .unsqueeze(-1)
            .eq(perm.unsqueeze(-2))
            .to(LU_data.dtype());
  }
  return {P, L, U};
}

std::tuple<Tensor, Tensor, Tensor> linalg_lu(const Tensor& A, bool pivot) {
  auto [LU, pivots, info] = linalg_lu_factor_ex(A, pivot, false);
  return lu_unpack(LU, pivots);
}

Tensor linalg_lu_solve(const Tensor& LU, const Tensor& pivots, const Tensor& B, bool left,
                       bool adjoint) {
  const char* op = "linalg.lu_solve";
  check_square(op, LU, "LU");
  check_matrix(op, B, "B");
  BRASA_CHECK_TYPE(LU.dtype() == B.dtype(), op, ": LU and B must have the same dtype, got ",
                   LU.dtype(), " and ", B.dtype());
  const int64_t n = LU.size(-1);
  BRASA_CHECK(B.size(left ? -2 : -1) == n, op, ": incompatible shapes of LU ", LU.sizes(),
              " and B ", B.sizes());
  auto [P, L, U] = lu_unpack(LU, pivots);
  // X A = B is A^T X^T = B^T: every case is a left solve with A or A^T.
  const bool transposed = left == adjoint;
  const Tensor Bl = left ? B : B.transpose(-2, -1);
  Tensor X;
  if (!transposed) {  // A X = B, A = P L U: X = U^-1 L^-1 P^T B
    const Tensor Y = linalg_solve_triangular(L, matmul(P.transpose(-2, -1), Bl), false, true, true);
    X = linalg_solve_triangular(U, Y, true);
  } else {  // A^T X = B: X = P L^-T U^-T B
    const Tensor Y = linalg_solve_triangular(U.transpose(-2, -1), Bl, false);
    X = matmul(P, linalg_solve_triangular(L.transpose(-2, -1), Y, true, true, true));
  }
  return left ? X : X.transpose(-2, -1);
}

Tensor lu_solve(const Tensor& self, const Tensor& LU_data, const Tensor& LU_pivots) {
  return linalg_lu_solve(LU_data, LU_pivots, self);
}

std::tuple<Tensor, Tensor> linalg_inv_ex(const Tensor& A, bool check_errors) {
  check_square("linalg.inv_ex", A);
  const Tensor info = std::get<2>(linalg_lu_factor_ex(A.detach(), true, check_errors));
  const Tensor failed = info.gt(0);
  if (!failed.any().item<bool>()) return {linalg_inv(A), info};
  return {nan_where(linalg_inv(failed_to_identity(A, failed)), failed, A), info};
}

std::tuple<Tensor, Tensor> linalg_solve_ex(const Tensor& A, const Tensor& B, bool left,
                                           bool check_errors) {
  check_square("linalg.solve_ex", A);
  const Tensor info = std::get<2>(linalg_lu_factor_ex(A.detach(), true, check_errors));
  const Tensor failed = info.gt(0);
  if (!failed.any().item<bool>()) return {linalg_solve(A, B, left), info};
  const Tensor X = linalg_solve(failed_to_identity(A, failed), B, left);
  // failed covers A's batch dims; X's may extend them on the left (broadcast with B's).
  const bool vector =
      B.dim() == 1 ||
      (B.dim() == A.dim() - 1 && B.sizes() == IntArrayRef(A.sizes().begin(), A.sizes().end() - 1));
  return {where(per_matrix(failed, failed.dim() + (vector ? 1 : 2)),
                std::numeric_limits<double>::quiet_NaN(), X),
          info};
}

std::tuple<Tensor, Tensor> linalg_cholesky_ex(const Tensor& A, bool upper, bool check_errors) {
  const char* op = "linalg.cholesky_ex";
  check_square(op, A);
  // info: potrf on a copy (the factor itself comes from linalg_cholesky, with its derivative).
  Tensor info = detail::empty_generic(batch_sizes(A), kInt, Device(kCPU));
  const int64_t n = A.size(-1), batch = product(batch_sizes(A));
  int* infos = info.data_ptr<int>();
  for (int64_t b = 0; b < batch; ++b) infos[b] = 0;
  if (n > 0 && batch > 0) {
    Tensor copy = column_major_copy(A.detach().to(Device(kCPU)));
    dispatch_floating(A.dtype(), [&](auto zero) {
      using T = decltype(zero);
      T* data = copy.data_ptr<T>();
      for_each_matrix(batch, n * n * n, [&](int64_t b) {
        infos[b] = cpu::lapack::potrf<T>('L', as_int(n), data + b * n * n, ld(n));
      });
    });
  }
  for (int64_t b = 0; b < batch; ++b) {
    BRASA_CHECK_LINALG(!check_errors || infos[b] == 0, op, ": ", which_matrix(A, b),
                       " is not positive-definite (its leading minor of order ", infos[b],
                       " is not positive-definite)");
  }
  info = info.to(A.device());
  const Tensor failed = info.gt(0);
  if (!failed.any().item<bool>()) return {linalg_cholesky(A, upper), info};
  return {nan_where(linalg_cholesky(failed_to_identity(A, failed), upper), failed, A), info};
}

}  // namespace brasa
