// linalg_ldl_factor_ex / linalg_ldl_factor / linalg_ldl_solve: LAPACK's Bunch-Kaufman sytrf and
// sytrs on the lower triangle of each real symmetric matrix (hermitian is the same for real
// inputs), with PyTorch's outputs: LD with its strict upper triangle zeroed, 1-based int32 pivots
// (negative for 2 x 2 blocks) and int32 info.
#include <algorithm>

#include "brasa/ops/linalg_lu.h"
#include "brasa/ops/shaping.h"
#include "brasa/ops/view.h"
#include "ops/linalg/decomp_ops.h"
#include "ops/linalg/lapack_batch.h"

namespace brasa::ops {
namespace {

using namespace linalg_detail;  // NOLINT

template <bool kRun>
std::tuple<Tensor, Tensor, Tensor> ldl_factor_kernel(const Tensor& A, bool hermitian,
                                                     bool check_errors) {
  const char* op = "torch.linalg.ldl_factor_ex";
  (void)hermitian;  // real inputs: symmetric and hermitian are the same
  check_square(op, A);
  const int64_t n = A.size(-1);
  DimVector piv_shape = batch_sizes(A);
  const DimVector info_shape = piv_shape;
  piv_shape.push_back(n);
  Tensor LD = empty_column_major(A.sizes(), A.dtype(), A.device());
  Tensor pivots = detail::empty_generic(piv_shape, kInt, A.device());
  Tensor info = detail::empty_generic(info_shape, kInt, A.device());
  if constexpr (!kRun) {
    return {LD, pivots, info};
  } else {
    LD.copy_(A);
    const int64_t batch = product(batch_sizes(A));
    int32_t* piv = pivots.data_ptr<int32_t>();
    int32_t* inf = info.data_ptr<int32_t>();
    std::vector<int> infos(size_t(batch), 0);
    if (n > 0) {
      dispatch_floating(A.dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* d = LD.data_ptr<T>();
        for_each_matrix(batch, n * n * n, [&](int64_t b) {
          T* m = d + b * n * n;
          infos[size_t(b)] = cpu::lapack::sytrf<T>('L', as_int(n), m, ld(n), piv + b * n);
          for (int64_t j = 1; j < n; ++j) std::fill(m + j * n, m + j * n + j, T(0));
        });
      });
    }
    for (int64_t b = 0; b < batch; ++b) inf[b] = infos[size_t(b)];
    auto [b, code] = first_failure(infos);
    if (code < 0) throw_bad_argument(op, "sytrf", code);
    BRASA_CHECK_LINALG(!check_errors || code == 0, op, ": the factorization of ",
                       which_matrix(A, b), " could not be completed: D(", code, ", ", code,
                       ") is exactly zero (the matrix is singular)");
    return {LD, pivots, info};
  }
}

// The batch shape of LD (with its pivots) broadcast against B's.
DimVector solve_batch(const Tensor& LD, const Tensor& B) {
  std::vector<Tensor> both = broadcast_tensors(
      {LD.narrow(-1, 0, 0).narrow(-2, 0, 0), B.narrow(-1, 0, 0).narrow(-2, 0, 0)});
  DimVector s = batch_sizes(both[0]);
  return s;
}

template <bool kRun>
Tensor ldl_solve_kernel(const Tensor& LD, const Tensor& pivots, const Tensor& B, bool hermitian) {
  const char* op = "torch.linalg.ldl_solve";
  (void)hermitian;
  check_square(op, LD, "LD");
  check_matrix(op, B, "B");
  BRASA_CHECK_TYPE(B.dtype() == LD.dtype(), op, ": Expected B and LD to have the same dtype, got ",
                   B.dtype(), " and ", LD.dtype());
  const int64_t n = LD.size(-1), nrhs = B.size(-1);
  BRASA_CHECK(B.size(-2) == n, op, ": Incompatible matrix sizes: each LD matrix is ", n, " by ", n,
              " but each B matrix is ", B.size(-2), " by ", nrhs);
  BRASA_CHECK(pivots.defined(), op, ": got undefined pivots");
  BRASA_CHECK_TYPE(is_integral_type(pivots.scalar_type(), false), op,
                   ": pivots must be of an integral dtype, got ", pivots.scalar_type());
  BRASA_CHECK(pivots.sizes().equals(LD.sizes().slice(0, size_t(LD.dim() - 1))), op,
              ": Expected LD.shape[:-1] and pivots.shape to be the same, got LD ", LD.sizes(),
              " and pivots ", pivots.sizes());
  DimVector shape = solve_batch(LD, B);
  const DimVector batch_shape = shape;
  shape.push_back(n);
  shape.push_back(nrhs);
  Tensor X = empty_column_major(shape, B.dtype(), B.device());
  if constexpr (!kRun) {
    return X;
  } else {
    X.copy_(B.expand(shape));
    DimVector ld_shape = batch_shape, piv_shape = batch_shape;
    ld_shape.push_back(n);
    ld_shape.push_back(n);
    piv_shape.push_back(n);
    Tensor lds = column_major_copy(LD.expand(ld_shape));
    Tensor piv = pivots.expand(piv_shape).to(kInt).contiguous();
    const int64_t batch = product(batch_shape);
    if (n == 0 || nrhs == 0 || batch == 0) return X;
    std::vector<int> infos(size_t(batch), 0);
    const int32_t* p = piv.data_ptr<int32_t>();
    for (int64_t i = 0; i < piv.numel(); ++i) {
      const int64_t v = p[i] < 0 ? -int64_t(p[i]) : p[i];
      BRASA_CHECK(v >= 1 && v <= n, op, ": pivots must be in [1, ", n, "] or [-", n,
                  ", -1] (as ldl_factor returns them), got ", p[i]);
    }
    dispatch_floating(B.dtype(), [&](auto zero) {
      using T = decltype(zero);
      const T* a = lds.data_ptr<T>();
      T* x = X.data_ptr<T>();
      for_each_matrix(batch, n * n * nrhs, [&](int64_t b) {
        infos[size_t(b)] = cpu::lapack::sytrs<T>('L', as_int(n), as_int(nrhs), a + b * n * n, ld(n),
                                                 p + b * n, x + b * n * nrhs, ld(n));
      });
    });
    auto [b, code] = first_failure(infos);
    if (code < 0) throw_bad_argument(op, "sytrs", code);
    return X;
  }
}

}  // namespace

BRASA_DEFINE_OP(linalg_ldl_factor_ex_op)
BRASA_REGISTER_KERNEL(linalg_ldl_factor_ex_op, ldl_factor_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_ldl_factor_ex_op, ldl_factor_kernel<false>, Meta)
BRASA_DEFINE_OP(linalg_ldl_solve_op)
BRASA_REGISTER_KERNEL(linalg_ldl_solve_op, ldl_solve_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_ldl_solve_op, ldl_solve_kernel<false>, Meta)

}  // namespace brasa::ops

namespace brasa {

std::tuple<Tensor, Tensor, Tensor> linalg_ldl_factor_ex(const Tensor& A, bool hermitian,
                                                        bool check_errors) {
  return ops::linalg_ldl_factor_ex_op().call(A, hermitian, check_errors);
}
std::tuple<Tensor, Tensor> linalg_ldl_factor(const Tensor& A, bool hermitian) {
  auto [LD, pivots, info] = ops::linalg_ldl_factor_ex_op().call(A, hermitian, true);
  return {LD, pivots};
}
Tensor linalg_ldl_solve(const Tensor& LD, const Tensor& pivots, const Tensor& B, bool hermitian) {
  return ops::linalg_ldl_solve_op().call(LD, pivots, B, hermitian);
}

}  // namespace brasa
