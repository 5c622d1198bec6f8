// Indexing built from gather, index_put and scatter_reduce (take_along_dim, put, index_reduce,
// argwhere) and index producers computed on the CPU (tril_indices, triu_indices, range, vander).
#include <cmath>
#include <string>

#include "backends/cpu/tensor_iterator.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/shaping.h"
#include "brasa/ops/tensor_data.h"
#include "brasa/ops/view.h"

namespace brasa {
namespace {

std::vector<int64_t> with_size(IntArrayRef sizes, int64_t dim, int64_t size) {
  std::vector<int64_t> out(sizes.begin(), sizes.end());
  out[dim] = size;
  return out;
}

/// t as a factory's result: options' device and requires_grad, the given dtype.
Tensor on(const Tensor& t, ScalarType dtype, const TensorOptions& options) {
  Tensor r = t.to(options.device(), dtype);
  if (options.requires_grad()) r.set_requires_grad(true);
  return r;
}

/// [2, count] coordinates (row-major) of the entries of a row x col matrix that `keep(r, c)`.
template <typename Keep>
Tensor triangle_indices(int64_t row, int64_t col, const TensorOptions& options, const char* op,
                        Keep keep) {
  BRASA_CHECK(row >= 0, op, ": row must be non-negative, got ", row);
  BRASA_CHECK(col >= 0, op, ": col must be non-negative, got ", col);
  std::vector<int64_t> rows, cols;
  for (int64_t r = 0; r < row; ++r) {
    for (int64_t c = 0; c < col; ++c) {
      if (keep(r, c)) {
        rows.push_back(r);
        cols.push_back(c);
      }
    }
  }
  rows.insert(rows.end(), cols.begin(), cols.end());
  const int64_t n = static_cast<int64_t>(cols.size());
  return on(detail::tensor_from_array(rows.data(), 2 * n, kLong).view({2, n}),
            options.has_dtype() ? options.dtype() : kLong, options);
}

}  // namespace

Tensor argwhere(const Tensor& self) { return nonzero(self); }

std::vector<Tensor> nonzero_numpy(const Tensor& self) {
  // A 0-d self counts as 1-d, as in libtorch.
  return nonzero(self.dim() == 0 ? self.unsqueeze(0) : self).unbind(1);
}

Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim) {
  BRASA_CHECK_TYPE(indices.dtype() == kLong, "torch.take_along_dim(): dtype of indices should ",
                   "be Long but got ", indices.dtype());
  // Without dim both are viewed flat (libtorch's view: a non-viewable input raises).
  if (!dim) return self.view({-1}).gather(0, indices.view({-1}));
  BRASA_CHECK(self.dim() == indices.dim(), "torch.take_along_dim(): input and indices should ",
              "have the same number of dimensions, but got ", self.dim(),
              " dimensions for input, and ", indices.dim(), " dimensions for indices");
  const int64_t d = detail::wrap_dim(*dim, self.dim(), "take_along_dim");
  // Every dim but d broadcasts; along d, indices keeps its length and self its own.
  const auto shape = cpu::broadcast_shapes(with_size(self.sizes(), d, indices.size(d)),
                                           indices.sizes(), "take_along_dim");
  const std::vector<int64_t> index_shape(shape.begin(), shape.end());
  return self.expand(with_size(index_shape, d, self.size(d)))
      .gather(d, indices.expand(index_shape));
}

Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  BRASA_CHECK_TYPE(index.dtype() == kLong, "put_(): Expected a long tensor for index, but got ",
                   index.dtype());
  BRASA_CHECK_TYPE(self.dtype() == source.dtype(), "put_(): self and source expected to have ",
                   "the same dtype, but got self.dtype = ", self.dtype(),
                   " and source.dtype = ", source.dtype());
  BRASA_CHECK(index.numel() == source.numel(), "put_(): Expected source and index to have the ",
              "same number of elements, but got source.numel() = ", source.numel(),
              ", index.numel() = ", index.numel());
  if (index.numel() == 0) return self.clone();
  BRASA_CHECK_INDEX(self.numel() > 0, "put_(): Tried to indexing on an empty tensor");
  const Tensor flat = self.reshape({-1});
  return index_put(flat, {index.reshape({-1})}, source.reshape({-1}), accumulate)
      .view(self.sizes());
}

Tensor index_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                    std::string_view reduce, bool include_self) {
  BRASA_CHECK(reduce == "prod" || reduce == "mean" || reduce == "amax" || reduce == "amin",
              "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got ",
              reduce, ".");
  const int64_t d = detail::wrap_dim(dim, std::max<int64_t>(self.dim(), 1), "index_reduce");
  BRASA_CHECK_INDEX(index.dim() <= 1, "index_reduce_(): Index is supposed to be a vector, got ",
                    index.sizes());
  BRASA_CHECK_TYPE(index.dtype() == kLong || index.dtype() == kInt,
                   "index_reduce_(): Expected dtype int32/int64 for index but got ", index.dtype());
  BRASA_CHECK_TYPE(self.dtype() == source.dtype(), "index_reduce_(): self (", self.dtype(),
                   ") and source (", source.dtype(), ") must have the same scalar type");
  BRASA_CHECK(self.dim() == source.dim(), "index_reduce_(): Self and source should have same ",
              "number of dimensions, got ", self.sizes(), " and ", source.sizes());
  const int64_t n = source.dim() == 0 ? 1 : source.size(d);
  BRASA_CHECK_INDEX(index.numel() == n, "index_reduce_(): Number of indices (", index.numel(),
                    ") should be equal to source.size(dim) (", n, ")");
  if (self.dim() == 0) {
    return scatter_reduce(self.reshape({1}), 0, index.reshape({1}).to(kLong), source.reshape({1}),
                          reduce, include_self)
        .reshape({});
  }
  std::vector<int64_t> shape(self.dim(), 1);
  shape[d] = n;
  const Tensor idx = index.to(kLong).reshape(shape).expand(source.sizes());
  return scatter_reduce(self, d, idx, source, reduce, include_self);
}

Tensor tril_indices(int64_t row, int64_t col, int64_t offset, const TensorOptions& options) {
  return triangle_indices(row, col, options, "tril_indices",
                          [offset](int64_t r, int64_t c) { return c - r <= offset; });
}

Tensor triu_indices(int64_t row, int64_t col, int64_t offset, const TensorOptions& options) {
  return triangle_indices(row, col, options, "triu_indices",
                          [offset](int64_t r, int64_t c) { return c - r >= offset; });
}

Tensor range(const Scalar& start, const Scalar& end, const Scalar& step,
             const TensorOptions& options) {
  const ScalarType dtype = options.dtype();
  const double s = start.to<double>(), e = end.to<double>(), st = step.to<double>();
  BRASA_CHECK(st != 0, "range: step must be nonzero");
  BRASA_CHECK(std::isfinite(s) && std::isfinite(e), "range: unsupported range: ", s, " -> ", e);
  BRASA_CHECK((st > 0 && e >= s) || (st < 0 && e <= s),
              "range: upper bound and larger bound inconsistent with step sign");
  const auto size = static_cast<int64_t>((e - s) / st) + 1;
  // libtorch computes start + i * step in double (int64 for integral dtypes), then casts.
  if (is_integral_type(dtype, /*include_bool=*/true)) {
    return on(arange(size, kLong).mul(step.to<int64_t>()).add(start.to<int64_t>()), dtype, options);
  }
  return on(arange(size, kDouble).mul(st).add(s), dtype, options);
}

Tensor range(const Scalar& start, const Scalar& end, const TensorOptions& options) {
  return range(start, end, 1, options);
}

Tensor vander(const Tensor& x, std::optional<int64_t> N, bool increasing) {
  BRASA_CHECK(x.dim() == 1, "vander: x must be a one-dimensional tensor, got ", x.sizes());
  const int64_t n = N.value_or(x.size(0));
  BRASA_CHECK(n >= 0, "vander: N must be non-negative, got ", n);
  const Tensor xs = x.to(promote_types(x.dtype(), kLong));
  Tensor out = ones({x.size(0), std::min<int64_t>(n, 1)}, xs.options());
  if (n > 1) out = cat({out, cumprod(xs.unsqueeze(1).expand({x.size(0), n - 1}), 1)}, 1);
  return increasing ? out : flip(out, {1});
}

}  // namespace brasa
