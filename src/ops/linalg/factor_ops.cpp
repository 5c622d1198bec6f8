// cholesky (potrf) and qr (geqrf + orgqr), kernels templated over kRun like lu_ops.cpp.
#include "brasa/ops/linalg_decomp.h"
#include "ops/linalg/decomp_ops.h"
#include "ops/linalg/lapack_batch.h"

namespace brasa::ops {
namespace {

using namespace linalg_detail;  // NOLINT

template <bool kRun>
Tensor cholesky_kernel(const Tensor& A, bool upper) {
  const char* op = "linalg.cholesky";
  check_square(op, A);
  if constexpr (!kRun) {
    return empty_column_major(A.sizes(), A.dtype(), A.device());
  } else {
    // A = L L^T from A's lower triangle, or A = U^T U from its upper one (U = L^T).
    Tensor L = column_major_copy(A);
    const int64_t n = A.size(-1), batch = product(batch_sizes(A));
    std::vector<int> infos(batch);
    if (n > 0) {
      dispatch_floating(A.dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* data = L.data_ptr<T>();
        for_each_matrix(batch, n * n * n, [&](int64_t b) {
          infos[b] = cpu::lapack::potrf<T>(upper ? 'U' : 'L', as_int(n), data + b * n * n, ld(n));
        });
      });
    }
    auto [b, info] = first_failure(infos);
    if (info < 0) throw_bad_argument(op, "potrf", info);
    BRASA_CHECK_LINALG(info == 0, op, ": ", which_matrix(A, b),
                       " is not positive-definite (its leading minor of order ", info,
                       " is not positive); expected a symmetric positive-definite matrix");
    return upper ? L.triu_() : L.tril_();
  }
}

// mode "reduced": Q [.., m, k], R [.., k, n] with k = min(m, n); "complete": Q [.., m, m],
// R [.., m, n]; "r": R only (Q is empty).
template <bool kRun>
std::tuple<Tensor, Tensor> qr_kernel(const Tensor& A, std::string mode) {
  const char* op = "linalg.qr";
  check_matrix(op, A);
  BRASA_CHECK(mode == "reduced" || mode == "complete" || mode == "r", op,
              ": mode must be 'reduced', 'complete' or 'r', got '", mode, "'");
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  const int64_t q_cols = mode == "complete" ? m : k;
  DimVector q_shape = batch_sizes(A), r_shape = batch_sizes(A);
  q_shape.push_back(mode == "r" ? 0 : m);
  q_shape.push_back(mode == "r" ? 0 : q_cols);
  r_shape.push_back(mode == "complete" ? m : k);
  r_shape.push_back(n);
  if constexpr (!kRun) {
    return {empty_column_major(q_shape, A.dtype(), A.device()),
            empty_column_major(r_shape, A.dtype(), A.device())};
  } else {
    // The factorisation runs in an m x max(n, q_cols) buffer so that orgqr can grow Q in place.
    const int64_t width = std::max(n, q_cols), batch = product(batch_sizes(A));
    DimVector work_shape = batch_sizes(A);
    work_shape.push_back(m);
    work_shape.push_back(width);
    Tensor work = empty_column_major(work_shape, A.dtype(), A.device());
    work.narrow(-1, 0, n).copy_(A);
    Tensor R = empty_column_major(r_shape, A.dtype(), A.device());
    Tensor Q;
    if (batch == 0 || m == 0 || n == 0) {
      R.zero_();
      Q = empty_column_major(q_shape, A.dtype(), A.device());
      if (mode != "r" && Q.numel() > 0) {
        Q.zero_();
        Q.diagonal(0, -2, -1).fill_(1);
      }
      return {Q, R};
    }
    dispatch_floating(A.dtype(), [&](auto zero) {
      using T = decltype(zero);
      T* data = work.data_ptr<T>();
      std::vector<T> taus(batch * k);
      for_each_matrix(batch, m * n * k, [&](int64_t b) {
        cpu::lapack::geqrf<T>(as_int(m), as_int(n), data + b * m * width, ld(m), &taus[b * k]);
      });
      R.copy_(work.narrow(-1, 0, n).narrow(-2, 0, r_shape[r_shape.size() - 2]).triu());
      if (mode == "r") return;
      for_each_matrix(batch, m * q_cols * k, [&](int64_t b) {
        cpu::lapack::orgqr<T>(as_int(m), as_int(q_cols), as_int(k), data + b * m * width, ld(m),
                              &taus[b * k]);
      });
    });
    Q = empty_column_major(q_shape, A.dtype(), A.device());
    if (mode != "r") Q.copy_(work.narrow(-1, 0, q_cols));
    return {Q, R};
  }
}

}  // namespace

BRASA_DEFINE_OP(linalg_cholesky_op)
BRASA_REGISTER_KERNEL(linalg_cholesky_op, cholesky_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_cholesky_op, cholesky_kernel<false>, Meta)
BRASA_DEFINE_OP(linalg_qr_op)
BRASA_REGISTER_KERNEL(linalg_qr_op, qr_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_qr_op, qr_kernel<false>, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor linalg_cholesky(const Tensor& A, bool upper) {
  return ops::linalg_cholesky_op().call(A, upper);
}
std::tuple<Tensor, Tensor> linalg_qr(const Tensor& A, std::string_view mode) {
  return ops::linalg_qr_op().call(A, std::string(mode));
}

}  // namespace brasa
