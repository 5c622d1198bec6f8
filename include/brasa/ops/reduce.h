#pragma once
// Reductions, scans, softmax and sorting as free functions (libtorch spellings; each also exists as
// a Tensor method). An empty `dim` list reduces every dim. Dims are wrapped like PyTorch's:
// IndexError (naming the op and dim) when out of range, ValueError for a repeated dim. Result
// dtypes follow PyTorch: sum/prod/cumsum/cumprod of integral or bool inputs give int64;
// mean/var/std/norm need a floating input (TypeError otherwise); indices are int64. `_out` forms
// write into `out` (resized when it has no elements) and return it.

#include <optional>
#include <tuple>

#include "brasa/core/tensor.h"

namespace brasa {

/// Sum over dims; dtype (if given) is the dtype the input is converted to before summing.
BRASA_API Tensor sum(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor sum(const Tensor& self, IntArrayRef dim, bool keepdim = false,
                     std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor& sum_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim = false,
                          std::optional<ScalarType> dtype = std::nullopt);
/// Mean over dims; TypeError unless the input (or dtype) is floating. Empty reductions give NaN.
BRASA_API Tensor mean(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor mean(const Tensor& self, IntArrayRef dim, bool keepdim = false,
                      std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor& mean_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim = false,
                           std::optional<ScalarType> dtype = std::nullopt);
/// Product of all elements, or over one dim.
BRASA_API Tensor prod(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor prod(const Tensor& self, int64_t dim, bool keepdim = false,
                      std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor& prod_out(Tensor& out, const Tensor& self, int64_t dim, bool keepdim = false,
                           std::optional<ScalarType> dtype = std::nullopt);
/// Max/min over dims (NaN propagates); IndexError when a reduced dim is empty.
BRASA_API Tensor amax(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
BRASA_API Tensor amin(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
BRASA_API Tensor& amax_out(Tensor& out, const Tensor& self, IntArrayRef dim = {},
                           bool keepdim = false);
BRASA_API Tensor& amin_out(Tensor& out, const Tensor& self, IntArrayRef dim = {},
                           bool keepdim = false);
/// Max/min of every element; IndexError on an empty tensor.
BRASA_API Tensor max(const Tensor& self);
BRASA_API Tensor min(const Tensor& self);
/// (values, int64 indices) along dim; the first occurrence (or first NaN) wins.
BRASA_API std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim = false);
BRASA_API std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim = false);
/// Index of the max/min (of the flattened tensor when dim is absent); int64.
BRASA_API Tensor argmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt,
                        bool keepdim = false);
BRASA_API Tensor argmin(const Tensor& self, std::optional<int64_t> dim = std::nullopt,
                        bool keepdim = false);
/// Variance / standard deviation with divisor max(0, N - correction) (unbiased: correction 1).
///
/// Note [int dim of var and std]
/// An int literal converts to bool (a standard conversion) before it converts to IntArrayRef (a
/// user-defined one), so without the `int dim` overloads var(1) would be var(unbiased=true) over
/// the whole tensor. libtorch adds the same C++-only overloads, so var(1) and std(0) reduce one
/// dim in both; var(int64_t{1}) is ambiguous (a compile error) in both.
BRASA_API Tensor var(const Tensor& self, bool unbiased = true);
inline Tensor var(const Tensor& self, int dim) { return self.var(dim); }
BRASA_API Tensor var(const Tensor& self, IntArrayRef dim, bool unbiased = true,
                     bool keepdim = false);
BRASA_API Tensor var(const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> correction,
                     bool keepdim = false);
BRASA_API Tensor std(const Tensor& self, bool unbiased = true);
inline Tensor std(const Tensor& self, int dim) { return self.std(dim); }
BRASA_API Tensor std(const Tensor& self, IntArrayRef dim, bool unbiased = true,
                     bool keepdim = false);
BRASA_API Tensor std(const Tensor& self, OptionalIntArrayRef dim, std::optional<int64_t> correction,
                     bool keepdim = false);
/// Vector p-norm (p = 0 counts non-zeros, +-inf is max/min of |x|); floating inputs only.
BRASA_API Tensor norm(const Tensor& self, const Scalar& p = 2);
BRASA_API Tensor norm(const Tensor& self, std::optional<Scalar> p, IntArrayRef dim,
                      bool keepdim = false);
/// log(sum(exp(x))) computed stably; integral inputs give the default float dtype.
BRASA_API Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim = false);
/// Bool results (uint8 for uint8 inputs, like PyTorch).
BRASA_API Tensor all(const Tensor& self);
BRASA_API Tensor all(const Tensor& self, int64_t dim, bool keepdim = false);
BRASA_API Tensor any(const Tensor& self);
BRASA_API Tensor any(const Tensor& self, int64_t dim, bool keepdim = false);
/// Number of non-zero elements (int64).
BRASA_API Tensor count_nonzero(const Tensor& self, std::optional<int64_t> dim = std::nullopt);
BRASA_API Tensor count_nonzero(const Tensor& self, IntArrayRef dim);
/// Inclusive scans along dim; integral/bool inputs give int64 unless dtype is given.
BRASA_API Tensor cumsum(const Tensor& self, int64_t dim,
                        std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor cumprod(const Tensor& self, int64_t dim,
                         std::optional<ScalarType> dtype = std::nullopt);
/// Softmax / log-softmax along dim, in dtype (if given) or the (floating) input dtype.
BRASA_API Tensor softmax(const Tensor& self, int64_t dim,
                         std::optional<ScalarType> dtype = std::nullopt);
BRASA_API Tensor log_softmax(const Tensor& self, int64_t dim,
                             std::optional<ScalarType> dtype = std::nullopt);
/// (values, int64 indices) sorted along dim; NaN sorts as the largest value. Always stable.
BRASA_API std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim = -1,
                                          bool descending = false);
BRASA_API std::tuple<Tensor, Tensor> sort(const Tensor& self, std::optional<bool> stable,
                                          int64_t dim = -1, bool descending = false);
BRASA_API Tensor argsort(const Tensor& self, int64_t dim = -1, bool descending = false);
/// The k largest (or smallest) entries along dim and their indices; ValueError unless 0 <= k <=
/// size.
BRASA_API std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim = -1,
                                          bool largest = true, bool sorted = true);
/// Same shape and equal values (dtypes are promoted for the comparison).
BRASA_API bool equal(const Tensor& self, const Tensor& other);
/// |self - other| <= atol + rtol * |other| everywhere (broadcasting); TypeError if dtypes differ.
BRASA_API bool allclose(const Tensor& self, const Tensor& other, double rtol = 1e-5,
                        double atol = 1e-8, bool equal_nan = false);

}  // namespace brasa
