// geqrf (LAPACK, per matrix of the batch; a template over kRun for the Meta build, Note [Meta
// functions]) and the products of its reflectors (householder_product / orgqr, ormqr), written
// with matmul: Q H_i = Q - tau_i (Q v_i) v_i^T.
#include "brasa/ops/householder.h"

#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"
#include "ops/linalg/householder_ops.h"
#include "ops/linalg/lapack_batch.h"

namespace brasa::ops {
namespace {

using namespace linalg_detail;  // NOLINT

template <bool kRun>
std::tuple<Tensor, Tensor> geqrf_kernel(const Tensor& A) {
  check_matrix("geqrf", A, "input");
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  DimVector tau_shape = batch_sizes(A);
  tau_shape.push_back(k);
  Tensor tau = detail::empty_generic(tau_shape, A.dtype(), A.device());
  if constexpr (!kRun) {
    return {empty_column_major(A.sizes(), A.dtype(), A.device()), tau};
  } else {
    Tensor a = column_major_copy(A);
    const int64_t batch = product(batch_sizes(A));
    if (k == 0 || batch == 0) return {a, tau};
    std::vector<int> infos(batch);
    dispatch_floating(A.dtype(), [&](auto zero) {
      using T = decltype(zero);
      T* data = a.data_ptr<T>();
      T* t = tau.data_ptr<T>();
      for_each_matrix(batch, m * n * k, [&](int64_t b) {
        infos[b] = cpu::lapack::geqrf<T>(as_int(m), as_int(n), data + b * m * n, ld(m), t + b * k);
      });
    });
    auto [b, info] = first_failure(infos);
    if (info != 0) throw_bad_argument("geqrf", "geqrf", info);
    return {a, tau};
  }
}

}  // namespace

BRASA_DEFINE_OP(geqrf_op)
BRASA_REGISTER_KERNEL(geqrf_op, geqrf_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(geqrf_op, geqrf_kernel<false>, Meta)

}  // namespace brasa::ops

namespace brasa {
namespace {

/// H_1 ... H_k [..., m, m] from the vectors below the diagonal of input [..., m, n] and tau.
Tensor reflector_product(const Tensor& input, const Tensor& tau, const char* op) {
  BRASA_CHECK(input.dim() >= 2, op, ": input must have at least 2 dimensions, got ", input.sizes());
  BRASA_CHECK(input.dim() - tau.dim() == 1, op, ": input.dim() - tau.dim() must be 1, got ",
              input.sizes(), " and ", tau.sizes());
  BRASA_CHECK(IntArrayRef(input.sizes().begin(), input.sizes().end() - 2) ==
                  IntArrayRef(tau.sizes().begin(), tau.sizes().end() - 1),
              op, ": batch dims of input ", input.sizes(), " and tau ", tau.sizes(),
              " must be equal");
  BRASA_CHECK(input.size(-1) >= tau.size(-1), op, ": input.shape[-1] must be greater than or ",
              "equal to tau.shape[-1], got ", input.sizes(), " and ", tau.sizes());
  BRASA_CHECK_TYPE(input.dtype() == tau.dtype(), op, ": tau dtype ", tau.dtype(),
                   " does not match input dtype ", input.dtype());
  ops::linalg_detail::check_matrix(op, input, "input");
  const int64_t m = input.size(-2), k = tau.size(-1);
  const Tensor V = tril(input, -1).add(eye(m, input.size(-1), input.options()));
  std::vector<int64_t> shape(input.sizes().begin(), input.sizes().end() - 1);
  shape.push_back(m);
  Tensor Q = eye(m, input.options()).expand(shape);
  for (int64_t i = 0; i < k; ++i) {
    const Tensor v = V.narrow(-1, i, 1);
    const Tensor t = tau.narrow(-1, i, 1).unsqueeze(-1);
    Q = Q.sub(matmul(matmul(Q, v).mul(t), v.transpose(-2, -1)));
  }
  return Q;
}

}  // namespace

std::tuple<Tensor, Tensor> geqrf(const Tensor& self) { return ops::geqrf_op().call(self); }

Tensor linalg_householder_product(const Tensor& input, const Tensor& tau) {
  const char* op = "torch.linalg.householder_product";
  BRASA_CHECK(input.dim() < 2 || input.size(-2) >= input.size(-1), op,
              ": input.shape[-2] must be greater than or equal to input.shape[-1], got ",
              input.sizes());
  const Tensor Q = reflector_product(input, tau, op).narrow(-1, 0, input.size(-1));
  if (tau.size(-1) > 0) return Q;
  // No reflectors: the identity, as a copy into input's clone so that it depends on input (with a
  // zero gradient), as in libtorch.
  Tensor result = input.clone();
  result.copy_(Q);
  return result;
}

Tensor orgqr(const Tensor& self, const Tensor& input2) {
  return linalg_householder_product(self, input2);
}

Tensor ormqr(const Tensor& self, const Tensor& input2, const Tensor& input3, bool left,
             bool transpose) {
  const char* op = "torch.ormqr";
  const Tensor Q = reflector_product(self, input2, op);
  BRASA_CHECK(input3.dim() >= 2, op, ": other must have at least 2 dimensions, got ",
              input3.sizes());
  const int64_t m = self.size(-2);
  BRASA_CHECK(input3.size(left ? -2 : -1) == m, op, ": other ", input3.sizes(),
              " does not fit the ", m, " x ", m, " Q of input ", self.sizes());
  const Tensor opQ = transpose ? Q.transpose(-2, -1) : Q;
  return left ? matmul(opQ, input3) : matmul(input3, opQ);
}

}  // namespace brasa
