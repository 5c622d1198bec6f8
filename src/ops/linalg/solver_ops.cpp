// Solvers and matrix measures composed from linalg_solve, linalg_inv, svdvals, eigvalsh, qr and
// svd: solve_triangular, triangular_solve, cholesky_solve / cholesky_inverse, tensorinv /
// tensorsolve, matrix_rank, cond and the older qr / svd forms.
#include <limits>

#include "backends/cpu/tensor_iterator.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/complex.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/linalg_decomp.h"
#include "brasa/ops/linalg_solvers.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/view.h"

namespace brasa {
namespace {

void check_at_least_2d(const Tensor& t, const char* op, const char* name) {
  BRASA_CHECK(t.dim() >= 2, op, ": The input tensor ", name, " must have at least 2 dimensions, ",
              "got ", t.sizes());
}

void check_square(const Tensor& t, const char* op, const char* name) {
  check_at_least_2d(t, op, name);
  BRASA_CHECK(t.size(-1) == t.size(-2), op, ": ", name, " must be batches of square matrices, ",
              "but they are ", t.size(-2), " by ", t.size(-1), " matrices");
}

/// B expanded to the batch dims it shares with A by broadcasting (so that linalg_solve never takes
/// it for a batch of vectors).
Tensor broadcast_rhs(const Tensor& A, const Tensor& B, const char* op) {
  const auto batch =
      cpu::broadcast_shapes(A.sizes().slice(0, A.dim() - 2), B.sizes().slice(0, B.dim() - 2), op);
  std::vector<int64_t> shape(batch.begin(), batch.end());
  shape.insert(shape.end(), {B.size(-2), B.size(-1)});
  return B.expand(shape);
}

/// The triangle of A that a triangular solve reads, with ones on the diagonal when unitriangular.
Tensor triangle(const Tensor& A, bool upper, bool unitriangular) {
  if (!unitriangular) return upper ? triu(A) : tril(A);
  const Tensor strict = upper ? triu(A, 1) : tril(A, -1);
  return strict.add(eye(A.size(-1), A.options()));
}

/// The triangle of a Cholesky factor with libtorch's derivative, which treats the factor as a
/// full matrix: the values of the triangle, the gradient of every element.
Tensor factor_as_full(const Tensor& L, bool upper) {
  const Tensor off = L.sub(upper ? triu(L) : tril(L)).detach();
  return L.sub(off);
}

double epsilon(ScalarType t) {
  return t == kDouble ? std::numeric_limits<double>::epsilon()
                      : std::numeric_limits<float>::epsilon();
}

}  // namespace

Tensor linalg_solve_triangular(const Tensor& A, const Tensor& B, bool upper, bool left,
                               bool unitriangular) {
  check_square(A, "linalg.solve_triangular", "A");
  check_at_least_2d(B, "linalg.solve_triangular", "B");
  return linalg_solve(triangle(A, upper, unitriangular),
                      broadcast_rhs(A, B, "linalg.solve_triangular"), left);
}

std::tuple<Tensor, Tensor> triangular_solve(const Tensor& self, const Tensor& A, bool upper,
                                            bool transpose, bool unitriangular) {
  check_at_least_2d(self, "triangular_solve", "b");
  check_square(A, "triangular_solve", "A");
  const Tensor T = triangle(A, upper, unitriangular);
  const Tensor X =
      linalg_solve(transpose ? T.transpose(-2, -1) : T, broadcast_rhs(A, self, "triangular_solve"));
  std::vector<int64_t> a_shape(X.sizes().begin(), X.sizes().end() - 2);
  a_shape.insert(a_shape.end(), {A.size(-2), A.size(-1)});
  return {X, A.expand(a_shape).clone()};
}

Tensor cholesky_solve(const Tensor& self, const Tensor& input2, bool upper) {
  check_at_least_2d(self, "cholesky_solve", "b");
  check_square(input2, "cholesky_solve", "A");
  const Tensor L = factor_as_full(input2, upper);
  const Tensor A = upper ? matmul(L.transpose(-2, -1), L) : matmul(L, L.transpose(-2, -1));
  return linalg_solve(A, broadcast_rhs(A, self, "cholesky_solve"));
}

Tensor cholesky_inverse(const Tensor& self, bool upper) {
  check_square(self, "cholesky_inverse", "input");
  const Tensor L = factor_as_full(self, upper);
  return linalg_inv(upper ? matmul(L.transpose(-2, -1), L) : matmul(L, L.transpose(-2, -1)));
}

Tensor linalg_tensorinv(const Tensor& self, int64_t ind) {
  BRASA_CHECK(ind > 0, "linalg.tensorinv: Expected a strictly positive integer for 'ind', but got ",
              ind);
  BRASA_CHECK(ind <= self.dim(), "linalg.tensorinv: 'ind' (", ind, ") exceeds the number of ",
              "dims of self ", self.sizes());
  std::vector<int64_t> result(self.sizes().begin() + ind, self.sizes().end());
  int64_t rows = 1, cols = 1;
  for (int64_t i = 0; i < self.dim(); ++i) (i < ind ? rows : cols) *= self.size(i);
  BRASA_CHECK(rows == cols, "linalg.tensorinv: Expected self to satisfy the requirement ",
              "prod(self.shape[ind:]) == prod(self.shape[:ind]), but got ", cols, " != ", rows);
  result.insert(result.end(), self.sizes().begin(), self.sizes().begin() + ind);
  return linalg_inv(self.reshape({rows, cols})).reshape(result);
}

Tensor linalg_tensorsolve(const Tensor& self, const Tensor& other, OptionalIntArrayRef dims) {
  Tensor A = self;
  if (dims) {
    std::vector<int64_t> destination;
    const auto k = static_cast<int64_t>(dims->size());
    for (int64_t i = 0; i < k; ++i) destination.push_back(self.dim() - k + i);
    A = movedim(self, *dims, destination);
  }
  BRASA_CHECK(other.dim() <= A.dim(), "linalg.tensorsolve: other ", other.sizes(),
              " has more dims than self ", A.sizes());
  std::vector<int64_t> result(A.sizes().begin() + other.dim(), A.sizes().end());
  int64_t cols = 1;
  for (int64_t s : result) cols *= s;
  const int64_t rows = other.numel();
  BRASA_CHECK(rows == cols, "linalg.tensorsolve: Expected self to satisfy the requirement ",
              "prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), but got ", cols,
              " != ", rows);
  return linalg_solve(A.reshape({rows, cols}), other.reshape({rows})).reshape(result);
}

Tensor linalg_matrix_rank(const Tensor& input, const std::optional<Tensor>& atol,
                          const std::optional<Tensor>& rtol, bool hermitian) {
  check_at_least_2d(input, "linalg.matrix_rank", "A");
  const TensorOptions dbl = TensorOptions(kDouble);
  const Tensor a = atol ? *atol : zeros({}, dbl);
  Tensor r;
  if (rtol) {
    r = *rtol;
  } else {
    const Tensor fallback =
        full({}, epsilon(input.dtype()) * std::max(input.size(-1), input.size(-2)), dbl);
    r = atol ? where(atol->gt(0), zeros({}, dbl), fallback) : fallback;
  }
  std::vector<int64_t> batch(input.sizes().begin(), input.sizes().end() - 2);
  if (std::min(input.size(-1), input.size(-2)) == 0) return zeros(batch, kLong);
  const Tensor S =
      hermitian ? abs(linalg_eigvalsh(input.detach())) : linalg_svdvals(input.detach());
  const Tensor largest = amax(S, {-1}, true);
  const Tensor tol =
      maximum(a.to(S.device()).unsqueeze(-1), r.to(S.device()).unsqueeze(-1).mul(largest));
  return sum(S.gt(tol), {-1});
}

Tensor linalg_matrix_rank(const Tensor& input, const Tensor& tol, bool hermitian) {
  return linalg_matrix_rank(input, std::optional<Tensor>(tol),
                            std::optional<Tensor>(zeros({}, kDouble)), hermitian);
}

Tensor linalg_matrix_rank(const Tensor& self, std::optional<double> atol,
                          std::optional<double> rtol, bool hermitian) {
  const auto as_tensor = [](std::optional<double> v) -> std::optional<Tensor> {
    if (!v) return std::nullopt;
    return full({}, *v, kDouble);
  };
  return linalg_matrix_rank(self, as_tensor(atol), as_tensor(rtol), hermitian);
}

Tensor linalg_matrix_rank(const Tensor& self, double tol, bool hermitian) {
  return linalg_matrix_rank(self, std::optional<double>(tol), std::optional<double>(0.0),
                            hermitian);
}

Tensor linalg_cond(const Tensor& self, const std::optional<Scalar>& p) {
  check_at_least_2d(self, "linalg.cond", "A");
  const double ord = p ? p->to<double>() : 2.0;
  const double inf = std::numeric_limits<double>::infinity();
  if (ord == 2 || ord == -2) {
    const Tensor S = linalg_svdvals(self);
    const int64_t k = S.size(-1);
    const Tensor first = S.narrow(-1, 0, 1).squeeze(-1), last = S.narrow(-1, k - 1, 1).squeeze(-1);
    return ord == 2 ? first.div(last) : last.div(first);
  }
  BRASA_CHECK(ord == 1 || ord == -1 || ord == inf || ord == -inf, "linalg.cond got an invalid ",
              "norm type: ", ord);
  check_square(self, "linalg.cond", "A");
  const Scalar s(ord);
  return linalg_matrix_norm(self, s).mul(linalg_matrix_norm(linalg_inv(self), s));
}

Tensor linalg_cond(const Tensor& self, std::string_view p) {
  BRASA_CHECK(p == "fro" || p == "nuc", "linalg.cond got an invalid norm type: ", p);
  check_square(self, "linalg.cond", "A");
  return linalg_matrix_norm(self, p).mul(linalg_matrix_norm(linalg_inv(self), p));
}

std::tuple<Tensor, Tensor> symeig(const Tensor& self, bool eigenvectors, bool upper) {
  if (!eigenvectors) return {linalg_eigvalsh(self, upper ? "U" : "L"), empty({0}, self.options())};
  return linalg_eigh(self, upper ? "U" : "L");
}

std::tuple<Tensor, Tensor> qr(const Tensor& self, bool some) {
  return linalg_qr(self, some ? "reduced" : "complete");
}

std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& self, bool some, bool compute_uv) {
  check_at_least_2d(self, "svd", "input");
  if (!compute_uv) {
    std::vector<int64_t> u(self.sizes().begin(), self.sizes().end() - 1), v = u;
    u.push_back(self.size(-2));
    v.back() = self.size(-1);
    v.push_back(self.size(-1));
    return {zeros(u, self.options()), linalg_svdvals(self), zeros(v, self.options())};
  }
  auto [U, S, Vh] = linalg_svd(self, !some);
  const Tensor V = Vh.transpose(-2, -1);
  return {U, S, self.is_complex() ? conj(V) : V};
}

}  // namespace brasa
