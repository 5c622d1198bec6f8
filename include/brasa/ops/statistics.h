#pragma once
// Order statistics, NaN-ignoring reductions, scans with indices, histograms and the numerical
// calculus of libtorch 1.13 (median, kthvalue, quantile, nansum, cummax, histc, diff, trapezoid,
// cov, ...), as at::/torch:: free functions with libtorch's signatures and defaults. Dims wrap like
// PyTorch's (IndexError when out of range); indices are int64. Selections (median, kthvalue, mode,
// cummax) return the index of the element chosen, so gradients flow to it. Errors name the op.

#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "brasa/core/tensor.h"

namespace brasa {

// ---- order statistics ----
/// The lower median of all elements (NaN if there is one); IndexError when empty.
BRASA_API Tensor median(const Tensor& self);
/// (values, indices) of the lower median along dim; NaN wins where a row has one.
BRASA_API std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim = false);
BRASA_API std::tuple<Tensor&, Tensor&> median_out(Tensor& values, Tensor& indices,
                                                  const Tensor& self, int64_t dim,
                                                  bool keepdim = false);
/// median ignoring NaN (NaN only where a row is all NaN).
BRASA_API Tensor nanmedian(const Tensor& self);
BRASA_API std::tuple<Tensor, Tensor> nanmedian(const Tensor& self, int64_t dim,
                                               bool keepdim = false);
BRASA_API std::tuple<Tensor&, Tensor&> nanmedian_out(Tensor& values, Tensor& indices,
                                                     const Tensor& self, int64_t dim,
                                                     bool keepdim = false);
/// (values, indices) of the k-th smallest element (1-based) along dim; ValueError unless
/// 1 <= k <= size.
BRASA_API std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim = -1,
                                              bool keepdim = false);
BRASA_API std::tuple<Tensor&, Tensor&> kthvalue_out(Tensor& values, Tensor& indices,
                                                    const Tensor& self, int64_t k, int64_t dim = -1,
                                                    bool keepdim = false);
/// (values, indices) of the most frequent value along dim (the smallest among equally frequent
/// ones; the index of its last occurrence).
BRASA_API std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim = -1,
                                          bool keepdim = false);
/// q-th quantiles (q in [0, 1], a scalar or a 1-D tensor whose values become the leading dim),
/// over all elements or along dim; interpolation "linear", "lower", "higher", "midpoint" or
/// "nearest". Floating inputs only; q must have self's dtype. quantile propagates NaN, nanquantile
/// ignores it.
BRASA_API Tensor quantile(const Tensor& self, const Tensor& q,
                          std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                          std::string_view interpolation = "linear");
BRASA_API Tensor quantile(const Tensor& self, double q, std::optional<int64_t> dim = std::nullopt,
                          bool keepdim = false, std::string_view interpolation = "linear");
BRASA_API Tensor nanquantile(const Tensor& self, const Tensor& q,
                             std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                             std::string_view interpolation = "linear");
BRASA_API Tensor nanquantile(const Tensor& self, double q,
                             std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                             std::string_view interpolation = "linear");

// ---- NaN-ignoring and paired reductions ----
/// Sum / mean treating NaN as absent (nansum: as 0); no dims (or an empty list) reduce all.
BRASA_API Tensor nansum(const Tensor& self, OptionalIntArrayRef dim = std::nullopt,
                        bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor nanmean(const Tensor& self, OptionalIntArrayRef dim = std::nullopt,
                         bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt);
/// (amin, amax) over all elements or along dim.
BRASA_API std::tuple<Tensor, Tensor> aminmax(const Tensor& self,
                                             std::optional<int64_t> dim = std::nullopt,
                                             bool keepdim = false);
/// (var, mean) and (std, mean), with var's overloads (Note [int dim of var and std]).
BRASA_API std::tuple<Tensor, Tensor> var_mean(const Tensor& self, bool unbiased = true);
inline std::tuple<Tensor, Tensor> var_mean(const Tensor& self, int dim);
BRASA_API std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptionalIntArrayRef dim,
                                              bool unbiased = true, bool keepdim = false);
BRASA_API std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptionalIntArrayRef dim,
                                              std::optional<int64_t> correction,
                                              bool keepdim = false);
BRASA_API std::tuple<Tensor, Tensor> std_mean(const Tensor& self, bool unbiased = true);
inline std::tuple<Tensor, Tensor> std_mean(const Tensor& self, int dim);
BRASA_API std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptionalIntArrayRef dim,
                                              bool unbiased = true, bool keepdim = false);
BRASA_API std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptionalIntArrayRef dim,
                                              std::optional<int64_t> correction,
                                              bool keepdim = false);
inline std::tuple<Tensor, Tensor> var_mean(const Tensor& self, int dim) {
  const int64_t d = dim;
  return var_mean(self, IntArrayRef(d));
}
inline std::tuple<Tensor, Tensor> std_mean(const Tensor& self, int dim) {
  const int64_t d = dim;
  return std_mean(self, IntArrayRef(d));
}

// ---- scans ----
/// Running max / min along dim with the index where it was reached (the last one among equal
/// values, as PyTorch; NaN, once met, stays).
BRASA_API std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim);
BRASA_API std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim);
/// log(cumsum(exp(x))) along dim, computed stably; floating inputs.
BRASA_API Tensor logcumsumexp(const Tensor& self, int64_t dim);

// ---- histograms ----
/// Counts in `bins` equal-width bins over [min, max] (the data's range when both are 0); elements
/// outside are ignored. Floating inputs; the result has self's dtype.
BRASA_API Tensor histc(const Tensor& self, int64_t bins = 100, const Scalar& min = 0,
                       const Scalar& max = 0);
/// (hist, bin_edges): bins given as edges (a 1-D increasing tensor) or as a count over `range`
/// (the data's range by default); optional per-element weights; density normalises to a pdf.
BRASA_API std::tuple<Tensor, Tensor> histogram(const Tensor& self, const Tensor& bins,
                                               const std::optional<Tensor>& weight = {},
                                               bool density = false);
BRASA_API std::tuple<Tensor, Tensor> histogram(const Tensor& self, int64_t bins = 100,
                                               OptionalArrayRef<double> range = std::nullopt,
                                               const std::optional<Tensor>& weight = {},
                                               bool density = false);
/// (hist, bin_edges) of the N-dimensional points in self's last dim ([..., N]): bins per dim as a
/// count (one for all dims or one per dim, over `range` = [lo_0, hi_0, lo_1, hi_1, ...] or the
/// data's range) or as N 1-D increasing edge tensors; optional weights of self's leading shape;
/// density divides by the total and the bin volumes. Floating inputs; not differentiable (as
/// libtorch).
BRASA_API std::tuple<Tensor, std::vector<Tensor>> histogramdd(
    const Tensor& self, IntArrayRef bins, OptionalArrayRef<double> range = std::nullopt,
    const std::optional<Tensor>& weight = {}, bool density = false);
BRASA_API std::tuple<Tensor, std::vector<Tensor>> histogramdd(
    const Tensor& self, int64_t bins, OptionalArrayRef<double> range = std::nullopt,
    const std::optional<Tensor>& weight = {}, bool density = false);
BRASA_API std::tuple<Tensor, std::vector<Tensor>> histogramdd(
    const Tensor& self, TensorList bins, OptionalArrayRef<double> range = std::nullopt,
    const std::optional<Tensor>& weight = {}, bool density = false);
/// Reduces consecutive segments of data along axis 0 ("sum", "mean", "max", "min" or "prod"),
/// the segments given by their lengths or by offsets (their boundaries, one more than segments),
/// over data's leading dims; empty segments give `initial` (or sum 0, prod 1, mean NaN, max -inf,
/// min +inf). unsafe skips the checks that lengths sum to data's size. Differentiable in data.
/// (`indices` is not supported, as in libtorch 1.13.)
BRASA_API Tensor segment_reduce(const Tensor& data, std::string_view reduce,
                                const std::optional<Tensor>& lengths = {},
                                const std::optional<Tensor>& indices = {},
                                const std::optional<Tensor>& offsets = {}, int64_t axis = 0,
                                bool unsafe = false,
                                const std::optional<Scalar>& initial = std::nullopt);
BRASA_API Tensor& segment_reduce_out(Tensor& out, const Tensor& data, std::string_view reduce,
                                     const std::optional<Tensor>& lengths = {},
                                     const std::optional<Tensor>& indices = {},
                                     const std::optional<Tensor>& offsets = {}, int64_t axis = 0,
                                     bool unsafe = false,
                                     const std::optional<Scalar>& initial = std::nullopt);
/// Occurrences of each value of a 1-D non-negative integral tensor (weighted sums when weights
/// are given), of length max(max + 1, minlength).
BRASA_API Tensor bincount(const Tensor& self, const std::optional<Tensor>& weights = {},
                          int64_t minlength = 0);

// ---- calculus and matrices ----
/// Sum of the main diagonal of a 2-D tensor.
BRASA_API Tensor trace(const Tensor& self);
/// n-th forward difference along dim, after concatenating prepend / append.
BRASA_API Tensor diff(const Tensor& self, int64_t n = 1, int64_t dim = -1,
                      const std::optional<Tensor>& prepend = {},
                      const std::optional<Tensor>& append = {});
/// Trapezoidal rule along dim, with sample points x or a constant spacing dx.
BRASA_API Tensor trapezoid(const Tensor& y, const Tensor& x, int64_t dim = -1);
BRASA_API Tensor trapezoid(const Tensor& y, const Scalar& dx = 1, int64_t dim = -1);
BRASA_API Tensor trapz(const Tensor& y, const Tensor& x, int64_t dim = -1);
BRASA_API Tensor trapz(const Tensor& y, double dx = 1, int64_t dim = -1);
BRASA_API Tensor cumulative_trapezoid(const Tensor& y, const Tensor& x, int64_t dim = -1);
BRASA_API Tensor cumulative_trapezoid(const Tensor& y, const Scalar& dx = 1, int64_t dim = -1);
/// The derivative of the function sampled by self, by finite differences along each of `dim` (all
/// dims by default): one tensor per dim, of self's shape (integral inputs give the default float
/// dtype). Spacing: unit, one step for every dim, one step per dim, or per-dim 1-D coordinates of
/// the samples (of the dim's size; gradients flow to them). Central differences inside, one-sided
/// ones of order edge_order (1 or 2) at the two ends; every dim needs edge_order + 1 samples.
/// ValueError for a bad dim, spacing list length, coordinates or edge_order.
BRASA_API std::vector<Tensor> gradient(const Tensor& self,
                                       const std::optional<Scalar>& spacing = std::nullopt,
                                       std::optional<int64_t> dim = std::nullopt,
                                       int64_t edge_order = 1);
BRASA_API std::vector<Tensor> gradient(const Tensor& self, const Scalar& spacing, IntArrayRef dim,
                                       int64_t edge_order = 1);
BRASA_API std::vector<Tensor> gradient(const Tensor& self, IntArrayRef dim, int64_t edge_order = 1);
BRASA_API std::vector<Tensor> gradient(const Tensor& self, ArrayRef<Scalar> spacing,
                                       std::optional<int64_t> dim = std::nullopt,
                                       int64_t edge_order = 1);
BRASA_API std::vector<Tensor> gradient(const Tensor& self, ArrayRef<Scalar> spacing,
                                       IntArrayRef dim, int64_t edge_order = 1);
BRASA_API std::vector<Tensor> gradient(const Tensor& self, TensorList spacing,
                                       std::optional<int64_t> dim = std::nullopt,
                                       int64_t edge_order = 1);
BRASA_API std::vector<Tensor> gradient(const Tensor& self, TensorList spacing, IntArrayRef dim,
                                       int64_t edge_order = 1);
/// Covariance of the rows (variables) of a 1-D or 2-D tensor whose columns are observations, with
/// optional integral frequency and floating observation weights; corrcoef: the correlation
/// coefficients.
BRASA_API Tensor cov(const Tensor& self, int64_t correction = 1,
                     const std::optional<Tensor>& fweights = {},
                     const std::optional<Tensor>& aweights = {});
BRASA_API Tensor corrcoef(const Tensor& self);
/// Each slice self.select(dim, i) whose p-norm exceeds maxnorm, scaled to norm maxnorm; floating
/// inputs, p > 0, maxnorm >= 0.
BRASA_API Tensor renorm(const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm);
BRASA_API Tensor& renorm_out(Tensor& out, const Tensor& self, const Scalar& p, int64_t dim,
                             const Scalar& maxnorm);

}  // namespace brasa
