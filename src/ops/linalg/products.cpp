// Products written with mm, matmul, mul and sum: kron, inner, tensordot, vdot, addbmm, addr,
// chain_matmul, linalg_multi_dot, cross / linalg_cross, linalg_vecdot, linalg_matmul and
// linalg_diagonal. Autograd differentiates them through those ops.
#include "brasa/ops/products.h"

#include "backends/cpu/tensor_iterator.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/complex.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/view.h"

namespace brasa {
namespace {

std::vector<int64_t> padded(IntArrayRef sizes, int64_t n) {
  std::vector<int64_t> out(n - static_cast<int64_t>(sizes.size()), 1);
  out.insert(out.end(), sizes.begin(), sizes.end());
  return out;
}

}  // namespace

Tensor kron(const Tensor& self, const Tensor& other) {
  const int64_t n = std::max(self.dim(), other.dim());
  const auto a = padded(self.sizes(), n), b = padded(other.sizes(), n);
  // self as [a0, 1, a1, 1, ...] times other as [1, b0, 1, b1, ...], then merge each pair.
  std::vector<int64_t> a_view, b_view, result;
  for (int64_t i = 0; i < n; ++i) {
    a_view.insert(a_view.end(), {a[i], 1});
    b_view.insert(b_view.end(), {1, b[i]});
    result.push_back(a[i] * b[i]);
  }
  return self.reshape(a_view).mul(other.reshape(b_view)).reshape(result);
}

Tensor tensordot(const Tensor& self, const Tensor& other, IntArrayRef dims_self,
                 IntArrayRef dims_other) {
  BRASA_CHECK(dims_self.size() == dims_other.size(), "tensordot: both dimension lists should ",
              "have same length, got ", dims_self, " and ", dims_other);
  Tensor a = self, b = other;
  std::vector<bool> contracted_a(self.dim()), contracted_b(other.dim());
  std::vector<int64_t> da, db;
  for (size_t i = 0; i < dims_self.size(); ++i) {
    const int64_t d1 = detail::wrap_dim(dims_self[i], self.dim(), "tensordot");
    const int64_t d2 = detail::wrap_dim(dims_other[i], other.dim(), "tensordot");
    const int64_t s1 = a.size(d1), s2 = b.size(d2);
    if (s1 != s2) {
      // A size-1 dim broadcasts: the other operand is summed over its dim first.
      BRASA_CHECK(s1 == 1 || s2 == 1, "tensordot: contracted dimensions need to match, but ",
                  "first has size ", s1, " in dim ", d1, " and second has size ", s2, " in dim ",
                  d2);
      if (s2 == 1) a = sum(a, {d1}, true).to(self.dtype());
      if (s1 == 1) b = sum(b, {d2}, true).to(other.dtype());
    }
    BRASA_CHECK(!contracted_a[d1] && !contracted_b[d2], "tensordot: dim ", d1, " or ", d2,
                " appears multiple times in the list of dims");
    contracted_a[d1] = contracted_b[d2] = true;
    da.push_back(d1);
    db.push_back(d2);
  }
  std::vector<int64_t> perm_a, perm_b = db, result;
  int64_t m = 1, k = 1, n = 1;
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (contracted_a[d]) continue;
    perm_a.push_back(d);
    result.push_back(a.size(d));
    m *= a.size(d);
  }
  for (int64_t d : da) k *= a.size(d);
  perm_a.insert(perm_a.end(), da.begin(), da.end());
  for (int64_t d = 0; d < b.dim(); ++d) {
    if (contracted_b[d]) continue;
    perm_b.push_back(d);
    result.push_back(b.size(d));
    n *= b.size(d);
  }
  return mm(a.permute(perm_a).reshape({m, k}), b.permute(perm_b).reshape({k, n})).reshape(result);
}

Tensor inner(const Tensor& self, const Tensor& other) {
  if (self.dim() == 0 || other.dim() == 0) return self.mul(other);
  BRASA_CHECK(self.size(-1) == other.size(-1), "inner() the last dimension must match on both ",
              "input tensors but got shapes ", self.sizes(), " and ", other.sizes());
  return tensordot(self, other, {-1}, {-1});
}

Tensor vdot(const Tensor& self, const Tensor& other) {
  BRASA_CHECK(self.dim() == 1 && other.dim() == 1, "vdot: 1D tensors expected, but got ",
              self.dim(), "D and ", other.dim(), "D tensors");
  BRASA_CHECK_TYPE(self.dtype() == other.dtype(), "vdot : expected both vectors to have same ",
                   "dtype, but found ", self.dtype(), " and ", other.dtype());
  return dot(self.is_complex() ? conj(self) : self, other);
}

Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
              const Scalar& alpha) {
  BRASA_CHECK(batch1.dim() == 3, "addbmm: batch1 must be a 3D tensor, got ", batch1.sizes());
  BRASA_CHECK(batch2.dim() == 3, "addbmm: batch2 must be a 3D tensor, got ", batch2.sizes());
  BRASA_CHECK(batch1.size(0) == batch2.size(0), "addbmm: batch1 and batch2 must have same ",
              "number of batches, got ", batch1.size(0), " and ", batch2.size(0));
  BRASA_CHECK(batch1.size(2) == batch2.size(1), "addbmm: Incompatible matrix sizes for bmm (",
              batch1.size(1), "x", batch1.size(2), " and ", batch2.size(1), "x", batch2.size(2),
              ")");
  // sum_b batch1[b] @ batch2[b] is one product of [n, b*m] and [b*m, p].
  const int64_t b = batch1.size(0), n = batch1.size(1), m = batch1.size(2);
  return addmm(self, batch1.permute({1, 0, 2}).reshape({n, b * m}),
               batch2.reshape({b * m, batch2.size(2)}), beta, alpha);
}

Tensor addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta,
            const Scalar& alpha) {
  BRASA_CHECK(vec1.dim() == 1, "addr: Expected 1-d argument vec1, but got ", vec1.dim(), "-d");
  BRASA_CHECK(vec2.dim() == 1, "addr: Expected 1-d argument vec2, but got ", vec2.dim(), "-d");
  const Tensor self_e = self.expand({vec1.size(0), vec2.size(0)});
  Tensor product = outer(vec1, vec2);
  if (alpha.to<double>() != 1) product = product.mul(alpha);
  // beta == 0 ignores self's values (NaN included), not its dtype; self's gradient is zero.
  if (beta.to<double>() == 0) {
    return where(zeros(self_e.sizes(), TensorOptions(kBool).device(self.device())), self_e,
                 Scalar(0))
        .add(product);
  }
  return (beta.to<double>() == 1 ? self_e : self_e.mul(beta)).add(product);
}

Tensor linalg_multi_dot(TensorList tensors) {
  const size_t n = tensors.size();
  BRASA_CHECK(n >= 2, "multi_dot(): expected at least 2 tensors but got ", n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t d = tensors[i].dim();
    if (i == 0 || i == n - 1) {
      BRASA_CHECK(d == 1 || d == 2, "multi_dot(): the ", i == 0 ? "first" : "last",
                  " tensor must be 1D or 2D but got ", d, "D");
    } else {
      BRASA_CHECK(d == 2, "multi_dot(): tensor ", i, " must be 2D but got ", d, "D");
    }
    BRASA_CHECK_TYPE(tensors[i].dtype() == tensors[0].dtype(), "multi_dot(): all tensors must ",
                     "have be the same dtype but tensor 0 is ", tensors[0].dtype(), " and tensor ",
                     i, " ", tensors[i].dtype());
  }
  const bool row = tensors[0].dim() == 1, column = tensors[n - 1].dim() == 1;
  Tensor result = row ? tensors[0].unsqueeze(0) : tensors[0];
  for (size_t i = 1; i < n; ++i) {
    const Tensor next = i == n - 1 && column ? tensors[i].unsqueeze(1) : tensors[i];
    BRASA_CHECK(result.size(1) == next.size(0), "multi_dot(): tensors ", i - 1, " and ", i,
                " with shapes ", tensors[i - 1].sizes(), " and ", tensors[i].sizes(),
                " cannot be multiplied");
    result = mm(result, next);
  }
  if (column) result = result.squeeze(1);
  return row ? result.squeeze(0) : result;
}

Tensor chain_matmul(TensorList matrices) {
  BRASA_CHECK(!matrices.empty(), "chain_matmul(): Expected one or more matrices");
  for (const Tensor& m : matrices) {
    BRASA_CHECK(m.dim() == 2, "chain_matmul: Tensor dimension is ", m.dim(),
                ", expected 2 instead.");
  }
  return matrices.size() == 1 ? matrices[0].clone() : linalg_multi_dot(matrices);
}

Tensor linalg_cross(const Tensor& self, const Tensor& other, int64_t dim) {
  BRASA_CHECK(self.dim() == other.dim(), "linalg.cross: inputs must have the same number of ",
              "dimensions, got ", self.sizes(), " and ", other.sizes());
  const int64_t d = detail::wrap_dim(dim, self.dim(), "linalg.cross");
  BRASA_CHECK(self.size(d) == 3 && other.size(d) == 3, "linalg.cross: inputs dimension ", dim,
              " must have length 3. Got ", self.size(d), " and ", other.size(d));
  const auto shape = cpu::broadcast_shapes(self.sizes(), other.sizes(), "linalg.cross");
  const Tensor a = self.expand(shape), b = other.expand(shape);
  // (a x b)_i = a_{i+1} b_{i+2} - a_{i+2} b_{i+1}, indices mod 3.
  const TensorOptions index = TensorOptions(kLong).device(a.device());
  const Tensor next = arange(1, 4, index).remainder(3), after = arange(2, 5, index).remainder(3);
  return a.index_select(d, next)
      .mul(b.index_select(d, after))
      .sub(a.index_select(d, after).mul(b.index_select(d, next)));
}

Tensor cross(const Tensor& self, const Tensor& other, std::optional<int64_t> dim) {
  if (dim) return linalg_cross(self, other, *dim);
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.size(d) == 3) return linalg_cross(self, other, d);
  }
  BRASA_THROW(ValueError, "cross: no dimension of size 3 in input ", self.sizes());
}

Tensor linalg_vecdot(const Tensor& x, const Tensor& y, int64_t dim) {
  BRASA_CHECK_TYPE(x.dtype() == y.dtype(), "linalg.vecdot: Expected x and y to have the same ",
                   "dtype, but found x of type ", x.dtype(), " and y of type ", y.dtype(),
                   " instead");
  BRASA_CHECK_TYPE(x.is_floating_point() || x.is_complex(), "linalg.vecdot: Expected a floating ",
                   "point or complex tensor as input. Got ", x.dtype());
  return sum((x.is_complex() ? conj(x) : x).mul(y), {dim});
}

Tensor linalg_matmul(const Tensor& self, const Tensor& other) { return matmul(self, other); }

Tensor linalg_diagonal(const Tensor& A, int64_t offset, int64_t dim1, int64_t dim2) {
  return diagonal(A, offset, dim1, dim2);
}

}  // namespace brasa
