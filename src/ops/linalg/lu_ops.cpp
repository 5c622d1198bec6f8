// inv, solve, det and slogdet: one LU factorisation (getrf) per matrix. Each kernel is a template
// over kRun: the Meta build checks the arguments and returns the result's shape, the CPU build
// then fills it (Note [Meta functions]).
#include <cmath>

#include "backends/cpu/tensor_iterator.h"
#include "brasa/ops/linalg_decomp.h"
#include "ops/linalg/decomp_ops.h"
#include "ops/linalg/lapack_batch.h"

namespace brasa::ops {
namespace {

using namespace linalg_detail;  // NOLINT

[[noreturn]] void throw_singular(const char* op, const Tensor& A, int64_t b, int info) {
  BRASA_THROW(RuntimeError, op, ": ", which_matrix(A, b), " is singular (U[", info - 1, ", ",
              info - 1, "] of its LU factorisation is zero); expected an invertible matrix");
}

template <bool kRun>
Tensor inv_kernel(const Tensor& A) {
  check_square("linalg.inv", A);
  if constexpr (!kRun) {
    return empty_column_major(A.sizes(), A.dtype(), A.device());
  } else {
    Tensor r = column_major_copy(A);
    const int64_t n = A.size(-1), batch = product(batch_sizes(A));
    if (n == 0 || batch == 0) return r;
    std::vector<int> infos(batch);
    dispatch_floating(A.dtype(), [&](auto zero) {
      using T = decltype(zero);
      T* data = r.data_ptr<T>();
      for_each_matrix(batch, n * n * n, [&](int64_t b) {
        std::vector<int> ipiv(n);
        T* a = data + b * n * n;
        int info = cpu::lapack::getrf<T>(as_int(n), as_int(n), a, ld(n), ipiv.data());
        if (info == 0) info = cpu::lapack::getri<T>(as_int(n), a, ld(n), ipiv.data());
        infos[b] = info;
      });
    });
    auto [b, info] = first_failure(infos);
    if (info < 0) throw_bad_argument("linalg.inv", "getrf/getri", info);
    if (info > 0) throw_singular("linalg.inv", A, b, info);
    return r;
  }
}

// Note [Vector right-hand sides]: like PyTorch, B is a batch of vectors when it is 1-D or when
// its shape is A's without the last dim; it then solves as a one-column matrix.
bool is_vector_rhs(const Tensor& A, const Tensor& B) {
  if (B.dim() == 1) return true;
  return B.dim() == A.dim() - 1 && B.sizes() == IntArrayRef(A.sizes().begin(), A.sizes().end() - 1);
}

// X with A X = B (left) or X A = B; batch dims broadcast.
template <bool kRun>
Tensor solve_kernel(const Tensor& A, const Tensor& B, bool left) {
  const char* op = "linalg.solve";
  check_square(op, A);
  BRASA_CHECK(B.defined() && B.dim() >= 1, op, ": B must have at least 1 dimension");
  BRASA_CHECK_TYPE(A.dtype() == B.dtype(), op, ": A and B must have the same dtype, got ",
                   A.dtype(), " and ", B.dtype());
  const bool vector = is_vector_rhs(A, B);
  // Solve Am X = Bm with Am = A (left) or A^T (right, on transposed B and X).
  Tensor Am = left ? A : A.transpose(-2, -1);
  Tensor Bm = vector ? B.unsqueeze(-1) : (left ? B : B.transpose(-2, -1));
  const int64_t n = A.size(-1);
  BRASA_CHECK(Bm.size(-2) == n, op, ": incompatible shapes of A ", A.sizes(), " and B ", B.sizes(),
              " (", left ? "A @ X = B" : "X @ A = B", ")");
  const DimVector batch = cpu::broadcast_shapes(batch_sizes(Am), batch_sizes(Bm), "linalg.solve");
  DimVector a_shape = batch, x_shape = batch;
  a_shape.push_back(n);
  a_shape.push_back(n);
  x_shape.push_back(n);
  x_shape.push_back(Bm.size(-1));
  // The result as the caller sees it: X (left) or X^T's transpose, the vector dim dropped.
  auto present = [&](const Tensor& X) {
    if (vector) return X.squeeze(-1);
    return left ? X : X.transpose(-2, -1);
  };
  if constexpr (!kRun) {
    return present(empty_column_major(x_shape, A.dtype(), A.device()));
  } else {
    Tensor lu = column_major_copy(Am.expand(a_shape));
    Tensor X = column_major_copy(Bm.expand(x_shape));
    const int64_t k = Bm.size(-1), count = product(batch);
    if (n == 0 || k == 0 || count == 0) return present(X);
    std::vector<int> infos(count);
    dispatch_floating(A.dtype(), [&](auto zero) {
      using T = decltype(zero);
      T* a_data = lu.data_ptr<T>();
      T* x_data = X.data_ptr<T>();
      for_each_matrix(count, n * n * (n + k), [&](int64_t b) {
        std::vector<int> ipiv(n);
        T* a = a_data + b * n * n;
        int info = cpu::lapack::getrf<T>(as_int(n), as_int(n), a, ld(n), ipiv.data());
        if (info == 0)
          info = cpu::lapack::getrs<T>('N', as_int(n), as_int(k), a, ld(n), ipiv.data(),
                                       x_data + b * n * k, ld(n));
        infos[b] = info;
      });
    });
    auto [b, info] = first_failure(infos);
    if (info < 0) throw_bad_argument(op, "getrf/getrs", info);
    if (info > 0) throw_singular(op, A.expand(a_shape), b, info);
    return present(X);
  }
}

// The LU factors' diagonal and the permutation's parity give the determinant: sign and log|det|
// (slogdet) or the product (det). Singular matrices give 0 (det) or sign 0 and -inf.
template <class T, class F>
void lu_determinants(const Tensor& A, const F& store) {
  const int64_t n = A.size(-1), batch = product(batch_sizes(A));
  if (batch == 0) return;
  Tensor lu = column_major_copy(A);
  T* data = lu.data_ptr<T>();
  for_each_matrix(batch, n * n * n, [&](int64_t b) {
    std::vector<int> ipiv(n);
    T* a = data + b * n * n;
    // info > 0 (a zero pivot) still completes the factorisation: the determinant is 0.
    if (n > 0) cpu::lapack::getrf<T>(as_int(n), as_int(n), a, ld(n), ipiv.data());
    T sign = 1, logabs = 0;
    for (int64_t i = 0; i < n; ++i) {
      const T u = a[i * n + i];
      if (ipiv[i] != i + 1) sign = -sign;
      if (u < 0) sign = -sign;
      if (u == 0) sign = 0;
      logabs += std::log(std::abs(u));
    }
    store(b, sign, logabs, a);
  });
}

template <bool kRun>
Tensor det_kernel(const Tensor& A) {
  check_square("linalg.det", A);
  Tensor r = detail::empty_generic(batch_sizes(A), A.dtype(), A.device());
  if constexpr (kRun) {
    dispatch_floating(A.dtype(), [&](auto zero) {
      using T = decltype(zero);
      T* out = r.data_ptr<T>();
      const int64_t n = A.size(-1);
      lu_determinants<T>(A, [&](int64_t b, T sign, T, const T* a) {
        // The product of the pivots (not exp(logabs)): exact for integer-valued matrices.
        T det = sign == 0 ? T(0) : T(1);
        for (int64_t i = 0; i < n && det != 0; ++i) det *= a[i * n + i];
        if (n > 0 && det != 0) det = std::abs(det) * (sign < 0 ? T(-1) : T(1));
        out[b] = det;
      });
    });
  }
  return r;
}

template <bool kRun>
std::tuple<Tensor, Tensor> slogdet_kernel(const Tensor& A) {
  check_square("linalg.slogdet", A);
  Tensor sign = detail::empty_generic(batch_sizes(A), A.dtype(), A.device());
  Tensor logabs = detail::empty_generic(batch_sizes(A), A.dtype(), A.device());
  if constexpr (kRun) {
    dispatch_floating(A.dtype(), [&](auto zero) {
      using T = decltype(zero);
      T* s = sign.data_ptr<T>();
      T* l = logabs.data_ptr<T>();
      lu_determinants<T>(A, [&](int64_t b, T sg, T la, const T*) {
        s[b] = sg;
        l[b] = la;
      });
    });
  }
  return {sign, logabs};
}

}  // namespace

BRASA_DEFINE_OP(linalg_inv_op)
BRASA_REGISTER_KERNEL(linalg_inv_op, inv_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_inv_op, inv_kernel<false>, Meta)
BRASA_DEFINE_OP(linalg_solve_op)
BRASA_REGISTER_KERNEL(linalg_solve_op, solve_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_solve_op, solve_kernel<false>, Meta)
BRASA_DEFINE_OP(linalg_det_op)
BRASA_REGISTER_KERNEL(linalg_det_op, det_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_det_op, det_kernel<false>, Meta)
BRASA_DEFINE_OP(linalg_slogdet_op)
BRASA_REGISTER_KERNEL(linalg_slogdet_op, slogdet_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_slogdet_op, slogdet_kernel<false>, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor linalg_inv(const Tensor& A) { return ops::linalg_inv_op().call(A); }
Tensor linalg_solve(const Tensor& A, const Tensor& B, bool left) {
  return ops::linalg_solve_op().call(A, B, left);
}
Tensor linalg_det(const Tensor& A) { return ops::linalg_det_op().call(A); }
std::tuple<Tensor, Tensor> linalg_slogdet(const Tensor& A) {
  return ops::linalg_slogdet_op().call(A);
}

}  // namespace brasa
