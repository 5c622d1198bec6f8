// linalg_eig and linalg_eigvals: LAPACK geev on a column-major copy of each real matrix, its
// eigenvalue pairs and eigenvector columns assembled into complex results (ComplexFloat for
// float, ComplexDouble for double), in geev's order and normalisation, as PyTorch returns them.
#include "brasa/ops/linalg_decomp.h"
#include "ops/linalg/decomp_ops.h"
#include "ops/linalg/lapack_batch.h"

namespace brasa::ops {
namespace {

using namespace linalg_detail;  // NOLINT

constexpr const char* kOp = "linalg.eig";

void check_eig_input(const Tensor& A) {
  BRASA_CHECK(A.defined(), kOp, ": got an undefined tensor");
  BRASA_CHECK_TYPE(!A.is_complex(), kOp,
                   ": complex inputs are not supported (float or double matrices), got ",
                   A.scalar_type());
  check_square(kOp, A);
}

DimVector values_shape(const Tensor& A) {
  DimVector s = batch_sizes(A);
  s.push_back(A.size(-1));
  return s;
}

// (values [..., n], vectors [..., n, n] or undefined) of the real float/double A.
template <bool kRun>
std::tuple<Tensor, Tensor> eig_impl(const Tensor& A, bool compute_v) {
  check_eig_input(A);
  const ScalarType ct = to_complex_type(A.scalar_type());
  const int64_t n = A.size(-1);
  Tensor values = detail::empty_generic(values_shape(A), ct, A.device());
  Tensor vectors = compute_v ? detail::empty_generic(A.sizes(), ct, A.device()) : Tensor();
  if constexpr (!kRun) {
    return {values, vectors};
  } else {
    const int64_t batch = product(batch_sizes(A));
    if (n == 0 || batch == 0) return {values, vectors};
    Tensor a = column_major_copy(A);
    std::vector<int> infos(size_t(batch), 0);
    dispatch_floating(A.scalar_type(), [&](auto zero) {
      using T = decltype(zero);
      T* a_data = a.data_ptr<T>();
      complex<T>* w = values.data_ptr<complex<T>>();
      complex<T>* v = compute_v ? vectors.data_ptr<complex<T>>() : nullptr;
      for_each_matrix(batch, n * n * n * 10, [&](int64_t b) {
        const size_t count = size_t(n);
        std::vector<T> wr(count), wi(count), vr(compute_v ? count * count : 1);
        infos[size_t(b)] =
            cpu::lapack::geev<T>(compute_v ? 'V' : 'N', as_int(n), a_data + b * n * n, ld(n),
                                 wr.data(), wi.data(), vr.data(), ld(n));
        if (infos[size_t(b)] != 0) return;
        complex<T>* wb = w + b * n;
        for (int64_t j = 0; j < n; ++j) wb[j] = complex<T>(wr[size_t(j)], wi[size_t(j)]);
        if (!compute_v) return;
        complex<T>* vb =
            v + b * n * n;  // row-major [n, n]: vb[i * n + j] = component i of vector j
        for (int64_t j = 0; j < n; ++j) {
          const T* col = vr.data() + j * n;
          if (wi[size_t(j)] != 0 && j + 1 < n) {  // a conjugate pair: columns j and j + 1
            const T* next = col + n;
            for (int64_t i = 0; i < n; ++i) {
              vb[i * n + j] = complex<T>(col[i], next[i]);
              vb[i * n + j + 1] = complex<T>(col[i], -next[i]);
            }
            ++j;
          } else {
            for (int64_t i = 0; i < n; ++i) vb[i * n + j] = complex<T>(col[i], 0);
          }
        }
      });
    });
    auto [b, info] = first_failure(infos);
    if (info < 0) throw_bad_argument(kOp, "geev", info);
    BRASA_CHECK_LINALG(info == 0, kOp, ": the eigenvalue algorithm failed to converge for ",
                       which_matrix(A, b), " (ill-conditioned or non-finite input)");
    return {values, vectors};
  }
}

template <bool kRun>
std::tuple<Tensor, Tensor> eig_kernel(const Tensor& A) {
  return eig_impl<kRun>(A, true);
}
template <bool kRun>
Tensor eigvals_kernel(const Tensor& A) {
  return std::get<0>(eig_impl<kRun>(A, false));
}

}  // namespace

BRASA_DEFINE_OP(linalg_eig_op)
BRASA_REGISTER_KERNEL(linalg_eig_op, eig_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_eig_op, eig_kernel<false>, Meta)
BRASA_DEFINE_OP(linalg_eigvals_op)
BRASA_REGISTER_KERNEL(linalg_eigvals_op, eigvals_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_eigvals_op, eigvals_kernel<false>, Meta)

}  // namespace brasa::ops

namespace brasa {

std::tuple<Tensor, Tensor> linalg_eig(const Tensor& A) { return ops::linalg_eig_op().call(A); }
Tensor linalg_eigvals(const Tensor& A) { return ops::linalg_eigvals_op().call(A); }

}  // namespace brasa
