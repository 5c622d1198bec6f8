// Op map of the shaping family (cases_shapeops.py). Ops over a list of tensors take every
// positional tensor argument as the list.
#include "brasa/ops/shaping.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

/// The leading positional tensor arguments.

std::optional<int64_t> opt_int(const Args& a, size_t i) {
  if (i >= a.size() || a.at(i).tag == Tag::None) return std::nullopt;
  return a.integer(i);
}

int64_t int_or(const Args& a, size_t i, int64_t fallback) {
  return opt_int(a, i).value_or(fallback);
}

bool bool_or(const Args& a, size_t i, bool fallback) { return i < a.size() ? a.at(i).b : fallback; }

Value triple(const std::tuple<Tensor, Tensor, Tensor>& t) {
  return Value::of_tensors({std::get<0>(t), std::get<1>(t), std::get<2>(t)});
}

/// An int argument (sections) or a list (indices) of a split.
template <typename F>
Value split_by(const Args& a, F f) {
  if (a.at(1).tag == Tag::Int) return Value::of_tensors(f(a.tensor(0), a.integer(1)));
  return Value::of_tensors(f(a.tensor(0), IntArrayRef(a.ints(1))));
}

const OpTable kShapeOps(
    "shapeops",
    {
        {"diag", [](const Args& a) -> Value { return diag(a.tensor(0), int_or(a, 1, 0)); }},
        {"diag_embed",
         [](const Args& a) -> Value {
           return diag_embed(a.tensor(0), int_or(a, 1, 0), int_or(a, 2, -2), int_or(a, 3, -1));
         }},
        {"diagflat", [](const Args& a) -> Value { return diagflat(a.tensor(0), int_or(a, 1, 0)); }},
        {"diagonal_scatter",
         [](const Args& a) -> Value {
           return diagonal_scatter(a.tensor(0), a.tensor(1), int_or(a, 2, 0), int_or(a, 3, 0),
                                   int_or(a, 4, 1));
         }},
        {"select_scatter",
         [](const Args& a) -> Value {
           return select_scatter(a.tensor(0), a.tensor(1), a.integer(2), a.integer(3));
         }},
        {"slice_scatter",
         [](const Args& a) -> Value {
           return slice_scatter(a.tensor(0), a.tensor(1), int_or(a, 2, 0), opt_int(a, 3),
                                opt_int(a, 4), int_or(a, 5, 1));
         }},
        {"as_strided_scatter",
         [](const Args& a) -> Value {
           return as_strided_scatter(a.tensor(0), a.tensor(1), a.ints(2), a.ints(3), opt_int(a, 4));
         }},
        {"block_diag", [](const Args& a) -> Value { return block_diag(tensor_args(a)); }},
        {"broadcast_tensors",
         [](const Args& a) -> Value {
           return Value::of_tensors(broadcast_tensors(tensor_args(a)));
         }},
        {"cartesian_prod", [](const Args& a) -> Value { return cartesian_prod(tensor_args(a)); }},
        {"combinations",
         [](const Args& a) -> Value {
           return combinations(a.tensor(0), int_or(a, 1, 2), bool_or(a, 2, false));
         }},
        {"column_stack", [](const Args& a) -> Value { return column_stack(tensor_args(a)); }},
        {"row_stack", [](const Args& a) -> Value { return row_stack(tensor_args(a)); }},
        {"dstack", [](const Args& a) -> Value { return dstack(tensor_args(a)); }},
        {"atleast_3d",
         [](const Args& a) -> Value { return Value::of_tensors(atleast_3d(tensor_args(a))); }},
        {"concatenate",
         [](const Args& a) -> Value {
           return concatenate({a.tensor(0), a.tensor(1)}, a.integer(2));
         }},
        {"tensor_split",
         [](const Args& a) -> Value {
           const int64_t dim = int_or(a, 2, 0);
           if (a.is_tensor(1))
             return Value::of_tensors(tensor_split(a.tensor(0), a.tensor(1), dim));
           if (a.at(1).tag == Tag::Int) {
             return Value::of_tensors(tensor_split(a.tensor(0), a.integer(1), dim));
           }
           return Value::of_tensors(tensor_split(a.tensor(0), IntArrayRef(a.ints(1)), dim));
         }},
        {"hsplit",
         [](const Args& a) -> Value {
           return split_by(a, [](const Tensor& t, auto s) { return hsplit(t, s); });
         }},
        {"vsplit",
         [](const Args& a) -> Value {
           return split_by(a, [](const Tensor& t, auto s) { return vsplit(t, s); });
         }},
        {"dsplit",
         [](const Args& a) -> Value {
           return split_by(a, [](const Tensor& t, auto s) { return dsplit(t, s); });
         }},
        {"unsafe_chunk",
         [](const Args& a) -> Value {
           return Value::of_tensors(unsafe_chunk(a.tensor(0), a.integer(1), int_or(a, 2, 0)));
         }},
        {"unsafe_split",
         [](const Args& a) -> Value {
           return Value::of_tensors(unsafe_split(a.tensor(0), a.integer(1), int_or(a, 2, 0)));
         }},
        {"unsafe_split_with_sizes",
         [](const Args& a) -> Value {
           return Value::of_tensors(
               unsafe_split_with_sizes(a.tensor(0), a.ints(1), int_or(a, 2, 0)));
         }},
        {"fliplr", [](const Args& a) -> Value { return fliplr(a.tensor(0)); }},
        {"flipud", [](const Args& a) -> Value { return flipud(a.tensor(0)); }},
        {"rot90",
         [](const Args& a) -> Value {
           const std::vector<int64_t> dims = a.size() > 2 ? a.ints(2) : std::vector<int64_t>{0, 1};
           return rot90(a.tensor(0), int_or(a, 1, 1), dims);
         }},
        {"ravel", [](const Args& a) -> Value { return ravel(a.tensor(0)); }},
        {"msort", [](const Args& a) -> Value { return msort(a.tensor(0)); }},
        {"adjoint", [](const Args& a) -> Value { return adjoint(a.tensor(0)); }},
        {"resolve_neg", [](const Args& a) -> Value { return resolve_neg(a.tensor(0)); }},
        {"is_same_size",
         [](const Args& a) -> Value {
           return Value::of_bool(is_same_size(a.tensor(0), a.tensor(1)));
         }},
        {"is_nonzero",
         [](const Args& a) -> Value { return Value::of_bool(is_nonzero(a.tensor(0))); }},
        {"argwhere", [](const Args& a) -> Value { return argwhere(a.tensor(0)); }},
        {"nonzero_numpy",
         [](const Args& a) -> Value { return Value::of_tensors(nonzero_numpy(a.tensor(0))); }},
        {"take_along_dim",
         [](const Args& a) -> Value {
           return take_along_dim(a.tensor(0), a.tensor(1), opt_int(a, 2));
         }},
        {"put",
         [](const Args& a) -> Value {
           return put(a.tensor(0), a.tensor(1), a.tensor(2), bool_or(a, 3, false));
         }},
        {"index_reduce",
         [](const Args& a) -> Value {
           return index_reduce(a.tensor(0), a.integer(1), a.tensor(2), a.tensor(3), a.at(4).s,
                               a.kw_bool("include_self").value_or(true));
         }},
        {"tril_indices",
         [](const Args& a) -> Value {
           return tril_indices(a.integer(0), a.integer(1), int_or(a, 2, 0),
                               a.kw_dtype("dtype").value_or(kLong));
         }},
        {"triu_indices",
         [](const Args& a) -> Value {
           return triu_indices(a.integer(0), a.integer(1), int_or(a, 2, 0),
                               a.kw_dtype("dtype").value_or(kLong));
         }},
        {"range",
         [](const Args& a) -> Value {
           return range(a.scalar(0), a.scalar(1), a.scalar(2), a.options());
         }},
        {"vander",
         [](const Args& a) -> Value {
           return vander(a.tensor(0), a.kw_int("N"), a.kw_bool("increasing").value_or(false));
         }},
        {"unique_consecutive",
         [](const Args& a) -> Value {
           return triple(unique_consecutive(a.tensor(0), bool_or(a, 1, false), bool_or(a, 2, false),
                                            opt_int(a, 3)));
         }},
        {"unique_dim_consecutive",
         [](const Args& a) -> Value {
           return triple(unique_dim_consecutive(a.tensor(0), a.integer(1)));
         }},
        {"unique_dim",
         [](const Args& a) -> Value { return triple(unique_dim(a.tensor(0), a.integer(1))); }},
    });

}  // namespace
}  // namespace brasa::conformance
