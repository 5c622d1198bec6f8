// The matrix functions composed of others (no kernel or derivative of their own): vector,
// matrix and general norms, logdet. Their gradients come from the ops they call.
#include <limits>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/autocast_mode.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/linalg_decomp.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "ops/linalg/lapack_batch.h"

namespace brasa {
namespace {

using ops::linalg_detail::check_matrix;

DimVector all_dims(const Tensor& A) {
  DimVector d;
  for (int64_t i = 0; i < A.dim(); ++i) d.push_back(i);
  return d;
}

// The two matrix dims, wrapped and distinct.
std::pair<int64_t, int64_t> matrix_dims(const Tensor& A, IntArrayRef dim, const char* op) {
  BRASA_CHECK(dim.size() == 2, op, ": dim must hold 2 dims, got ", dim.size());
  BRASA_CHECK(A.dim() >= 2, op, ": A must have at least 2 dimensions, got ", A.dim());
  const int64_t d0 = detail::wrap_dim(dim[0], A.dim(), op);
  const int64_t d1 = detail::wrap_dim(dim[1], A.dim(), op);
  BRASA_CHECK(d0 != d1, op, ": dims must be different, got ", dim[0], " and ", dim[1]);
  return {d0, d1};
}

Tensor with_dtype(const Tensor& A, std::optional<ScalarType> dtype) {
  return dtype && *dtype != A.dtype() ? A.to(*dtype) : A;
}

// A reduction of the singular values (ord 2, -2, nuc) over the matrix dims d0, d1.
template <class F>
Tensor singular_value_norm(const Tensor& A, int64_t d0, int64_t d1, bool keepdim, const F& reduce) {
  Tensor r = reduce(linalg_svdvals(A.movedim({d0, d1}, {-2, -1})));
  if (keepdim) {
    r = r.unsqueeze(std::min(d0, d1)).unsqueeze(std::max(d0, d1));
  }
  return r;
}

}  // namespace

Tensor linalg_vector_norm(const Tensor& A, const Scalar& ord, OptionalIntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> dtype) {
  const Tensor x = with_dtype(A, dtype);
  DimVector dims;
  if (dim)
    for (int64_t d : *dim) dims.push_back(d);
  else
    dims = all_dims(x);
  return norm(x, ord, dims, keepdim);
}

Tensor linalg_matrix_norm(const Tensor& A, const Scalar& ord, IntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> dtype) {
  if (BRASA_UNLIKELY(autocast::is_active())) {  // Note [Autocast]: a float32 op
    autocast::AutocastExclude exclude;
    return linalg_matrix_norm(autocast::cached_cast(kFloat, A), ord, dim, keepdim, dtype);
  }
  const char* op = "linalg.matrix_norm";
  const Tensor x = with_dtype(A, dtype);
  check_matrix(op, x);
  auto [d0, d1] = matrix_dims(x, dim, op);
  const double p = ord.toDouble();
  const double inf = std::numeric_limits<double>::infinity();
  BRASA_CHECK(p == 1 || p == -1 || p == 2 || p == -2 || p == inf || p == -inf, op,
              ": ord must be one of 'fro', 'nuc', inf, -inf, 1, -1, 2, -2; got ", p);
  if (p == 2 || p == -2) {
    return singular_value_norm(
        x, d0, d1, keepdim, [&](const Tensor& s) { return p > 0 ? s.amax({-1}) : s.amin({-1}); });
  }
  // 1: the largest column sum of |x| (sum over rows d0, then over columns d1); inf: rows.
  const bool columns = p == 1 || p == -1;
  const int64_t sum_dim = columns ? d0 : d1, pick_dim = columns ? d1 : d0;
  Tensor sums = abs(x).sum(IntArrayRef{sum_dim}, true);
  Tensor r = p > 0 ? sums.amax({pick_dim}, true) : sums.amin({pick_dim}, true);
  return keepdim ? r : r.squeeze(std::max(d0, d1)).squeeze(std::min(d0, d1));
}

Tensor linalg_matrix_norm(const Tensor& A, std::string_view ord, IntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> dtype) {
  if (BRASA_UNLIKELY(autocast::is_active())) {  // Note [Autocast]: a float32 op
    autocast::AutocastExclude exclude;
    return linalg_matrix_norm(autocast::cached_cast(kFloat, A), ord, dim, keepdim, dtype);
  }
  const char* op = "linalg.matrix_norm";
  const Tensor x = with_dtype(A, dtype);
  check_matrix(op, x);
  auto [d0, d1] = matrix_dims(x, dim, op);
  if (ord == "fro") return norm(x, Scalar(2), DimVector{d0, d1}, keepdim);
  BRASA_CHECK(ord == "nuc", op, ": ord must be 'fro' or 'nuc' (or a number), got '", ord, "'");
  return singular_value_norm(x, d0, d1, keepdim, [](const Tensor& s) { return s.sum({-1}); });
}

Tensor linalg_norm(const Tensor& A, const std::optional<Scalar>& ord, OptionalIntArrayRef dim,
                   bool keepdim, std::optional<ScalarType> dtype) {
  const char* op = "linalg.norm";
  if (dim) {
    BRASA_CHECK(dim->size() == 1 || dim->size() == 2, op, ": dim must hold 1 or 2 dims, got ",
                dim->size());
    if (dim->size() == 1) return linalg_vector_norm(A, ord.value_or(2), dim, keepdim, dtype);
    if (ord) return linalg_matrix_norm(A, *ord, *dim, keepdim, dtype);
    return linalg_matrix_norm(A, "fro", *dim, keepdim, dtype);
  }
  if (ord) {
    BRASA_CHECK(A.dim() == 1 || A.dim() == 2, op,
                ": with ord and no dim, A must be 1-D or 2-D, got ", A.dim(), "-D");
    if (A.dim() == 1) return linalg_vector_norm(A, *ord, std::nullopt, keepdim, dtype);
    return linalg_matrix_norm(A, *ord, {-2, -1}, keepdim, dtype);
  }
  return linalg_vector_norm(A, 2, std::nullopt, keepdim, dtype);
}

Tensor linalg_norm(const Tensor& A, std::string_view ord, OptionalIntArrayRef dim, bool keepdim,
                   std::optional<ScalarType> dtype) {
  const char* op = "linalg.norm";
  if (dim) return linalg_matrix_norm(A, ord, *dim, keepdim, dtype);
  BRASA_CHECK(A.dim() == 2, op, ": ord '", ord, "' without dim needs a 2-D A, got ", A.dim(), "-D");
  return linalg_matrix_norm(A, ord, {-2, -1}, keepdim, dtype);
}

Tensor logdet(const Tensor& A) {
  auto [sign, logabs] = linalg_slogdet(A);
  return logabs + log(sign);
}

}  // namespace brasa
