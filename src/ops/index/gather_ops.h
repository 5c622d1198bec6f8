#pragma once
// The gather family's dispatched ops (Note [Op declarations]): gather/scatter/index_* in
// gather_ops.cpp, repeat_interleave, one_hot, searchsorted, unique, embedding and masked_scatter in
// index_extra_ops.cpp, nonzero and masked_select in select_ops.cpp, embedding_bag in
// embedding_bag.cpp; derivatives in gather_grad.cpp.

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// gather_ops.cpp
BRASA_DECLARE_OP(gather_op, "gather",
                 "gather(Tensor self, int dim, Tensor index, bool sparse_grad) -> Tensor",
                 Tensor(const Tensor&, int64_t, const Tensor&, bool));
BRASA_DECLARE_OP(scatter_src_op, "scatter_.src",
                 "scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)",
                 Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&));
BRASA_DECLARE_OP(
    scatter_value_op, "scatter_.value",
    "scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
    Tensor(const Tensor&, int64_t, const Tensor&, const Scalar&));
BRASA_DECLARE_OP(scatter_add_op, "scatter_add_",
                 "scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)",
                 Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&));
BRASA_DECLARE_OP(scatter_reduce_op, "scatter_reduce.two",
                 "scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, "
                 "bool include_self) -> Tensor",
                 Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&, std::string, bool));
BRASA_DECLARE_OP(index_select_op, "index_select",
                 "index_select(Tensor self, int dim, Tensor index) -> Tensor",
                 Tensor(const Tensor&, int64_t, const Tensor&));
BRASA_DECLARE_OP(
    index_add_op, "index_add_",
    "index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, Scalar alpha) -> Tensor(a!)",
    Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&, const Scalar&));
BRASA_DECLARE_OP(index_copy_op, "index_copy_",
                 "index_copy_(Tensor(a!) self, int dim, Tensor index, Tensor source) -> Tensor(a!)",
                 Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&));
BRASA_DECLARE_OP(
    index_fill_op, "index_fill_",
    "index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
    Tensor(const Tensor&, int64_t, const Tensor&, const Scalar&));
BRASA_DECLARE_OP(take_op, "take", "take(Tensor self, Tensor index) -> Tensor",
                 Tensor(const Tensor&, const Tensor&));

// index_extra_ops.cpp
BRASA_DECLARE_OP(repeat_interleave_counts_op, "repeat_interleave.Tensor",
                 "repeat_interleave.Tensor(Tensor repeats) -> Tensor", Tensor(const Tensor&));
BRASA_ATEN(repeat_interleave_counts_op, "repeat_interleave.Tensor(repeats, int?=None)");
BRASA_DECLARE_OP(repeat_interleave_op, "repeat_interleave.self_Tensor",
                 "repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, std::optional<int64_t>));
BRASA_ATEN(repeat_interleave_op,
           "repeat_interleave.self_Tensor(self, repeats, int? dim, int?=None)");
BRASA_DECLARE_OP(one_hot_op, "one_hot", "one_hot(Tensor self, int num_classes) -> Tensor",
                 Tensor(const Tensor&, int64_t));
BRASA_DECLARE_OP(searchsorted_op, "searchsorted.Tensor",
                 "searchsorted.Tensor(Tensor sorted_sequence, Tensor self, bool out_int32, bool "
                 "right) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, bool, bool));
BRASA_ATEN(searchsorted_op,
           "searchsorted.Tensor(sorted_sequence, self, out_int32, right, str?=None, Tensor?=None)");
BRASA_DECLARE_OP(unique_op, "_unique2",
                 "_unique2(Tensor self, bool sorted, bool return_inverse, bool return_counts) -> "
                 "(Tensor, Tensor, Tensor)",
                 std::tuple<Tensor, Tensor, Tensor>(const Tensor&, bool, bool, bool));
BRASA_DECLARE_OP(embedding_op, "embedding",
                 "embedding(Tensor weight, Tensor indices, int padding_idx, bool "
                 "scale_grad_by_freq, bool sparse) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, int64_t, bool, bool));
BRASA_DECLARE_OP(masked_scatter_op, "masked_scatter",
                 "masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, const Tensor&));
BRASA_DECLARE_OP(embedding_renorm_op, "embedding_renorm_",
                 "embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float "
                 "norm_type) -> Tensor(a!)",
                 Tensor(const Tensor&, const Tensor&, double, double));

// select_ops.cpp
BRASA_DECLARE_OP(nonzero_op, "nonzero", "nonzero(Tensor self) -> Tensor", Tensor(const Tensor&));
BRASA_DECLARE_OP(masked_select_op, "masked_select",
                 "masked_select(Tensor self, Tensor mask) -> Tensor",
                 Tensor(const Tensor&, const Tensor&));

// embedding_bag.cpp
BRASA_DECLARE_OP(embedding_bag_op, "embedding_bag",
                 "embedding_bag(Tensor weight, Tensor indices, Tensor? offsets, str mode, Tensor? "
                 "per_sample_weights, bool include_last_offset, int? padding_idx) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, const Tensor&, std::string, const Tensor&,
                        bool, std::optional<int64_t>));
BRASA_ATEN(embedding_bag_op,
           "none: aten's embedding_bag takes mode as an int and returns four tensors (with "
           "offset2bag, bag_size and max_indices)");

}  // namespace brasa::ops
