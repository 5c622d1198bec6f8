#include "ops/view/view_utils.h"

#include "brasa/core/empty.h"
#include "brasa/core/error.h"

namespace brasa::ops {

DimVector infer_size(IntArrayRef shape, int64_t numel, const char* op) {
  DimVector out(shape);
  int64_t known = 1;
  int64_t infer_dim = -1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      BRASA_CHECK(infer_dim < 0, op, ": only one dimension can be inferred, got shape ", shape);
      infer_dim = static_cast<int64_t>(d);
    } else {
      BRASA_CHECK(shape[d] >= 0, op, ": invalid shape dimension ", shape[d], " in shape ", shape);
      known *= shape[d];
    }
  }
  if (infer_dim >= 0) {
    BRASA_CHECK(known != 0, op, ": cannot reshape tensor of 0 elements into shape ", shape,
                " because the unspecified dimension size -1 can be any value and is ambiguous");
    BRASA_CHECK(numel % known == 0, op, ": shape ", shape, " is invalid for input of size ", numel);
    out[infer_dim] = numel / known;
  } else {
    BRASA_CHECK(known == numel, op, ": shape ", shape, " is invalid for input of size ", numel);
  }
  return out;
}

// Note [View strides]
// The old tensor splits into "chunks": maximal runs of dims that are contiguous with one another
// (stride[d] == size[d+1] * stride[d+1]). A view is possible iff the new dims can be grouped, left
// to right, into runs whose element counts equal those chunks; each new dim then gets the stride it
// would have inside its chunk. Size-1 dims fit anywhere.
std::optional<DimVector> view_strides(IntArrayRef sizes, IntArrayRef strides,
                                      IntArrayRef new_sizes) {
  DimVector out(new_sizes.size());
  if (sizes.empty()) {
    for (auto& s : out) s = 1;
    return out;
  }
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  if (numel == 0) {
    if (sizes.equals(new_sizes)) return DimVector(strides);
    return detail::contiguous_strides(new_sizes);
  }
  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  int64_t base_stride = strides.back();
  int64_t chunk_numel = 1;
  int64_t view_numel = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    chunk_numel *= sizes[d];
    bool chunk_ends = d == 0 || (sizes[d - 1] != 1 && strides[d - 1] != chunk_numel * base_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < chunk_numel || new_sizes[view_d] == 1)) {
      out[view_d] = view_numel * base_stride;
      view_numel *= new_sizes[view_d];
      --view_d;
    }
    if (view_numel != chunk_numel) return std::nullopt;
    if (d > 0) {
      base_stride = strides[d - 1];
      chunk_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

uint64_t dims_to_bitset(IntArrayRef dims, int64_t ndim, const char* op) {
  BRASA_CHECK(ndim <= 64, op, ": tensors with more than 64 dims are not supported, got ", ndim);
  uint64_t seen = 0;
  for (int64_t d : dims) {
    int64_t w = detail::wrap_dim(d, ndim, op);
    BRASA_CHECK(!(seen >> w & 1), op, ": dim ", w, " appears multiple times in the list of dims ",
                dims);
    seen |= uint64_t(1) << w;
  }
  return seen;
}

}  // namespace brasa::ops
