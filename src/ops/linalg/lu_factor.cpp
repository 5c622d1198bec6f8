// linalg_lu_factor_ex: getrf on each matrix of an [..., m, n] batch. LU is column-major (as
// LAPACK writes it and PyTorch returns it), pivots int32 [..., min(m, n)] (1-based, LAPACK's),
// info int32 [...] (i > 0: U[i-1, i-1] is zero). A template over kRun: the Meta build checks the
// arguments and returns the shapes (Note [Meta functions]).
#include "ops/linalg/lapack_batch.h"
#include "ops/linalg/lu_factor_ops.h"

namespace brasa::ops {
namespace {

using namespace linalg_detail;  // NOLINT

template <bool kRun>
std::tuple<Tensor, Tensor, Tensor> lu_factor_ex_kernel(const Tensor& A, bool pivot,
                                                       bool check_errors) {
  const char* op = "linalg.lu_factor_ex";
  check_matrix(op, A);
  BRASA_CHECK_NOT_IMPLEMENTED(pivot, op, ": LU without pivoting is not implemented on the CPU");
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  DimVector pivot_shape = batch_sizes(A);
  pivot_shape.push_back(k);
  Tensor pivots = detail::empty_generic(pivot_shape, kInt, A.device());
  Tensor info = detail::empty_generic(batch_sizes(A), kInt, A.device());
  if constexpr (!kRun) {
    return {empty_column_major(A.sizes(), A.dtype(), A.device()), pivots, info};
  } else {
    Tensor lu = column_major_copy(A);
    const int64_t batch = product(batch_sizes(A));
    int* piv = pivots.data_ptr<int>();
    int* infos = info.data_ptr<int>();
    for (int64_t b = 0; b < batch; ++b) infos[b] = 0;
    if (k > 0 && batch > 0) {
      dispatch_floating(A.dtype(), [&](auto zero) {
        using T = decltype(zero);
        T* data = lu.data_ptr<T>();
        for_each_matrix(batch, m * n * k, [&](int64_t b) {
          infos[b] =
              cpu::lapack::getrf<T>(as_int(m), as_int(n), data + b * m * n, ld(m), piv + b * k);
        });
      });
    }
    for (int64_t b = 0; b < batch; ++b) {
      if (infos[b] < 0) throw_bad_argument(op, "getrf", infos[b]);
      BRASA_CHECK_LINALG(!check_errors || infos[b] == 0, op, ": ", which_matrix(A, b), ": U[",
                         infos[b] - 1, ",", infos[b] - 1, "] is zero (a singular matrix)");
    }
    return {lu, pivots, info};
  }
}

}  // namespace

BRASA_DEFINE_OP(linalg_lu_factor_ex_op)
BRASA_REGISTER_KERNEL(linalg_lu_factor_ex_op, lu_factor_ex_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_lu_factor_ex_op, lu_factor_ex_kernel<false>, Meta)

}  // namespace brasa::ops
