// The order statistics, NaN-ignoring reductions, histograms and numerical calculus of
// brasa/ops/statistics.h, written as compositions of sort, gather, sums and pointwise ops (as
// PyTorch defines most of them), so that their gradients come from their parts: a selection
// (median, kthvalue, mode, quantile) gathers from sort's values, whose gradient scatters back to
// the chosen elements. cummax/cummin/logcumsumexp have kernels (cumulative_ops.cpp).
#include "brasa/ops/statistics.h"

#include <cmath>
#include <limits>
#include <string>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/composite_out.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/view.h"

namespace brasa {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void check_defined(const char* op, const Tensor& t) {
  BRASA_CHECK(t.defined(), op, ": got an undefined tensor");
}

// ---- selections along one dim ----
// (values, indices) at the given positions (int64, keepdim shape) of self sorted along d.
std::tuple<Tensor, Tensor> select_sorted(const Tensor& self, int64_t d, const Tensor& pos,
                                         bool keepdim) {
  auto [sorted, order] = sort(self, d);
  Tensor values = sorted.gather(d, pos), indices = order.gather(d, pos);
  if (!keepdim) {
    values = values.squeeze(d);
    indices = indices.squeeze(d);
  }
  return {values, indices};
}

// Shared front of median/nanmedian/kthvalue/mode: the dim wrapped; 0-d inputs are their own
// selection.
struct Selection {
  int64_t dim;
  bool scalar;
};
Selection start_selection(const char* op, const Tensor& self, int64_t dim) {
  check_defined(op, self);
  BRASA_CHECK_TYPE(!self.is_complex(), op, ": complex inputs are not supported, got ",
                   self.scalar_type());
  const int64_t d = detail::wrap_dim(dim, std::max<int64_t>(self.dim(), 1), op);
  return {d, self.dim() == 0};
}

std::tuple<Tensor, Tensor> median_impl(const char* op, const Tensor& self, int64_t dim,
                                       bool keepdim, bool ignore_nan) {
  const Selection s = start_selection(op, self, dim);
  if (s.scalar) return {self.clone(), zeros({}, self.options().dtype(kLong))};
  const int64_t d = s.dim, n = self.size(d);
  if (self.numel() == 0) {
    BRASA_CHECK_INDEX(n > 0, op, ": Expected reduction dim ", d, " to have non-zero size");
    auto sizes = self.sizes().vec();
    if (keepdim)
      sizes[size_t(d)] = 1;
    else
      sizes.erase(sizes.begin() + d);
    return {empty(sizes, self.options()), empty(sizes, self.options().dtype(kLong))};
  }
  Tensor pos;
  {
    NoGradGuard no_grad;
    Tensor nans = isnan(self).sum({d}, true);
    if (ignore_nan) {
      // The lower median of the non-NaN values; position 0 (a NaN) where all are NaN.
      pos = ((-nans + n - 1).div(2, "floor")).clamp_min(0);
    } else {
      // A row with NaN selects its first NaN (sort puts them last, in their original order).
      pos = where(nans.gt(0), -nans + n, full_like(nans, (n - 1) / 2));
    }
  }
  return select_sorted(self, d, pos, keepdim);
}

Tensor whole_median(const char* op, const Tensor& self, bool ignore_nan) {
  check_defined(op, self);
  if (self.numel() == 0) return full({}, kNaN, self.options());
  return std::get<0>(median_impl(op, self.reshape({-1}), 0, false, ignore_nan));
}

}  // namespace

Tensor median(const Tensor& self) { return whole_median("median", self, false); }
std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim) {
  return median_impl("median", self, dim, keepdim, false);
}
Tensor nanmedian(const Tensor& self) { return whole_median("nanmedian", self, true); }
std::tuple<Tensor, Tensor> nanmedian(const Tensor& self, int64_t dim, bool keepdim) {
  return median_impl("nanmedian", self, dim, keepdim, true);
}

namespace {
std::tuple<Tensor&, Tensor&> write_pair(Tensor& values, Tensor& indices,
                                        std::tuple<Tensor, Tensor> r, const char* op) {
  BRASA_CHECK(!std::get<0>(r).requires_grad(), op,
              ": functions with out=... arguments don't support automatic differentiation, but "
              "one of the arguments requires grad");
  BRASA_CHECK_TYPE(values.scalar_type() == std::get<0>(r).scalar_type(), op,
                   ": expected values of dtype ", std::get<0>(r).scalar_type(), ", got ",
                   values.scalar_type());
  BRASA_CHECK_TYPE(indices.scalar_type() == kLong, op, ": expected indices of dtype Long, got ",
                   indices.scalar_type());
  values.resize_(std::get<0>(r).sizes());
  indices.resize_(std::get<1>(r).sizes());
  values.copy_(std::get<0>(r));
  indices.copy_(std::get<1>(r));
  return {values, indices};
}
}  // namespace

std::tuple<Tensor&, Tensor&> median_out(Tensor& values, Tensor& indices, const Tensor& self,
                                        int64_t dim, bool keepdim) {
  return write_pair(values, indices, median(self, dim, keepdim), "median");
}
std::tuple<Tensor&, Tensor&> nanmedian_out(Tensor& values, Tensor& indices, const Tensor& self,
                                           int64_t dim, bool keepdim) {
  return write_pair(values, indices, nanmedian(self, dim, keepdim), "nanmedian");
}

std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  const Selection s = start_selection("kthvalue", self, dim);
  const int64_t n = s.scalar ? 1 : self.size(s.dim);
  BRASA_CHECK_INDEX(k >= 1 && k <= n, "kthvalue: selected number k out of range for dimension ",
                    s.dim, ": expected 1 <= k <= ", n, ", got k = ", k);
  if (s.scalar) return {self.clone(), zeros({}, self.options().dtype(kLong))};
  auto sizes = self.sizes().vec();
  sizes[size_t(s.dim)] = 1;
  return select_sorted(self, s.dim, full(sizes, k - 1, self.options().dtype(kLong)), keepdim);
}
std::tuple<Tensor&, Tensor&> kthvalue_out(Tensor& values, Tensor& indices, const Tensor& self,
                                          int64_t k, int64_t dim, bool keepdim) {
  return write_pair(values, indices, kthvalue(self, k, dim, keepdim), "kthvalue");
}

// The longest run of equal values in each sorted row: run lengths grow along a run, so the first
// maximum is at the end of the smallest most-frequent value's run, and (sort being stable) at its
// last occurrence in the input.
std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim, bool keepdim) {
  const Selection s = start_selection("mode", self, dim);
  if (s.scalar) return {self.clone(), zeros({}, self.options().dtype(kLong))};
  const int64_t d = s.dim, n = self.size(d);
  BRASA_CHECK_INDEX(n > 0, "mode: expected reduction dim ", d, " to have non-zero size");
  Tensor pos;
  {
    NoGradGuard no_grad;
    Tensor sorted = std::get<0>(sort(self, d));
    Tensor steps = arange(n, self.options().dtype(kLong));
    std::vector<int64_t> shape(size_t(self.dim()), 1);
    shape[size_t(d)] = n;
    steps = steps.view(shape).expand(self.sizes());
    // A run starts where a value differs from the one before it.
    Tensor starts_run = ones(self.sizes(), self.options().dtype(kBool));
    if (n > 1)
      starts_run.narrow(d, 1, n - 1)
          .copy_(sorted.narrow(d, 1, n - 1).ne(sorted.narrow(d, 0, n - 1)));
    Tensor run_start = std::get<0>(cummax(where(starts_run, steps, zeros_like(steps)), d));
    pos = argmax(steps - run_start, d, true);
  }
  return select_sorted(self, d, pos, keepdim);
}

// ---- quantile ----
namespace {

enum class Interpolation { Linear, Lower, Higher, Midpoint, Nearest };

Interpolation parse_interpolation(const char* op, std::string_view s) {
  if (s == "linear") return Interpolation::Linear;
  if (s == "lower") return Interpolation::Lower;
  if (s == "higher") return Interpolation::Higher;
  if (s == "midpoint") return Interpolation::Midpoint;
  if (s == "nearest") return Interpolation::Nearest;
  BRASA_THROW(ValueError, op,
              ": interpolation must be one of linear, lower, higher, midpoint or nearest, got '",
              std::string(s), "'");
}

Tensor quantile_impl(const char* op, const Tensor& self, const Tensor& q,
                     std::optional<int64_t> dim, bool keepdim, std::string_view interpolation,
                     bool ignore_nan) {
  check_defined(op, self);
  check_defined(op, q);
  BRASA_CHECK_TYPE(self.scalar_type() == kFloat || self.scalar_type() == kDouble, op,
                   ": input tensor must be either float or double dtype, got ", self.scalar_type());
  BRASA_CHECK_TYPE(q.scalar_type() == self.scalar_type(), op,
                   ": q tensor must be same dtype as the input tensor, got ", q.scalar_type(),
                   " and ", self.scalar_type());
  BRASA_CHECK(q.dim() <= 1, op, ": q must be a scalar or 1D tensor, got ", q.dim(), "-D");
  BRASA_CHECK(self.numel() > 0, op, ": input tensor must be non-empty");
  const Interpolation mode = parse_interpolation(op, interpolation);
  {
    NoGradGuard no_grad;
    BRASA_CHECK(q.numel() == 0 || logical_and(q.ge(0), q.le(1)).all().item<bool>(), op,
                ": q values must be in the range [0, 1]");
  }
  // Sorted rows along the last dim: [R..., n].
  Tensor rows;
  int64_t d = 0;
  if (dim) {
    d = detail::wrap_dim(*dim, std::max<int64_t>(self.dim(), 1), op);
    rows = self.dim() == 0 ? self.reshape({1}) : self.movedim(d, -1);
  } else {
    rows = self.reshape({-1});
  }
  const int64_t n = rows.size(-1);
  Tensor sorted = std::get<0>(sort(rows, -1));
  Tensor qs = q.reshape({-1});
  const int64_t nq = qs.size(0);
  std::vector<int64_t> rank_shape{nq};
  for (int64_t i = 0; i < rows.dim(); ++i) rank_shape.push_back(1);
  // The rank of each q in each row ([Q, R..., 1]); the weights of linear interpolation depend on
  // q, so q gets a gradient through them (as in PyTorch).
  Tensor last, has_nan;
  {
    NoGradGuard no_grad;
    Tensor nans = isnan(sorted).sum({-1}, true);
    last = (ignore_nan ? -nans + (n - 1) : full_like(nans, n - 1)).to(self.scalar_type());
    has_nan = ignore_nan ? nans.eq(n) : nans.gt(0);
  }
  Tensor rank = qs.view(rank_shape) * last.clamp_min(0);
  if (mode == Interpolation::Nearest) rank = rank.round();
  Tensor lo, hi;
  {
    NoGradGuard no_grad;
    lo = rank.floor();
    hi = rank.ceil();
    if (mode == Interpolation::Lower) hi = lo;
    if (mode == Interpolation::Higher) lo = hi;
  }
  Tensor weight = rank - lo;
  if (mode == Interpolation::Midpoint)
    weight = where(hi.gt(lo), full_like(lo, 0.5), zeros_like(lo));
  lo = lo.to(kLong);
  hi = hi.to(kLong);
  std::vector<int64_t> expanded{nq};
  for (int64_t s : sorted.sizes()) expanded.push_back(s);
  Tensor source = sorted.unsqueeze(0).expand(expanded);
  std::vector<int64_t> idx_shape = expanded;
  idx_shape.back() = 1;
  Tensor v_lo = source.gather(-1, lo.expand(idx_shape));
  Tensor v_hi = source.gather(-1, hi.expand(idx_shape));
  Tensor r = lerp(v_lo, v_hi, weight.expand(idx_shape));
  r = where(has_nan.expand(idx_shape), full_like(r, kNaN), r).squeeze(-1);  // [Q, R...]
  if (keepdim) {
    if (dim) {
      if (self.dim() > 0) r = r.unsqueeze(d + 1);
    } else {
      std::vector<int64_t> ones_shape{nq};
      for (int64_t i = 0; i < self.dim(); ++i) ones_shape.push_back(1);
      r = r.reshape(ones_shape);
    }
  }
  return q.dim() == 0 ? r.squeeze(0) : r;
}

Tensor scalar_q(const Tensor& self, double q) {
  return scalar_tensor(q, self.defined() ? self.options() : TensorOptions());
}

}  // namespace

Tensor quantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                std::string_view interpolation) {
  return quantile_impl("quantile", self, q, dim, keepdim, interpolation, false);
}
Tensor quantile(const Tensor& self, double q, std::optional<int64_t> dim, bool keepdim,
                std::string_view interpolation) {
  return quantile_impl("quantile", self, scalar_q(self, q), dim, keepdim, interpolation, false);
}
Tensor nanquantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                   std::string_view interpolation) {
  return quantile_impl("nanquantile", self, q, dim, keepdim, interpolation, true);
}
Tensor nanquantile(const Tensor& self, double q, std::optional<int64_t> dim, bool keepdim,
                   std::string_view interpolation) {
  return quantile_impl("nanquantile", self, scalar_q(self, q), dim, keepdim, interpolation, true);
}

// ---- NaN-ignoring and paired reductions ----
namespace {
IntArrayRef dims_or_all(OptionalIntArrayRef dim) { return dim ? *dim : IntArrayRef(); }
}  // namespace

Tensor nansum(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
              std::optional<ScalarType> dtype) {
  check_defined("nansum", self);
  BRASA_CHECK_TYPE(!self.is_complex(), "nansum: complex inputs are not supported, got ",
                   self.scalar_type());
  Tensor x =
      is_floating_type(self.scalar_type()) ? where(isnan(self), zeros_like(self), self) : self;
  return sum(x, dims_or_all(dim), keepdim, dtype);
}
Tensor nanmean(const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
               std::optional<ScalarType> dtype) {
  check_defined("nanmean", self);
  BRASA_CHECK_TYPE(is_floating_type(self.scalar_type()),
                   "nanmean: expected input to have floating point dtype but got ",
                   self.scalar_type());
  Tensor count = logical_not(isnan(self)).sum(dims_or_all(dim), keepdim);
  return nansum(self, dim, keepdim, dtype) / count;
}

std::tuple<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  check_defined("aminmax", self);
  if (!dim) {
    BRASA_CHECK(self.numel() > 0,
                "aminmax(): cannot compute aminmax over an empty dimension as the operation has "
                "no identity");
    Tensor lo = amin(self), hi = amax(self);
    if (keepdim) {
      std::vector<int64_t> ones_shape(size_t(self.dim()), 1);
      lo = lo.reshape(ones_shape);
      hi = hi.reshape(ones_shape);
    }
    return {lo, hi};
  }
  const int64_t d = *dim;
  return {amin(self, IntArrayRef(d), keepdim), amax(self, IntArrayRef(d), keepdim)};
}

std::tuple<Tensor, Tensor> var_mean(const Tensor& self, bool unbiased) {
  return {var(self, unbiased), mean(self)};
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptionalIntArrayRef dim, bool unbiased,
                                    bool keepdim) {
  return var_mean(self, dim, std::optional<int64_t>(unbiased ? 1 : 0), keepdim);
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptionalIntArrayRef dim,
                                    std::optional<int64_t> correction, bool keepdim) {
  return {var(self, dim, correction, keepdim), mean(self, dims_or_all(dim), keepdim)};
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, bool unbiased) {
  return {std(self, unbiased), mean(self)};
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptionalIntArrayRef dim, bool unbiased,
                                    bool keepdim) {
  return std_mean(self, dim, std::optional<int64_t>(unbiased ? 1 : 0), keepdim);
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptionalIntArrayRef dim,
                                    std::optional<int64_t> correction, bool keepdim) {
  return {std(self, dim, correction, keepdim), mean(self, dims_or_all(dim), keepdim)};
}

// ---- histograms ----
namespace {

void check_histogram_input(const char* op, const Tensor& self) {
  check_defined(op, self);
  BRASA_CHECK_TYPE(is_floating_type(self.scalar_type()), op,
                   ": input tensor and bins must be of floating point dtype, got ",
                   self.scalar_type());
}

// The bin of each element by the edges (the last edge closes the last bin), -1 outside.
Tensor bin_of(const Tensor& x, const Tensor& edges) {
  const int64_t nbins = edges.numel() - 1;
  Tensor pos = searchsorted(edges, x.reshape({-1}).contiguous(), false, true) - 1;
  pos = where(x.reshape({-1}).eq(edges[nbins]), full_like(pos, nbins - 1), pos);
  Tensor inside = logical_and(x.reshape({-1}).ge(edges[0]), x.reshape({-1}).le(edges[nbins]));
  return where(inside, pos, full_like(pos, -1));
}

// Sums of weights (ones when undefined) per bin, in `dtype`.
Tensor bin_sums(const Tensor& bins, int64_t nbins, const Tensor& weight, ScalarType dtype) {
  Tensor keep = bins.ge(0);
  Tensor idx = bins.masked_select(keep);
  Tensor w = weight.defined() ? weight.reshape({-1}).to(dtype).masked_select(keep)
                              : ones({idx.numel()}, bins.options().dtype(dtype));
  return zeros({nbins}, bins.options().dtype(dtype)).index_add(0, idx, w);
}

// The data's range, widened by 1 on each side when it is a single point (as PyTorch does).
std::pair<double, double> data_range(const char* op, const Tensor& self, double lo, double hi) {
  if (lo == hi && self.numel() > 0) {
    lo = self.min().item<double>();
    hi = self.max().item<double>();
  }
  BRASA_CHECK(std::isfinite(lo) && std::isfinite(hi), op, ": range of [", lo, ", ", hi,
              "] is not finite");
  BRASA_CHECK(lo <= hi, op, ": max must be larger than min, got min ", lo, " and max ", hi);
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  return {lo, hi};
}

}  // namespace

Tensor histc(const Tensor& self, int64_t bins, const Scalar& min, const Scalar& max) {
  check_histogram_input("histc", self);
  BRASA_CHECK(bins > 0, "histc: bins must be > 0, got ", bins);
  NoGradGuard no_grad;
  auto [lo, hi] = data_range("histc", self, min.toDouble(), max.toDouble());
  Tensor edges = linspace(lo, hi, bins + 1, self.options());
  return bin_sums(bin_of(self, edges), bins, Tensor(), self.scalar_type());
}

std::tuple<Tensor, Tensor> histogram(const Tensor& self, const Tensor& bins,
                                     const std::optional<Tensor>& weight, bool density) {
  check_histogram_input("histogram", self);
  check_defined("histogram", bins);
  BRASA_CHECK(bins.dim() == 1 && bins.numel() >= 2,
              "histogram: bins must be a 1-D tensor of at least 2 edges, got shape ", bins.sizes());
  BRASA_CHECK_TYPE(bins.scalar_type() == self.scalar_type(),
                   "histogram: bins must have the input's dtype ", self.scalar_type(), ", got ",
                   bins.scalar_type());
  const bool weighted = weight.has_value() && weight->defined();
  BRASA_CHECK(!weighted || weight->sizes().equals(self.sizes()),
              "histogram: weight must have the input's shape ", self.sizes(), ", got ",
              weighted ? weight->sizes() : IntArrayRef());
  NoGradGuard no_grad;
  const int64_t nbins = bins.numel() - 1;
  Tensor hist =
      bin_sums(bin_of(self, bins), nbins, weighted ? *weight : Tensor(), self.scalar_type());
  if (density) hist = hist / (hist.sum() * (bins.narrow(0, 1, nbins) - bins.narrow(0, 0, nbins)));
  return {hist, bins.clone()};
}
std::tuple<Tensor, Tensor> histogram(const Tensor& self, int64_t bins,
                                     OptionalArrayRef<double> range,
                                     const std::optional<Tensor>& weight, bool density) {
  check_histogram_input("histogram", self);
  BRASA_CHECK(bins > 0, "histogram: bins must be > 0, got ", bins);
  BRASA_CHECK(!range || range->size() == 2, "histogram: range must have 2 elements, got ",
              range ? range->size() : 0);
  double lo = range ? (*range)[0] : 0, hi = range ? (*range)[1] : 0;
  {
    NoGradGuard no_grad;
    std::tie(lo, hi) = data_range("histogram", self, lo, hi);
  }
  return histogram(self, linspace(lo, hi, bins + 1, self.options()), weight, density);
}

Tensor bincount(const Tensor& self, const std::optional<Tensor>& weights, int64_t minlength) {
  check_defined("bincount", self);
  BRASA_CHECK(self.dim() == 1, "bincount: input must be 1-D, got ", self.dim(), "-D");
  BRASA_CHECK_TYPE(is_integral_type(self.scalar_type(), false),
                   "bincount: input must be of an integral dtype, got ", self.scalar_type());
  BRASA_CHECK(minlength >= 0, "bincount: minlength should be >= 0, got ", minlength);
  const bool weighted = weights.has_value() && weights->defined();
  BRASA_CHECK(!weighted || (weights->dim() == 1 && weights->size(0) == self.size(0)),
              "bincount: weights should be 1-D and have the same length as input, got ",
              weighted ? weights->sizes() : IntArrayRef(), " and ", self.sizes());
  NoGradGuard no_grad;
  int64_t length = minlength;
  if (self.numel() > 0) {
    BRASA_CHECK(self.min().item<int64_t>() >= 0,
                "bincount: input should contain only "
                "non-negative values");
    length = std::max(length, self.max().item<int64_t>() + 1);
  }
  const Tensor idx = self.to(kLong);
  if (!weighted)
    return zeros({length}, self.options().dtype(kLong)).index_add(0, idx, ones_like(idx));
  const ScalarType dt = weights->scalar_type() == kFloat ? kFloat : kDouble;
  return zeros({length}, weights->options().dtype(dt)).index_add(0, idx, weights->to(dt));
}

// ---- calculus and matrices ----
Tensor trace(const Tensor& self) {
  check_defined("trace", self);
  BRASA_CHECK(self.dim() == 2, "trace: expected a matrix, but got tensor with dim ", self.dim());
  return self.diagonal().sum();
}

Tensor diff(const Tensor& self, int64_t n, int64_t dim, const std::optional<Tensor>& prepend,
            const std::optional<Tensor>& append) {
  check_defined("diff", self);
  BRASA_CHECK(self.dim() >= 1, "diff expects input to be at least one-dimensional");
  BRASA_CHECK(n >= 0, "order must be non-negative but got ", n);
  const int64_t d = detail::wrap_dim(dim, self.dim(), "diff");
  Tensor x = self;
  if ((prepend && prepend->defined()) || (append && append->defined())) {
    std::vector<Tensor> parts;
    if (prepend && prepend->defined()) parts.push_back(*prepend);
    parts.push_back(self);
    if (append && append->defined()) parts.push_back(*append);
    x = cat(parts, d);
  }
  for (int64_t i = 0; i < n && x.size(d) > 0; ++i) {
    const int64_t m = x.size(d) - 1;
    Tensor a = x.narrow(d, 1, m), b = x.narrow(d, 0, m);
    x = x.scalar_type() == kBool ? logical_xor(a, b) : a - b;
  }
  return x;
}

namespace {
// The spacings along dim for trapezoid with sample points x (1-D: along dim; else diff along dim).
Tensor spacings(const Tensor& y, const Tensor& x, int64_t d) {
  if (x.dim() == 1) {
    BRASA_CHECK(x.size(0) == y.size(d),
                "trapezoid: there must be one `x` value for each sample "
                "point, got ",
                x.size(0), " and ", y.size(d));
    std::vector<int64_t> shape(size_t(y.dim()), 1);
    shape[size_t(d)] = std::max<int64_t>(x.size(0) - 1, 0);
    return diff(x).view(shape);
  }
  return diff(x, 1, d);
}
Tensor pair_sums(const Tensor& y, int64_t d) {
  const int64_t m = y.size(d) - 1;
  return y.narrow(d, 1, m) + y.narrow(d, 0, m);
}
int64_t trapezoid_dim(const char* op, const Tensor& y, int64_t dim) {
  check_defined(op, y);
  BRASA_CHECK(y.dim() >= 1, op, ": y must have at least one dimension");
  return detail::wrap_dim(dim, y.dim(), op);
}
Tensor empty_integral(const Tensor& y, int64_t d) { return zeros_like(y.sum({d})); }
}  // namespace

Tensor trapezoid(const Tensor& y, const Tensor& x, int64_t dim) {
  const int64_t d = trapezoid_dim("trapezoid", y, dim);
  check_defined("trapezoid", x);
  if (y.size(d) == 0) return empty_integral(y, d);
  return (pair_sums(y, d) * spacings(y, x, d)).sum({d}) * 0.5;
}
Tensor trapezoid(const Tensor& y, const Scalar& dx, int64_t dim) {
  const int64_t d = trapezoid_dim("trapezoid", y, dim);
  if (y.size(d) == 0) return empty_integral(y, d);
  return (y.sum({d}) - (y.select(d, 0) + y.select(d, -1)) * 0.5) * dx;
}
Tensor trapz(const Tensor& y, const Tensor& x, int64_t dim) { return trapezoid(y, x, dim); }
Tensor trapz(const Tensor& y, double dx, int64_t dim) { return trapezoid(y, Scalar(dx), dim); }
Tensor cumulative_trapezoid(const Tensor& y, const Tensor& x, int64_t dim) {
  const int64_t d = trapezoid_dim("cumulative_trapezoid", y, dim);
  check_defined("cumulative_trapezoid", x);
  if (y.size(d) == 0) return y.clone();
  return (pair_sums(y, d) * spacings(y, x, d) * 0.5).cumsum(d);
}
Tensor cumulative_trapezoid(const Tensor& y, const Scalar& dx, int64_t dim) {
  const int64_t d = trapezoid_dim("cumulative_trapezoid", y, dim);
  if (y.size(d) == 0) return y.clone();
  return (pair_sums(y, d) * dx * 0.5).cumsum(d);
}

Tensor cov(const Tensor& self, int64_t correction, const std::optional<Tensor>& fweights,
           const std::optional<Tensor>& aweights) {
  check_defined("cov", self);
  BRASA_CHECK(self.dim() <= 2,
              "cov(): expected input to have two or fewer dimensions but got an "
              "input with ",
              self.dim(), " dimensions");
  Tensor x = self.dim() < 2 ? self.view({1, -1}) : self;
  if (!is_floating_type(x.scalar_type()) && !x.is_complex()) x = x.to(get_default_dtype());
  const int64_t num_obs = x.size(1);
  Tensor w;
  if (fweights && fweights->defined()) {
    const Tensor& f = *fweights;
    BRASA_CHECK(f.dim() <= 1, "cov(): expected fweights to have one or fewer dimensions but got ",
                f.dim(), " dimensions");
    BRASA_CHECK_TYPE(is_integral_type(f.scalar_type(), false),
                     "cov(): expected fweights to have integral dtype but got ", f.scalar_type());
    BRASA_CHECK(f.numel() == num_obs,
                "cov(): expected fweights to have the same numel as there "
                "are observations in the input but got ",
                f.numel(), " != ", num_obs);
    BRASA_CHECK(f.numel() == 0 || f.min().item<int64_t>() >= 0,
                "cov(): fweights cannot be negative");
    w = f;
  }
  if (aweights && aweights->defined()) {
    const Tensor& a = *aweights;
    BRASA_CHECK(a.dim() <= 1, "cov(): expected aweights to have one or fewer dimensions but got ",
                a.dim(), " dimensions");
    BRASA_CHECK_TYPE(is_floating_type(a.scalar_type()),
                     "cov(): expected aweights to have floating point dtype but got ",
                     a.scalar_type());
    BRASA_CHECK(a.numel() == num_obs,
                "cov(): expected aweights to have the same numel as there "
                "are observations in the input but got ",
                a.numel(), " != ", num_obs);
    BRASA_CHECK(a.numel() == 0 || a.min().item<double>() >= 0,
                "cov(): aweights cannot be negative");
    w = w.defined() ? w * a : a;
  }
  Tensor w_sum = w.defined() ? w.sum() : scalar_tensor(double(num_obs), x.options());
  Tensor avg = w.defined() ? (x * w).sum({1}) / w_sum : x.mean({1});
  Tensor norm_factor;
  if (w.defined() && aweights && aweights->defined() && correction != 0)
    norm_factor = w_sum - (w * *aweights).sum() * double(correction) / w_sum;
  else
    norm_factor = w_sum - double(correction);
  norm_factor = norm_factor.clamp_min(0.0);
  Tensor centered = x - avg.unsqueeze(1);
  Tensor weighted = w.defined() ? centered * w : centered;
  return (matmul(centered, weighted.t().conj()) / norm_factor).squeeze();
}

Tensor corrcoef(const Tensor& self) {
  check_defined("corrcoef", self);
  BRASA_CHECK(self.dim() <= 2,
              "corrcoef(): expected input to have two or fewer dimensions but "
              "got an input with ",
              self.dim(), " dimensions");
  Tensor c = cov(self);
  if (c.dim() == 0) return c / c;
  Tensor stddev = c.diagonal().sqrt();
  c = c / stddev.unsqueeze(1) / stddev.unsqueeze(0);
  return c.is_complex() ? c : c.clamp(Scalar(-1), Scalar(1));
}

// The slice norms over every dim but `dim`, and a factor maxnorm / (norm + 1e-7) where a norm is
// above maxnorm (PyTorch's epsilon), 1 elsewhere.
Tensor renorm(const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm) {
  check_defined("renorm", self);
  BRASA_CHECK_TYPE(is_floating_type(self.scalar_type()), "renorm: expected a floating tensor, got ",
                   self.scalar_type());
  BRASA_CHECK(p.toDouble() > 0, "renorm: non-positive norm not supported, got p = ", p.toDouble());
  BRASA_CHECK(maxnorm.toDouble() >= 0, "renorm: expected maxnorm to be >= 0 but got ",
              maxnorm.toDouble());
  BRASA_CHECK(self.dim() > 1, "renorm: input needs at least 2 dimensions, got ", self.dim(),
              " dimensions");
  const int64_t d = detail::wrap_dim(dim, self.dim(), "renorm");
  std::vector<int64_t> others;
  for (int64_t i = 0; i < self.dim(); ++i)
    if (i != d) others.push_back(i);
  Tensor norms = norm(self, p, others, true);
  const double max = maxnorm.toDouble();
  Tensor factor = where(norms.gt(max), max / (norms + 1e-7), ones_like(norms));
  return self * factor;
}
Tensor& renorm_out(Tensor& out, const Tensor& self, const Scalar& p, int64_t dim,
                   const Scalar& maxnorm) {
  return ops::composite_out(out, renorm(self, p, dim, maxnorm), "renorm");
}

}  // namespace brasa
