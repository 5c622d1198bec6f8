#pragma once
// Indexing and shaping ops as free functions (libtorch spellings): joining (cat, stack, ...),
// reordering (flip, roll, tril, triu, repeat, tile) and gather/scatter-style indexing.
// Index tensors are int64 (index_select/index_add/index_copy/index_fill also take int32).
// Errors: IndexError for a dim or an index value out of range (the message names the op, the
// value and the size), TypeError for a wrong dtype, ValueError for shapes that don't fit.

#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "brasa/core/tensor.h"

namespace brasa {

// ---- joining ----
/// Concatenates along dim; dtypes promote; 1-d empty tensors of shape [0] are skipped (legacy).
BRASA_API Tensor cat(TensorList tensors, int64_t dim = 0);
BRASA_API Tensor concat(TensorList tensors, int64_t dim = 0);
/// Joins same-shape tensors along a new dim (in [-dim()-1, dim()]).
BRASA_API Tensor stack(TensorList tensors, int64_t dim = 0);
/// cat along dim 1 (dim 0 for 1-d inputs) / along dim 0 of the tensors viewed as at least 2-d.
BRASA_API Tensor hstack(TensorList tensors);
BRASA_API Tensor vstack(TensorList tensors);
BRASA_API Tensor atleast_1d(const Tensor& self);
BRASA_API Tensor atleast_2d(const Tensor& self);
/// Coordinate grids (expanded views) of 0-d/1-d tensors of one dtype; indexing "ij" or "xy".
BRASA_API std::vector<Tensor> meshgrid(TensorList tensors, const std::string& indexing = "ij");

// ---- reordering ----
/// Reverses the order of elements along each of dims (a copy).
BRASA_API Tensor flip(const Tensor& self, IntArrayRef dims);
/// Rotates elements by shifts[i] along dims[i]; with no dims, over the flattened tensor.
BRASA_API Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims = {});
/// Lower/upper triangle of the last two dims (elements above/below `diagonal` become zero).
BRASA_API Tensor tril(const Tensor& self, int64_t diagonal = 0);
BRASA_API Tensor triu(const Tensor& self, int64_t diagonal = 0);
/// Tiles self repeats[i] times along dim i; repeats has at least dim() entries (leading ones add
/// dims).
BRASA_API Tensor repeat(const Tensor& self, IntArrayRef repeats);
/// repeat() with reps padded with leading ones to dim().
BRASA_API Tensor tile(const Tensor& self, IntArrayRef reps);

// ---- gather / scatter ----
/// out[i][j] = self[index[i][j]][j] (dim 0); index int64 with self's number of dims.
BRASA_API Tensor gather(const Tensor& self, int64_t dim, const Tensor& index,
                        bool sparse_grad = false);
/// self with self[index[i][j]][j] = src[i][j] (dim 0); src of self's dtype.
BRASA_API Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
BRASA_API Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
/// Like scatter, accumulating: self[index[i][j]][j] += src[i][j].
BRASA_API Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index,
                             const Tensor& src);
/// self with src reduced into it at index ("sum", "prod", "mean", "amax", "amin"); with
/// include_self=false self's values at the written positions don't take part. Integral mean
/// rounds down.
BRASA_API Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index,
                                const Tensor& src, std::string_view reduce,
                                bool include_self = true);
/// The slices index[k] of dim (index 0-d or 1-d, int32/int64, values in [0, size)).
BRASA_API Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
/// self with alpha * source[k] added to / copied into slice index[k] of dim.
BRASA_API Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index,
                           const Tensor& source, const Scalar& alpha = 1);
BRASA_API Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index,
                            const Tensor& source);
/// self with the slices index[k] of dim set to value (negative indices count from the end).
BRASA_API Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index,
                            const Scalar& value);
/// Elements of the flattened self at index (negative indices count from the end); index's shape.
BRASA_API Tensor take(const Tensor& self, const Tensor& index);
/// 1-d tensor of the elements of self where mask (Bool, broadcast with self) is true.
BRASA_API Tensor masked_select(const Tensor& self, const Tensor& mask);
/// int64 [count, dim()] coordinates of the non-zero elements, in row-major order.
BRASA_API Tensor nonzero(const Tensor& self);

// ---- index producers and consumers ----
/// Each self[i] repeated repeats[i] times along dim (flattened when dim is absent); repeats is a
/// non-negative int or a 0-d/1-d int tensor of size(dim). The one-argument form gives
/// [0]*repeats[0] + [1]*repeats[1] + ...
BRASA_API Tensor repeat_interleave(const Tensor& repeats);
BRASA_API Tensor repeat_interleave(const Tensor& self, const Tensor& repeats,
                                   std::optional<int64_t> dim = std::nullopt);
BRASA_API Tensor repeat_interleave(const Tensor& self, int64_t repeats,
                                   std::optional<int64_t> dim = std::nullopt);
/// int64 [..., num_classes] one-hot rows of an int64 class tensor (num_classes -1: max + 1).
BRASA_API Tensor one_hot(const Tensor& self, int64_t num_classes = -1);
/// Insertion points of values into the sorted last dim of sorted_sequence (1-d, or same leading
/// dims as values); int64 (int32 with out_int32). side "left"/"right" overrides right.
BRASA_API Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values,
                              bool out_int32 = false, bool right = false,
                              std::optional<std::string_view> side = std::nullopt);
/// searchsorted(boundaries, self): the bucket of each element of self (boundaries 1-d).
BRASA_API Tensor bucketize(const Tensor& self, const Tensor& boundaries, bool out_int32 = false,
                           bool right = false);
/// Sorted distinct elements, with (when asked, else empty) the int64 inverse map of self's shape
/// and the int64 count of each distinct element (libtorch's _unique2).
BRASA_API std::tuple<Tensor, Tensor, Tensor> unique(const Tensor& self, bool sorted = true,
                                                    bool return_inverse = false,
                                                    bool return_counts = false);
/// Rows of the 2-d weight at indices (int64/int32): shape indices.sizes() + [weight.size(1)].
/// padding_idx only matters for gradients; for max_norm call embedding_renorm_ first.
BRASA_API Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1,
                           bool scale_grad_by_freq = false, bool sparse = false);
/// In place: rows of weight named by indices whose norm_type-norm exceeds max_norm are scaled to
/// norm max_norm (torch.nn.functional.embedding's max_norm, applied before the lookup).
BRASA_API const Tensor& embedding_renorm_(const Tensor& weight, const Tensor& indices,
                                          double max_norm, double norm_type = 2.0);
/// Per-bag "sum", "mean" or "max" of embedding rows: indices 2-d (one bag per row, offsets
/// absent) or 1-d with int64 offsets giving each bag's start (offsets[0] == 0); empty bags give
/// zeros; per_sample_weights (sum only) scale each row; padding_idx rows are skipped. Returns
/// [bags, weight.size(1)] (the output of torch.nn.functional.embedding_bag).
BRASA_API Tensor embedding_bag(const Tensor& weight, const Tensor& indices,
                               const Tensor& offsets = {}, std::string_view mode = "mean",
                               const Tensor& per_sample_weights = {},
                               bool include_last_offset = false,
                               std::optional<int64_t> padding_idx = std::nullopt);
/// self with the positions where mask (Bool, broadcast to self) is true filled from source's
/// elements in order.
BRASA_API Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source);

// ---- advanced indexing (libtorch's at::index / index_put_; absent entries select whole dims) ----
/// self[indices]: int64 indices broadcast together, bool/uint8 masks select their true elements.
BRASA_API Tensor index(const Tensor& self, const std::vector<std::optional<Tensor>>& indices);
/// self[indices] = values (values of self's dtype, broadcast); with accumulate, +=, summing the
/// contributions of repeated indices.
BRASA_API const Tensor& index_put_(const Tensor& self,
                                   const std::vector<std::optional<Tensor>>& indices,
                                   const Tensor& values, bool accumulate = false);
BRASA_API Tensor index_put(const Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                           const Tensor& values, bool accumulate = false);

}  // namespace brasa
