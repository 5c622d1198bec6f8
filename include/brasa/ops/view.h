#pragma once
// View and reshaping ops as free functions (libtorch spellings). Views share the input's storage:
// writes through a view are visible in its base. Dims may be negative (counted from the end).
// Errors: IndexError for a dim or index out of range, ValueError for sizes that don't fit.

#include <optional>
#include <vector>

#include "brasa/core/tensor.h"

namespace brasa {

/// Same data, new shape (one size may be -1); a view when strides allow it, else a contiguous copy.
BRASA_API Tensor reshape(const Tensor& self, IntArrayRef shape);
/// Merges dims start_dim..end_dim into one (reshape); a 0-d tensor becomes shape [1].
BRASA_API Tensor flatten(const Tensor& self, int64_t start_dim = 0, int64_t end_dim = -1);
/// Splits dim into `sizes` (one may be -1); throws ValueError when they don't multiply to
/// size(dim).
BRASA_API Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes);
/// Removes every size-1 dim / the given dim(s) when they have size 1.
BRASA_API Tensor squeeze(const Tensor& self);
BRASA_API Tensor squeeze(const Tensor& self, int64_t dim);
BRASA_API Tensor squeeze(const Tensor& self, IntArrayRef dims);
/// Inserts a size-1 dim at `dim` (in [-dim()-1, dim()]).
BRASA_API Tensor unsqueeze(const Tensor& self, int64_t dim);
BRASA_API Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
BRASA_API Tensor swapaxes(const Tensor& self, int64_t dim0, int64_t dim1);
BRASA_API Tensor swapdims(const Tensor& self, int64_t dim0, int64_t dim1);
/// Transpose of a tensor of at most 2 dims; throws ValueError for more.
BRASA_API Tensor t(const Tensor& self);
/// Reorders dims; `dims` must be a permutation of 0..dim()-1.
BRASA_API Tensor permute(const Tensor& self, IntArrayRef dims);
/// Moves dims `source` to positions `destination`, the others keep their relative order.
BRASA_API Tensor movedim(const Tensor& self, IntArrayRef source, IntArrayRef destination);
BRASA_API Tensor movedim(const Tensor& self, int64_t source, int64_t destination);
BRASA_API Tensor moveaxis(const Tensor& self, IntArrayRef source, IntArrayRef destination);
BRASA_API Tensor moveaxis(const Tensor& self, int64_t source, int64_t destination);
/// Broadcasts size-1 dims (stride 0) and prepends new dims; -1 keeps a size.
BRASA_API Tensor expand(const Tensor& self, IntArrayRef sizes, bool implicit = false);
BRASA_API Tensor broadcast_to(const Tensor& self, IntArrayRef sizes);
/// Elements start..start+length-1 of dim (start may be negative).
BRASA_API Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);
/// The slice at `index` of dim, which is removed; throws IndexError when out of range.
BRASA_API Tensor select(const Tensor& self, int64_t dim, int64_t index);
/// Python's self[start:end:step] along dim (bounds clamped like Python; step must be > 0).
BRASA_API Tensor slice(const Tensor& self, int64_t dim = 0,
                       std::optional<int64_t> start = std::nullopt,
                       std::optional<int64_t> end = std::nullopt, int64_t step = 1);
/// A view with arbitrary geometry over self's storage; throws ValueError when it would read past
/// it.
BRASA_API Tensor as_strided(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                            std::optional<int64_t> storage_offset = std::nullopt);
/// libtorch's _reshape_alias (the view reshape makes when strides allow one): as_strided at self's
/// storage offset.
inline Tensor _reshape_alias(const Tensor& self, IntArrayRef sizes, IntArrayRef strides) {
  return as_strided(self, sizes, strides);
}
/// `chunks` views of size ceil(size(dim) / chunks) (the last may be smaller; there may be fewer).
BRASA_API std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim = 0);
/// Views of split_size elements along dim (the last may be smaller).
BRASA_API std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim = 0);
BRASA_API std::vector<Tensor> split(const Tensor& self, IntArrayRef split_sizes, int64_t dim = 0);
/// Views of the given sizes along dim; they must sum to size(dim).
BRASA_API std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes,
                                               int64_t dim = 0);
/// select(dim, i) for every i.
BRASA_API std::vector<Tensor> unbind(const Tensor& self, int64_t dim = 0);
/// The diagonal of dims (dim1, dim2) shifted by offset, as a new last dim.
BRASA_API Tensor diagonal(const Tensor& self, int64_t offset = 0, int64_t dim1 = 0,
                          int64_t dim2 = 1);
/// A new view of all of self.
BRASA_API Tensor alias(const Tensor& self);

}  // namespace brasa
