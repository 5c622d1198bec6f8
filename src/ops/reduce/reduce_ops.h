#pragma once
// The reduction family's dispatched ops (Note [Op declarations]): sum/mean/prod (sum_ops.cpp),
// all/any/count_nonzero/allclose (logical_ops.cpp), amax/amin/max.dim/min.dim/argmax/argmin
// (minmax_ops.cpp), var/std/norm/logsumexp (stat_ops.cpp), cumsum/cumprod (scan_ops.cpp),
// softmax/log_softmax (softmax_ops.cpp), sort/topk (sort_ops.cpp). Each *_ops.cpp has its
// derivatives in the matching *_grad.cpp (sum_ops.cpp: reduce_grad.cpp).

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// sum_ops.cpp
BRASA_DECLARE_OP(
    sum_op, "sum",
    "sum(Tensor self, int[] dim, bool keepdim, ScalarType? dtype, Tensor? out) -> Tensor",
    Tensor(const Tensor&, IntArrayRef, bool, std::optional<ScalarType>, const Tensor&));
BRASA_ATEN(sum_op,
           "sum(self, dtype) if dim=[] keepdim=False out=None; "
           "sum.dim_IntList(self, int[]? dim, keepdim, dtype) if out=None; "
           "sum.IntList_out(self, int[]? dim, keepdim, dtype, out) if out=given");
BRASA_DECLARE_OP(
    mean_op, "mean",
    "mean(Tensor self, int[] dim, bool keepdim, ScalarType? dtype, Tensor? out) -> Tensor",
    Tensor(const Tensor&, IntArrayRef, bool, std::optional<ScalarType>, const Tensor&));
BRASA_ATEN(mean_op,
           "mean(self, dtype) if dim=[] keepdim=False out=None; "
           "mean.dim(self, int[]? dim, keepdim, dtype) if out=None; "
           "mean.out(self, int[]? dim, keepdim, dtype, out) if out=given");
BRASA_DECLARE_OP(
    prod_op, "prod",
    "prod(Tensor self, int[] dim, bool keepdim, ScalarType? dtype, Tensor? out) -> Tensor",
    Tensor(const Tensor&, IntArrayRef, bool, std::optional<ScalarType>, const Tensor&));
BRASA_ATEN(prod_op,
           "prod(self, dtype) if dim=[] keepdim=False out=None; "
           "prod.dim_int(self, int dim, keepdim, dtype) if out=None; "
           "prod.int_out(self, int dim, keepdim, dtype, out) if out=given");

// logical_ops.cpp
BRASA_DECLARE_OP(all_op, "all", "all(Tensor self, int[] dim, bool keepdim) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, bool));
BRASA_ATEN(all_op, "all(self) if dim=[] keepdim=False; all.dim(self, int dim, keepdim)");
BRASA_DECLARE_OP(any_op, "any", "any(Tensor self, int[] dim, bool keepdim) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, bool));
BRASA_ATEN(any_op, "any(self) if dim=[] keepdim=False; any.dim(self, int dim, keepdim)");
BRASA_DECLARE_OP(count_nonzero_op, "count_nonzero",
                 "count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef));
BRASA_DECLARE_OP(
    allclose_op, "allclose",
    "allclose(Tensor self, Tensor other, float rtol, float atol, bool equal_nan) -> bool",
    bool(const Tensor&, const Tensor&, double, double, bool));

// minmax_ops.cpp
BRASA_DECLARE_OP(amax_op, "amax",
                 "amax(Tensor self, int[] dim, bool keepdim, Tensor? out) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, bool, const Tensor&));
BRASA_ATEN(amax_op, "no in_place");
BRASA_DECLARE_OP(amin_op, "amin",
                 "amin(Tensor self, int[] dim, bool keepdim, Tensor? out) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, bool, const Tensor&));
BRASA_ATEN(amin_op, "no in_place");
BRASA_DECLARE_OP(max_dim_op, "max.dim",
                 "max.dim(Tensor self, int dim, bool keepdim) -> (Tensor values, Tensor indices)",
                 std::tuple<Tensor, Tensor>(const Tensor&, int64_t, bool));
BRASA_DECLARE_OP(min_dim_op, "min.dim",
                 "min.dim(Tensor self, int dim, bool keepdim) -> (Tensor values, Tensor indices)",
                 std::tuple<Tensor, Tensor>(const Tensor&, int64_t, bool));
BRASA_DECLARE_OP(argmax_op, "argmax", "argmax(Tensor self, int? dim, bool keepdim) -> Tensor",
                 Tensor(const Tensor&, std::optional<int64_t>, bool));
BRASA_DECLARE_OP(argmin_op, "argmin", "argmin(Tensor self, int? dim, bool keepdim) -> Tensor",
                 Tensor(const Tensor&, std::optional<int64_t>, bool));

// stat_ops.cpp
BRASA_DECLARE_OP(var_op, "var",
                 "var(Tensor self, int[] dim, int correction, bool keepdim) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, int64_t, bool));
BRASA_ATEN(var_op, "var.correction(self, int[]? dim, int? correction, keepdim)");
BRASA_DECLARE_OP(std_op, "std",
                 "std(Tensor self, int[] dim, int correction, bool keepdim) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, int64_t, bool));
BRASA_ATEN(std_op, "std.correction(self, int[]? dim, int? correction, keepdim)");
BRASA_DECLARE_OP(norm_op, "norm",
                 "norm.ScalarOpt_dim(Tensor self, Scalar? p, int[] dim, bool keepdim) -> Tensor",
                 Tensor(const Tensor&, std::optional<Scalar>, IntArrayRef, bool));
BRASA_DECLARE_OP(logsumexp_op, "logsumexp",
                 "logsumexp(Tensor self, int[] dim, bool keepdim) -> Tensor",
                 Tensor(const Tensor&, IntArrayRef, bool));

// scan_ops.cpp
BRASA_DECLARE_OP(cumsum_op, "cumsum", "cumsum(Tensor self, int dim, ScalarType? dtype) -> Tensor",
                 Tensor(const Tensor&, int64_t, std::optional<ScalarType>));
BRASA_DECLARE_OP(cumprod_op, "cumprod",
                 "cumprod(Tensor self, int dim, ScalarType? dtype) -> Tensor",
                 Tensor(const Tensor&, int64_t, std::optional<ScalarType>));

// softmax_ops.cpp
BRASA_DECLARE_OP(softmax_op, "softmax",
                 "softmax.int(Tensor self, int dim, ScalarType? dtype) -> Tensor",
                 Tensor(const Tensor&, int64_t, std::optional<ScalarType>));
BRASA_DECLARE_OP(log_softmax_op, "log_softmax",
                 "log_softmax.int(Tensor self, int dim, ScalarType? dtype) -> Tensor",
                 Tensor(const Tensor&, int64_t, std::optional<ScalarType>));

// sort_ops.cpp
BRASA_DECLARE_OP(sort_op, "sort",
                 "sort(Tensor self, int dim, bool descending) -> (Tensor values, Tensor indices)",
                 std::tuple<Tensor, Tensor>(const Tensor&, int64_t, bool));
BRASA_DECLARE_OP(topk_op, "topk",
                 "topk(Tensor self, int k, int dim, bool largest, bool sorted) -> (Tensor values, "
                 "Tensor indices)",
                 std::tuple<Tensor, Tensor>(const Tensor&, int64_t, int64_t, bool, bool));

}  // namespace brasa::ops
