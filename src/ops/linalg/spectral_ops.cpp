// svd (gesdd) and eigh (syevd), kernels templated over kRun like lu_ops.cpp. Without
// compute_uv / compute_v the vectors come back as empty tensors (PyTorch's svdvals / eigvalsh).
#include "brasa/ops/linalg_decomp.h"
#include "ops/linalg/decomp_ops.h"
#include "ops/linalg/lapack_batch.h"

namespace brasa::ops {
namespace {

using namespace linalg_detail;  // NOLINT

DimVector with_matrix(const Tensor& A, int64_t rows, int64_t cols) {
  DimVector s = batch_sizes(A);
  s.push_back(rows);
  s.push_back(cols);
  return s;
}

DimVector with_vector(const Tensor& A, int64_t len) {
  DimVector s = batch_sizes(A);
  s.push_back(len);
  return s;
}

// Identity columns for the vectors of an empty (k = 0) decomposition.
void fill_identity(Tensor& t) {
  if (t.numel() == 0) return;
  t.zero_();
  t.diagonal(0, -2, -1).fill_(1);
}

// U [.., m, m or k], S [.., k], Vh [.., n or k, n] with k = min(m, n).
template <bool kRun>
std::tuple<Tensor, Tensor, Tensor> svd_kernel(const Tensor& A, bool full_matrices,
                                              bool compute_uv) {
  const char* op = "linalg.svd";
  check_matrix(op, A);
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  const int64_t ucols = full_matrices ? m : k, vrows = full_matrices ? n : k;
  Tensor S = detail::empty_generic(with_vector(A, k), A.dtype(), A.device());
  Tensor U = compute_uv ? empty_column_major(with_matrix(A, m, ucols), A.dtype(), A.device())
                        : detail::empty_generic({0}, A.dtype(), A.device());
  Tensor Vh = compute_uv ? empty_column_major(with_matrix(A, vrows, n), A.dtype(), A.device())
                         : detail::empty_generic({0}, A.dtype(), A.device());
  if constexpr (kRun) {
    const int64_t batch = product(batch_sizes(A));
    if (batch == 0) return {U, S, Vh};
    if (k == 0) {
      if (compute_uv) {
        fill_identity(U);
        fill_identity(Vh);
      }
      return {U, S, Vh};
    }
    Tensor a = column_major_copy(A);
    const char jobz = !compute_uv ? 'N' : (full_matrices ? 'A' : 'S');
    std::vector<int> infos(batch);
    dispatch_floating(A.dtype(), [&](auto zero) {
      using T = decltype(zero);
      T* a_data = a.data_ptr<T>();
      T* s_data = S.data_ptr<T>();
      T* u_data = compute_uv ? U.data_ptr<T>() : nullptr;
      T* v_data = compute_uv ? Vh.data_ptr<T>() : nullptr;
      for_each_matrix(batch, m * n * k, [&](int64_t b) {
        infos[b] =
            cpu::lapack::gesdd<T>(jobz, as_int(m), as_int(n), a_data + b * m * n, ld(m),
                                  s_data + b * k, compute_uv ? u_data + b * m * ucols : nullptr,
                                  ld(m), compute_uv ? v_data + b * vrows * n : nullptr, ld(vrows));
      });
    });
    auto [b, info] = first_failure(infos);
    // LAPACK >= 3.10's gesdd refuses a matrix with NaN entries as a bad argument 4 (A).
    BRASA_CHECK_LINALG(info != -4, op, ": ", which_matrix(A, b),
                       " has non-finite entries; expected finite values");
    if (info < 0) throw_bad_argument(op, "gesdd", info);
    BRASA_CHECK_LINALG(info == 0, op, ": the SVD of ", which_matrix(A, b),
                       " did not converge (ill-conditioned or non-finite input)");
  }
  return {U, S, Vh};
}

// Ascending eigenvalues [.., n] and eigenvectors as columns [.., n, n] of the symmetric matrix
// held in A's UPLO triangle.
template <bool kRun>
std::tuple<Tensor, Tensor> eigh_kernel(const Tensor& A, std::string uplo, bool compute_v) {
  const char* op = "linalg.eigh";
  check_square(op, A);
  BRASA_CHECK(uplo == "L" || uplo == "U" || uplo == "l" || uplo == "u", op,
              ": UPLO must be 'L' or 'U', got '", uplo, "'");
  const int64_t n = A.size(-1);
  Tensor w = detail::empty_generic(with_vector(A, n), A.dtype(), A.device());
  if constexpr (!kRun) {
    return {w, compute_v ? empty_column_major(A.sizes(), A.dtype(), A.device())
                         : detail::empty_generic({0}, A.dtype(), A.device())};
  } else {
    Tensor V = column_major_copy(A);
    const int64_t batch = product(batch_sizes(A));
    std::vector<int> infos(batch);
    if (n > 0) {
      const char u = static_cast<char>(std::toupper(uplo[0]));
      dispatch_floating(A.dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* v_data = V.data_ptr<T>();
        T* w_data = w.data_ptr<T>();
        for_each_matrix(batch, n * n * n, [&](int64_t b) {
          infos[b] = cpu::lapack::syevd<T>(compute_v ? 'V' : 'N', u, as_int(n), v_data + b * n * n,
                                           ld(n), w_data + b * n);
        });
      });
    }
    auto [b, info] = first_failure(infos);
    if (info < 0) throw_bad_argument(op, "syevd", info);
    BRASA_CHECK_LINALG(info == 0, op, ": the eigendecomposition of ", which_matrix(A, b),
                       " did not converge (ill-conditioned or non-finite input)");
    return {w, compute_v ? V : detail::empty_generic({0}, A.dtype(), A.device())};
  }
}

}  // namespace

BRASA_DEFINE_OP(linalg_svd_op)
BRASA_REGISTER_KERNEL(linalg_svd_op, svd_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_svd_op, svd_kernel<false>, Meta)
BRASA_DEFINE_OP(linalg_eigh_op)
BRASA_REGISTER_KERNEL(linalg_eigh_op, eigh_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_eigh_op, eigh_kernel<false>, Meta)

}  // namespace brasa::ops

namespace brasa {

std::tuple<Tensor, Tensor, Tensor> linalg_svd(const Tensor& A, bool full_matrices) {
  return ops::linalg_svd_op().call(A, full_matrices, true);
}
Tensor linalg_svdvals(const Tensor& A) {
  return std::get<1>(ops::linalg_svd_op().call(A, false, false));
}
std::tuple<Tensor, Tensor> linalg_eigh(const Tensor& A, std::string_view uplo) {
  return ops::linalg_eigh_op().call(A, std::string(uplo), true);
}
Tensor linalg_eigvalsh(const Tensor& A, std::string_view uplo) {
  return std::get<0>(ops::linalg_eigh_op().call(A, std::string(uplo), false));
}

}  // namespace brasa
