#pragma once
// The view family's dispatched ops (Note [Op declarations]): view/squeeze/unsqueeze/expand/
// alias/as_strided/resize_ in shape_ops.cpp, transpose/permute/diagonal in permute_ops.cpp,
// select/slice/split_with_sizes/unbind in slice_ops.cpp, unfold in unfold_ops.cpp; derivatives in
// view_grad.cpp.

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// shape_ops.cpp
BRASA_DECLARE_OP(view_op, "view", "view(Tensor(a) self, int[] size) -> Tensor(a)",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(view_dtype_op, "view.dtype",
                 "view.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)",
                 Tensor(const Tensor&, ScalarType));
BRASA_DECLARE_OP(squeeze_op, "squeeze", "squeeze(Tensor(a) self) -> Tensor(a)",
                 Tensor(const Tensor&));
BRASA_DECLARE_OP(squeeze_dims_op, "squeeze.dims",
                 "squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_ATEN(squeeze_dims_op,
           "none: aten 1.13 has squeeze.dim (one dim) only; squeeze.dims came with 2.0");
BRASA_DECLARE_OP(unsqueeze_op, "unsqueeze", "unsqueeze(Tensor(a) self, int dim) -> Tensor(a)",
                 Tensor(const Tensor&, int64_t));
BRASA_DECLARE_OP(expand_op, "expand",
                 "expand(Tensor(a) self, int[] size, bool implicit) -> Tensor(a)",
                 Tensor(const Tensor&, IntArrayRef, bool));
BRASA_DECLARE_OP(alias_op, "alias", "alias(Tensor(a) self) -> Tensor(a)", Tensor(const Tensor&));
BRASA_DECLARE_OP(
    as_strided_op, "as_strided",
    "as_strided(Tensor(a) self, int[] size, int[] stride, int? storage_offset) -> Tensor(a)",
    Tensor(const Tensor&, IntArrayRef, IntArrayRef, std::optional<int64_t>));
BRASA_DECLARE_OP(resize_op, "resize_", "resize_(Tensor(a!) self, int[] size) -> Tensor(a!)",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_ATEN(resize_op, "resize_(self, size, MemoryFormat?=None)");

// permute_ops.cpp
BRASA_DECLARE_OP(transpose_op, "transpose",
                 "transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)",
                 Tensor(const Tensor&, int64_t, int64_t));
BRASA_DECLARE_OP(permute_op, "permute", "permute(Tensor(a) self, int[] dims) -> Tensor(a)",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(diagonal_op, "diagonal",
                 "diagonal(Tensor(a) self, int offset, int dim1, int dim2) -> Tensor(a)",
                 Tensor(const Tensor&, int64_t, int64_t, int64_t));

// slice_ops.cpp
BRASA_DECLARE_OP(select_op, "select", "select.int(Tensor(a) self, int dim, int index) -> Tensor(a)",
                 Tensor(const Tensor&, int64_t, int64_t));
BRASA_DECLARE_OP(
    slice_op, "slice",
    "slice.Tensor(Tensor(a) self, int dim, int? start, int? end, int step) -> Tensor(a)",
    Tensor(const Tensor&, int64_t, std::optional<int64_t>, std::optional<int64_t>, int64_t));
BRASA_DECLARE_OP(split_with_sizes_op, "split_with_sizes",
                 "split_with_sizes(Tensor(a) self, int[] split_sizes, int dim) -> Tensor(a)[]",
                 std::vector<Tensor>(const Tensor&, IntArrayRef, int64_t));
BRASA_DECLARE_OP(unbind_op, "unbind", "unbind.int(Tensor(a) self, int dim) -> Tensor(a)[]",
                 std::vector<Tensor>(const Tensor&, int64_t));

// unfold_ops.cpp
BRASA_DECLARE_OP(unfold_op, "unfold",
                 "unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)",
                 Tensor(const Tensor&, int64_t, int64_t, int64_t));

}  // namespace brasa::ops
