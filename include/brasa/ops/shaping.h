#pragma once
// More shaping ops (libtorch spellings), written with the view, join and indexing ops so that
// autograd differentiates them: diagonals (diag, diag_embed, diagflat), writes into a copy's view
// (diagonal_scatter, select_scatter, slice_scatter, as_strided_scatter), joins (block_diag,
// column_stack, dstack, ...), splits (tensor_split, hsplit, ...), flips and rotations, and index
// producers (tril_indices, argwhere, ...). Errors: IndexError for a dim out of range, ValueError
// for shapes that don't fit, TypeError for a wrong dtype; each names the op.

#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "brasa/core/tensor.h"

namespace brasa {

// ---- diagonals ----
/// 1-D self: the square matrix with self on diagonal `diagonal`; 2-D self: that diagonal (a copy).
BRASA_API Tensor diag(const Tensor& self, int64_t diagonal = 0);
/// self's last dim placed on diagonal `offset` of new dims (dim1, dim2) of a zero tensor.
BRASA_API Tensor diag_embed(const Tensor& self, int64_t offset = 0, int64_t dim1 = -2,
                            int64_t dim2 = -1);
/// diag of self flattened.
BRASA_API Tensor diagflat(const Tensor& self, int64_t offset = 0);

// ---- a copy of self with src written into one of its views ----
BRASA_API Tensor diagonal_scatter(const Tensor& self, const Tensor& src, int64_t offset = 0,
                                  int64_t dim1 = 0, int64_t dim2 = 1);
BRASA_API Tensor select_scatter(const Tensor& self, const Tensor& src, int64_t dim, int64_t index);
BRASA_API Tensor slice_scatter(const Tensor& self, const Tensor& src, int64_t dim = 0,
                               std::optional<int64_t> start = std::nullopt,
                               std::optional<int64_t> end = std::nullopt, int64_t step = 1);
BRASA_API Tensor as_strided_scatter(const Tensor& self, const Tensor& src, IntArrayRef size,
                                    IntArrayRef stride,
                                    std::optional<int64_t> storage_offset = std::nullopt);

// ---- joining ----
/// The tensors (each 0-, 1- or 2-D) on the diagonal of a zero matrix; dtypes promote.
BRASA_API Tensor block_diag(TensorList tensors);
/// The tensors expanded to their common broadcast shape (views).
BRASA_API std::vector<Tensor> broadcast_tensors(TensorList tensors);
/// Every combination of one element of each 1-D tensor, [count, tensors.size()] (1-D for one).
BRASA_API Tensor cartesian_prod(TensorList tensors);
/// The r-element combinations of the 1-D self (with repeats when with_replacement), [count, r].
BRASA_API Tensor combinations(const Tensor& self, int64_t r = 2, bool with_replacement = false);
/// 0-d/1-d tensors as columns, then hstack.
BRASA_API Tensor column_stack(TensorList tensors);
BRASA_API Tensor row_stack(TensorList tensors);
/// cat along dim 2 of the tensors viewed as at least 3-d.
BRASA_API Tensor dstack(TensorList tensors);
/// 0-d -> [1, 1, 1], [n] -> [1, n, 1], [m, n] -> [m, n, 1]; others unchanged.
BRASA_API Tensor atleast_3d(const Tensor& self);
BRASA_API std::vector<Tensor> atleast_1d(TensorList tensors);
BRASA_API std::vector<Tensor> atleast_2d(TensorList tensors);
BRASA_API std::vector<Tensor> atleast_3d(TensorList tensors);
BRASA_API Tensor concatenate(TensorList tensors, int64_t dim = 0);

// ---- splitting (views) ----
/// `sections` parts along dim, the first size(dim) % sections one element longer; or the parts
/// between the given indices (Python slice bounds); a 0-d int64 tensor means sections, a 1-d one
/// indices.
BRASA_API std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim = 0);
BRASA_API std::vector<Tensor> tensor_split(const Tensor& self, IntArrayRef indices,
                                           int64_t dim = 0);
BRASA_API std::vector<Tensor> tensor_split(const Tensor& self,
                                           const Tensor& tensor_indices_or_sections,
                                           int64_t dim = 0);
/// tensor_split along dim 1 (dim 0 for 1-d) / 0 / 2; sections must divide the dim.
BRASA_API std::vector<Tensor> hsplit(const Tensor& self, int64_t sections);
BRASA_API std::vector<Tensor> hsplit(const Tensor& self, IntArrayRef indices);
BRASA_API std::vector<Tensor> vsplit(const Tensor& self, int64_t sections);
BRASA_API std::vector<Tensor> vsplit(const Tensor& self, IntArrayRef indices);
BRASA_API std::vector<Tensor> dsplit(const Tensor& self, int64_t sections);
BRASA_API std::vector<Tensor> dsplit(const Tensor& self, IntArrayRef indices);
/// chunk / split / split_with_sizes (libtorch's versions without view tracking).
BRASA_API std::vector<Tensor> unsafe_chunk(const Tensor& self, int64_t chunks, int64_t dim = 0);
BRASA_API std::vector<Tensor> unsafe_split(const Tensor& self, int64_t split_size, int64_t dim = 0);
BRASA_API std::vector<Tensor> unsafe_split_with_sizes(const Tensor& self, IntArrayRef split_sizes,
                                                      int64_t dim = 0);

// ---- flips, rotations, reshapes ----
/// flip of dim 1 (self at least 2-d) / dim 0 (at least 1-d).
BRASA_API Tensor fliplr(const Tensor& self);
BRASA_API Tensor flipud(const Tensor& self);
/// Rotates by k * 90 degrees in the plane of dims, from dims[0] towards dims[1].
BRASA_API Tensor rot90(const Tensor& self, int64_t k = 1, IntArrayRef dims = {0, 1});
/// reshape(-1).
BRASA_API Tensor ravel(const Tensor& self);
/// The conjugate transpose of the last two dims (self at least 2-d).
BRASA_API Tensor adjoint(const Tensor& self);
/// self (brasa has no lazy negation bit).
BRASA_API Tensor resolve_neg(const Tensor& self);
/// Sorted along dim 0 (values).
BRASA_API Tensor msort(const Tensor& self);

// ---- predicates ----
BRASA_API bool is_same_size(const Tensor& self, const Tensor& other);
/// The single element != 0; throws RuntimeError for zero or several elements.
BRASA_API bool is_nonzero(const Tensor& self);

// ---- indexing ----
/// nonzero(self).
BRASA_API Tensor argwhere(const Tensor& self);
/// nonzero(self)'s columns: one int64 [count] tensor per dim (one for a 0-d self).
BRASA_API std::vector<Tensor> nonzero_numpy(const Tensor& self);
/// gather along dim of self and int64 indices broadcast against each other (but along dim);
/// without dim, of both flattened.
BRASA_API Tensor take_along_dim(const Tensor& self, const Tensor& indices,
                                std::optional<int64_t> dim = std::nullopt);
/// self with source's elements written (added when accumulate) at the flat int64 positions index.
BRASA_API Tensor put(const Tensor& self, const Tensor& index, const Tensor& source,
                     bool accumulate = false);
/// self with the slices of source reduced into slice index[k] of dim: reduce "prod", "mean",
/// "amax" or "amin"; include_self=false leaves self's written slices out of the reduction.
BRASA_API Tensor index_reduce(const Tensor& self, int64_t dim, const Tensor& index,
                              const Tensor& source, std::string_view reduce,
                              bool include_self = true);
/// int64 [2, count] coordinates of the lower / upper triangle of a row x col matrix.
BRASA_API Tensor tril_indices(int64_t row, int64_t col, int64_t offset = 0,
                              const TensorOptions& options = kLong);
BRASA_API Tensor triu_indices(int64_t row, int64_t col, int64_t offset = 0,
                              const TensorOptions& options = kLong);
/// start, start + step, ... up to and including end (torch.range; the default dtype).
BRASA_API Tensor range(const Scalar& start, const Scalar& end, const Scalar& step = 1,
                       const TensorOptions& options = {});
BRASA_API Tensor range(const Scalar& start, const Scalar& end, const TensorOptions& options = {});
/// [n, N] powers of the 1-D x: x^(N-1) ... x^0 (x^0 ... x^(N-1) when increasing); N defaults to
/// n; integral and bool x give int64.
BRASA_API Tensor vander(const Tensor& x, std::optional<int64_t> N = std::nullopt,
                        bool increasing = false);

// ---- unique variants (not differentiable) ----
/// (values, inverse, counts) of runs of equal consecutive elements (of slices along dim);
/// inverse and counts are empty unless asked for.
BRASA_API std::tuple<Tensor, Tensor, Tensor> unique_consecutive(
    const Tensor& self, bool return_inverse = false, bool return_counts = false,
    std::optional<int64_t> dim = std::nullopt);
BRASA_API std::tuple<Tensor, Tensor, Tensor> unique_dim_consecutive(const Tensor& self, int64_t dim,
                                                                    bool return_inverse = false,
                                                                    bool return_counts = false);
/// The distinct slices along dim, sorted lexicographically, with inverse and counts.
BRASA_API std::tuple<Tensor, Tensor, Tensor> unique_dim(const Tensor& self, int64_t dim,
                                                        bool sorted = true,
                                                        bool return_inverse = false,
                                                        bool return_counts = false);

}  // namespace brasa
