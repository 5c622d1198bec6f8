// histogramdd (brasa/ops/statistics.h): the bin of each point along each dim by searchsorted in
// that dim's edges, one linear bin index per point, and index_add of the weights. Not
// differentiable: computed without grad (libtorch records a node that refuses to differentiate).
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/statistics.h"
#include "brasa/ops/view.h"

namespace brasa {
namespace {

constexpr const char* kOp = "torch.histogramdd";

// self as [points, N], after the checks every form shares.
Tensor points_of(const Tensor& self) {
  BRASA_CHECK(self.defined(), kOp, ": got an undefined tensor");
  BRASA_CHECK_TYPE(is_floating_type(self.scalar_type()), kOp,
                   ": input tensor must be of a floating dtype, got ", self.scalar_type());
  BRASA_CHECK(self.dim() >= 2, kOp, ": input tensor should have at least 2 dimensions, got ",
              self.dim());
  return self.reshape({-1, self.size(-1)});
}

// The bin of each value of x (1-D) in `edges` (the last edge closes the last bin), -1 outside.
Tensor bin_index(const Tensor& x, const Tensor& edges) {
  const int64_t nbins = edges.numel() - 1;
  Tensor pos = searchsorted(edges, x.contiguous(), false, true) - 1;
  pos = where(x.eq(edges[nbins]), full_like(pos, nbins - 1), pos);
  Tensor inside = logical_and(x.ge(edges[0]), x.le(edges[nbins]));
  return where(inside, pos, full_like(pos, -1));
}

std::tuple<Tensor, std::vector<Tensor>> histogram_with_edges(const Tensor& self,
                                                             const Tensor& points,
                                                             std::vector<Tensor> edges,
                                                             const std::optional<Tensor>& weight,
                                                             bool density) {
  const bool weighted = weight.has_value() && weight->defined();
  if (weighted) {
    BRASA_CHECK_TYPE(weight->scalar_type() == self.scalar_type(), kOp,
                     ": weight must have the input's dtype ", self.scalar_type(), ", got ",
                     weight->scalar_type());
    BRASA_CHECK(weight->sizes().equals(self.sizes().slice(0, size_t(self.dim() - 1))), kOp,
                ": weight must have the input's shape without its last dim, got input ",
                self.sizes(), " and weight ", weight->sizes());
  }
  const int64_t n = int64_t(edges.size());
  std::vector<int64_t> shape;
  Tensor linear = zeros({points.size(0)}, points.options().dtype(kLong));
  Tensor valid = ones({points.size(0)}, points.options().dtype(kBool));
  for (int64_t d = 0; d < n; ++d) {
    const int64_t nbins = edges[size_t(d)].numel() - 1;
    Tensor idx = bin_index(points.select(1, d), edges[size_t(d)]);
    valid = logical_and(valid, idx.ge(0));
    linear = linear * nbins + idx;
    shape.push_back(nbins);
  }
  int64_t total = 1;
  for (int64_t s : shape) total *= s;
  Tensor keep = linear.masked_select(valid);
  Tensor w = weighted ? weight->reshape({-1}).masked_select(valid)
                      : ones({keep.numel()}, points.options());
  Tensor hist = zeros({total}, points.options()).index_add(0, keep, w).reshape(shape);
  if (density) {
    Tensor volume = ones({}, points.options());
    for (int64_t d = 0; d < n; ++d) {
      std::vector<int64_t> view(size_t(n), 1);
      view[size_t(d)] = shape[size_t(d)];
      volume = volume * diff(edges[size_t(d)]).view(view);
    }
    hist = hist / (hist.sum() * volume);
  }
  return {hist, std::move(edges)};
}

// Edges of `bins[d]` equal bins over range [lo_d, hi_d], or the data's range (widened by 0.5 on
// each side when it is one point; [0, 1] without points).
std::vector<Tensor> uniform_edges(const Tensor& points, IntArrayRef bins,
                                  OptionalArrayRef<double> range) {
  const int64_t n = points.size(1);
  BRASA_CHECK(int64_t(bins.size()) == n, kOp, ": expected ", n,
              " bin counts (one per dim of the points), got ", bins.size());
  if (range) {
    BRASA_CHECK(int64_t(range->size()) == 2 * n, kOp, ": for a ", n,
                "-dimensional histogram range should have ", 2 * n, " elements, but got ",
                range->size());
  }
  std::vector<Tensor> edges;
  for (int64_t d = 0; d < n; ++d) {
    BRASA_CHECK(bins[size_t(d)] > 0, kOp, ": bins must be > 0, but got ", bins[size_t(d)],
                " for dimension ", d);
    double lo = 0, hi = 1;
    if (range) {
      lo = (*range)[size_t(2 * d)];
      hi = (*range)[size_t(2 * d + 1)];
    } else if (points.size(0) > 0) {
      Tensor col = points.select(1, d);
      lo = col.min().item<double>();
      hi = col.max().item<double>();
    }
    BRASA_CHECK(std::isfinite(lo) && std::isfinite(hi), kOp, ": dimension ", d, "'s range [", lo,
                ", ", hi, "] is not finite");
    BRASA_CHECK(lo <= hi, kOp, ": min should not exceed max, but got min ", lo, " max ", hi,
                " for dimension ", d);
    if (lo == hi) {
      lo -= 0.5;
      hi += 0.5;
    }
    edges.push_back(linspace(lo, hi, bins[size_t(d)] + 1, points.options()));
  }
  return edges;
}

}  // namespace

std::tuple<Tensor, std::vector<Tensor>> histogramdd(const Tensor& self, IntArrayRef bins,
                                                    OptionalArrayRef<double> range,
                                                    const std::optional<Tensor>& weight,
                                                    bool density) {
  NoGradGuard no_grad;
  Tensor points = points_of(self);
  return histogram_with_edges(self, points, uniform_edges(points, bins, range), weight, density);
}
std::tuple<Tensor, std::vector<Tensor>> histogramdd(const Tensor& self, int64_t bins,
                                                    OptionalArrayRef<double> range,
                                                    const std::optional<Tensor>& weight,
                                                    bool density) {
  NoGradGuard no_grad;
  Tensor points = points_of(self);
  const std::vector<int64_t> per_dim(size_t(points.size(1)), bins);
  return histogram_with_edges(self, points, uniform_edges(points, per_dim, range), weight, density);
}
std::tuple<Tensor, std::vector<Tensor>> histogramdd(const Tensor& self, TensorList bins,
                                                    OptionalArrayRef<double> range,
                                                    const std::optional<Tensor>& weight,
                                                    bool density) {
  NoGradGuard no_grad;
  Tensor points = points_of(self);
  const int64_t n = points.size(1);
  BRASA_CHECK(int64_t(bins.size()) == n, kOp, ": expected ", n,
              " bin edge tensors (one per dim of the points), got ", bins.size());
  std::vector<Tensor> edges;
  for (int64_t d = 0; d < n; ++d) {
    const Tensor& e = bins[size_t(d)];
    BRASA_CHECK(e.defined() && e.dim() == 1 && e.numel() >= 1, kOp, ": bins for dimension ", d,
                " must be a 1-D tensor of at least 1 edge, got ",
                e.defined() ? e.sizes() : IntArrayRef());
    BRASA_CHECK_TYPE(e.scalar_type() == self.scalar_type(), kOp,
                     ": input tensor and bins tensors should have the same dtype, but got input "
                     "with dtype ",
                     self.scalar_type(), " and bins for dimension ", d, " with dtype ",
                     e.scalar_type());
    edges.push_back(e.clone());
  }
  (void)range;  // edges given: range is ignored, as in libtorch
  return histogram_with_edges(self, points, std::move(edges), weight, density);
}

}  // namespace brasa
