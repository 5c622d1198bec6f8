#pragma once
// The rearrange family's dispatched ops (Note [Op declarations]): joins (cat, stack, meshgrid) in
// join_ops.cpp, reorders (flip, roll, tril, triu, repeat) in reorder_ops.cpp; derivatives in
// rearrange_grad.cpp.

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// join_ops.cpp
BRASA_DECLARE_OP(cat_op, "cat", "cat(Tensor[] tensors, int dim) -> Tensor",
                 Tensor(TensorList, int64_t));
BRASA_DECLARE_OP(stack_op, "stack", "stack(Tensor[] tensors, int dim) -> Tensor",
                 Tensor(TensorList, int64_t));
BRASA_DECLARE_OP(meshgrid_op, "meshgrid.indexing",
                 "meshgrid.indexing(Tensor[] tensors, str indexing) -> Tensor[]",
                 std::vector<Tensor>(TensorList, std::string));

// reorder_ops.cpp
BRASA_DECLARE_OP(flip_op, "flip", "flip(Tensor self, int[] dims) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(roll_op, "roll", "roll(Tensor self, int[] shifts, int[] dims) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, IntArrayRef));
BRASA_DECLARE_OP(tril_op, "tril", "tril(Tensor self, int diagonal) -> Tensor",
                 Tensor(const Tensor&, int64_t));
BRASA_DECLARE_OP(triu_op, "triu", "triu(Tensor self, int diagonal) -> Tensor",
                 Tensor(const Tensor&, int64_t));
BRASA_DECLARE_OP(repeat_op, "repeat", "repeat(Tensor self, int[] repeats) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));

}  // namespace brasa::ops
