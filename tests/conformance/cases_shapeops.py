"""Shaping ops beyond views (brasa/ops/shaping.h): diagonals, *_scatter, joins, splits, flips and
rotations, index producers and the unique variants. Ops over a list of tensors take them as
separate arguments here, so that each gets a gradient. Every op: float (with gradients), integer
and bool inputs where PyTorch has them, transposed/strided/expanded layouts, 0-d and empty inputs,
and the errors PyTorch raises."""

import torch

from common import SHORT, make_case, make_tensor, domain_small

A = torch.ops.aten
DTYPES = [torch.float32, torch.float64, torch.int64, torch.bool]
LAYOUTS = ["contiguous", "transposed", "strided", "expanded"]


def _t(shape, dtype=torch.float32, layout="contiguous"):
    return make_tensor(shape, dtype, domain_small, layout)


def _long(values):
    return torch.tensor(values, dtype=torch.int64)


def _diag_cases(out):
    for d in DTYPES:
        s = SHORT[d]
        for la in LAYOUTS:
            m = _t((4, 5), d, la)
            out.append(make_case("diag", f"{s} {la} 2-d", torch.diag, [m]))
            out.append(make_case("diag", f"{s} {la} 2-d offset -2", torch.diag, [m, -2]))
            out.append(make_case("diag_embed", f"{s} {la}", torch.diag_embed, [_t((2, 3, 4), d, la)]))
            out.append(make_case("diagonal_scatter", f"{s} {la}", torch.diagonal_scatter,
                                 [m, _t((4,), d, la)]))
        v = _t((4,), d, "strided")
        out.append(make_case("diag", f"{s} 1-d", torch.diag, [v]))
        out.append(make_case("diag", f"{s} 1-d offset 2", torch.diag, [v, 2]))
        out.append(make_case("diag", f"{s} 1-d offset -1", torch.diag, [v, -1]))
        out.append(make_case("diag", f"{s} empty", torch.diag, [_t((0,), d)]))
        out.append(make_case("diag", f"{s} 0-d bad", torch.diag, [_t((), d)]))
        out.append(make_case("diag", f"{s} 3-d bad", torch.diag, [_t((2, 2, 2), d)]))
        x = _t((2, 3), d, "transposed")
        out.append(make_case("diag_embed", f"{s} offset 1 dims 0 2", torch.diag_embed, [x, 1, 0, 2]))
        out.append(make_case("diag_embed", f"{s} offset -2 dims -1 0", torch.diag_embed, [x, -2, -1, 0]))
        out.append(make_case("diag_embed", f"{s} same dims bad", torch.diag_embed, [x, 0, 1, 1]))
        out.append(make_case("diag_embed", f"{s} empty", torch.diag_embed, [_t((0, 3), d)]))
        out.append(make_case("diagflat", f"{s} 2-d", torch.diagflat, [x]))
        out.append(make_case("diagflat", f"{s} 0-d offset 1", torch.diagflat, [_t((), d), 1]))
        out.append(make_case("diagflat", f"{s} offset -1", torch.diagflat, [_t((3,), d), -1]))
        out.append(make_case("diagonal_scatter", f"{s} offset 1 dims 2 0", torch.diagonal_scatter,
                             [_t((3, 2, 4), d), _t((2, 2), d), 1, 2, 0]))
        out.append(make_case("diagonal_scatter", f"{s} bad src", torch.diagonal_scatter,
                             [_t((3, 3), d), _t((2,), d)]))
        y = _t((3, 4, 5), d, "transposed")
        out.append(make_case("select_scatter", f"{s} dim 1 index -1", torch.select_scatter,
                             [y, _t((3, 5), d), 1, -1]))
        out.append(make_case("select_scatter", f"{s} bad index", torch.select_scatter,
                             [y, _t((3, 5), d), 1, 4]))
        out.append(make_case("select_scatter", f"{s} bad src", torch.select_scatter,
                             [y, _t((3, 4), d), 1, 0]))
        out.append(make_case("slice_scatter", f"{s} dim 2 1:5:2", torch.slice_scatter,
                             [y, _t((3, 4, 2), d, "strided"), 2, 1, 5, 2]))
        out.append(make_case("slice_scatter", f"{s} dim 0 whole", torch.slice_scatter, [y, _t((3, 4, 5), d), 0, 0, 3, 1]))
        out.append(make_case("slice_scatter", f"{s} dim 0 start -1", torch.slice_scatter,
                             [y, _t((1, 4, 5), d), 0, -1, 3, 1]))
        out.append(make_case("slice_scatter", f"{s} bad src", torch.slice_scatter,
                             [y, _t((3, 4, 2), d), 2, 0, 3, 1]))
        # No gradients: PyTorch 1.13's as_strided_scatter backward returns uninitialised memory.
        out.append(make_case("as_strided_scatter", f"{s}", torch.as_strided_scatter,
                             [_t((4, 5), d), _t((3, 2), d), [3, 2], [1, 5], 2], grad=False))
        out.append(make_case("as_strided_scatter", f"{s} bad src", torch.as_strided_scatter,
                             [_t((4, 5), d), _t((2, 2), d), [3, 2], [1, 5]]))


def _join_cases(out):
    for d in DTYPES:
        s = SHORT[d]
        out.append(make_case("block_diag", f"{s} 0-d 1-d 2-d", lambda *xs: torch.block_diag(*xs),
                             [_t((), d), _t((3,), d, "strided"), _t((2, 4), d, "transposed"), _t((0, 2), d)]))
        out.append(make_case("broadcast_tensors", f"{s}", lambda *xs: torch.broadcast_tensors(*xs),
                             [_t((3, 1), d, "transposed"), _t((4,), d), _t((), d)]))
        out.append(make_case("cartesian_prod", f"{s} 3 inputs", lambda *xs: torch.cartesian_prod(*xs),
                             [_t((2,), d), _t((3,), d, "strided"), _t((2,), d)]))
        out.append(make_case("cartesian_prod", f"{s} 1 input", lambda *xs: torch.cartesian_prod(*xs),
                             [_t((3,), d)]))
        v = _t((5,), d, "strided")
        out.append(make_case("combinations", f"{s} r 2", torch.combinations, [v]))
        out.append(make_case("combinations", f"{s} r 3 replacement", torch.combinations, [v, 3, True]))
        out.append(make_case("combinations", f"{s} r 6", torch.combinations, [v, 6]))
        out.append(make_case("combinations", f"{s} r 0", torch.combinations, [v, 0]))
        out.append(make_case("combinations", f"{s} empty", torch.combinations, [_t((0,), d)]))
        out.append(make_case("column_stack", f"{s}", lambda *xs: torch.column_stack(xs),
                             [_t((), d), _t((1,), d), _t((1, 2), d, "transposed")]))
        out.append(make_case("column_stack", f"{s} 1-d", lambda *xs: torch.column_stack(xs),
                             [_t((3,), d), _t((3,), d, "strided")]))
        out.append(make_case("row_stack", f"{s}", lambda *xs: torch.row_stack(xs),
                             [_t((3,), d), _t((2, 3), d, "transposed")]))
        out.append(make_case("dstack", f"{s}", lambda *xs: torch.dstack(xs),
                             [_t((2, 3), d), _t((2, 3, 2), d, "transposed")]))
        out.append(make_case("dstack", f"{s} 0-d 1-d", lambda *xs: torch.dstack(xs),
                             [_t((1,), d), _t((), d)]))
        out.append(make_case("atleast_3d", f"{s} 0-d 1-d 2-d 4-d", lambda *xs: torch.atleast_3d(xs),
                             [_t((), d), _t((3,), d), _t((2, 3), d, "transposed"), _t((1, 2, 1, 2), d)]))
        out.append(make_case("concatenate", f"{s} dim 1", lambda a, b, dim: torch.concatenate([a, b], dim),
                             [_t((2, 3), d), _t((2, 1), d, "expanded"), 1]))
    f = _t((2, 2))
    out.append(make_case("block_diag", "f32 3-d bad", lambda *xs: torch.block_diag(*xs), [f, _t((1, 2, 2))]))
    out.append(make_case("block_diag", "mixed dtypes", lambda *xs: torch.block_diag(*xs),
                         [f, _t((2,), torch.int32), _t((1, 1), torch.float64)]))
    out.append(make_case("broadcast_tensors", "bad", lambda *xs: torch.broadcast_tensors(*xs),
                         [_t((3,)), _t((4,))]))
    out.append(make_case("cartesian_prod", "2-d bad", lambda *xs: torch.cartesian_prod(*xs), [f, _t((3,))]))
    out.append(make_case("combinations", "2-d bad", torch.combinations, [f]))
    out.append(make_case("combinations", "r -1 bad", torch.combinations, [_t((3,)), -1]))
    out.append(make_case("dstack", "bad sizes", lambda *xs: torch.dstack(xs), [f, _t((3, 2))]))


def _split_cases(out):
    for d in (torch.float32, torch.int64):
        s = SHORT[d]
        for la in ("contiguous", "transposed", "strided"):
            x = _t((4, 7, 6), d, la)
            out.append(make_case("tensor_split", f"{s} {la} 3 dim 1", torch.tensor_split, [x, 3, 1]))
            out.append(make_case("tensor_split", f"{s} {la} [1, 5, 20] dim -1", torch.tensor_split,
                                 [x, [1, 5, 20], -1]))
            out.append(make_case("hsplit", f"{s} {la} 7", torch.hsplit, [x, 7]))
            out.append(make_case("vsplit", f"{s} {la} [3]", torch.vsplit, [x, [3]]))
            out.append(make_case("dsplit", f"{s} {la} 2", torch.dsplit, [x, 2]))
            out.append(make_case("vsplit", f"{s} {la} 2", torch.vsplit, [x, 2]))
            out.append(make_case("dsplit", f"{s} {la} [1, 4]", torch.dsplit, [x, [1, 4]]))
            out.append(make_case("hsplit", f"{s} {la} [2, 2]", torch.hsplit, [x, [2, 2]]))
        x = _t((5, 4), d)
        out.append(make_case("tensor_split", f"{s} 7 sections", torch.tensor_split, [x, 7]))
        out.append(make_case("tensor_split", f"{s} [3, 1] indices", torch.tensor_split, [x, [3, 1]]))
        out.append(make_case("tensor_split", f"{s} [-2] indices", torch.tensor_split, [x, [-2]]))
        out.append(make_case("tensor_split", f"{s} tensor sections", torch.tensor_split, [x, _long(2)]))
        out.append(make_case("tensor_split", f"{s} tensor indices", torch.tensor_split, [x, _long([1, 4]), 1]))
        out.append(make_case("tensor_split", f"{s} empty dim", torch.tensor_split, [_t((0, 4), d), 2]))
        out.append(make_case("hsplit", f"{s} 1-d [2]", torch.hsplit, [_t((5,), d), [2]]))
        out.append(make_case("unsafe_chunk", f"{s} 3 dim 1", torch.unsafe_chunk, [_t((3, 7), d, "transposed"), 3, 1]))
        out.append(make_case("unsafe_split", f"{s} 2", torch.unsafe_split, [_t((5, 3), d, "strided"), 2]))
        out.append(make_case("unsafe_split_with_sizes", f"{s} [1, 2] dim 1", torch.unsafe_split_with_sizes,
                             [_t((3, 3), d), [1, 2], 1]))
    x = _t((4, 6))
    out.append(make_case("tensor_split", "0 sections bad", torch.tensor_split, [x, 0]))
    out.append(make_case("tensor_split", "0-d bad", torch.tensor_split, [_t(()), 2]))
    out.append(make_case("tensor_split", "float tensor bad", torch.tensor_split, [x, torch.tensor(2.0)]))
    out.append(make_case("tensor_split", "2-d tensor bad", torch.tensor_split, [x, _long([[1]])]))
    out.append(make_case("hsplit", "not divisible bad", torch.hsplit, [x, 4]))
    out.append(make_case("vsplit", "1-d bad", torch.vsplit, [_t((4,)), 2]))
    out.append(make_case("dsplit", "2-d bad", torch.dsplit, [x, 2]))
    out.append(make_case("unsafe_split_with_sizes", "bad sizes", torch.unsafe_split_with_sizes, [x, [1, 2]]))


def _orient_cases(out):
    for d in DTYPES:
        s = SHORT[d]
        for la in LAYOUTS:
            x = _t((3, 4, 2), d, la)
            out.append(make_case("fliplr", f"{s} {la}", torch.fliplr, [x]))
            out.append(make_case("flipud", f"{s} {la}", torch.flipud, [x]))
            for k in (1, 2, 3, 4, -1):
                out.append(make_case("rot90", f"{s} {la} k {k}", torch.rot90, [x, k]))
            out.append(make_case("rot90", f"{s} {la} k 1 dims [2, 0]", torch.rot90, [x, 1, [2, 0]]))
            out.append(make_case("ravel", f"{s} {la}", torch.ravel, [x]))
            out.append(make_case("msort", f"{s} {la}", torch.msort, [x]))
            out.append(make_case("adjoint", f"{s} {la}", torch.adjoint, [x]))
        out.append(make_case("fliplr", f"{s} 1-d bad", torch.fliplr, [_t((3,), d)]))
        out.append(make_case("flipud", f"{s} 0-d bad", torch.flipud, [_t((), d)]))
        out.append(make_case("flipud", f"{s} empty", torch.flipud, [_t((0, 2), d)]))
        out.append(make_case("ravel", f"{s} 0-d", torch.ravel, [_t((), d)]))
        out.append(make_case("msort", f"{s} 1-d", torch.msort, [_t((6,), d, "strided")]))
        out.append(make_case("adjoint", f"{s} 1-d bad", torch.adjoint, [_t((3,), d)]))
        out.append(make_case("resolve_neg", f"{s}", torch.resolve_neg, [_t((2, 3), d, "transposed")]))
    x = _t((3, 4))
    out.append(make_case("rot90", "3 dims bad", torch.rot90, [x, 1, [0, 1, 0]]))
    out.append(make_case("rot90", "same dims bad", torch.rot90, [x, 1, [1, 1]]))
    out.append(make_case("rot90", "1-d bad", torch.rot90, [_t((3,))]))
    out.append(make_case("rot90", "dim out of range bad", torch.rot90, [x, 1, [0, 2]]))
    out.append(make_case("adjoint", "complex", torch.adjoint,
                         [torch.randn(2, 3, dtype=torch.complex64, generator=torch.Generator().manual_seed(5))]))
    for a, b, tag in [((2, 3), (2, 3), "same"), ((2, 3), (3, 2), "different"), ((), (1,), "0-d vs 1-d")]:
        out.append(make_case("is_same_size", tag, torch.Tensor.is_same_size, [_t(a), _t(b, torch.int64)]))
    for t, tag in [(torch.tensor(0.0), "zero"), (torch.tensor([2]), "one"), (torch.tensor(True), "true"),
                   (torch.tensor(float("nan")), "nan"), (torch.zeros(2), "two bad"), (torch.zeros(0), "empty bad")]:
        out.append(make_case("is_nonzero", tag, torch.is_nonzero, [t]))


def _index_cases(out):
    for d in (torch.float32, torch.float64, torch.int64):
        s = SHORT[d]
        for la in ("contiguous", "transposed", "strided"):
            x = _t((4, 5), d, la)
            out.append(make_case("argwhere", f"{s} {la}", torch.argwhere, [x]))
            idx = torch.randint(0, 4, (2, 5), generator=torch.Generator().manual_seed(3))
            out.append(make_case("take_along_dim", f"{s} {la} dim 0", torch.take_along_dim, [x, idx, 0]))
            out.append(make_case("take_along_dim", f"{s} {la} bcast dim 1", torch.take_along_dim,
                                 [x, _long([[0, 4, 2]]), 1]))
            # Whether the flat view exists depends on the layout: no error memo (Note [Error memo]).
            out.append(make_case("take_along_dim", f"{s} {la} flat", torch.take_along_dim, [x, _long([19, 0, 3])],
                                 cache_errors=False))
            out.append(make_case("put", f"{s} {la}", torch.put, [x, _long([[0, -1], [7, 3]]), _t((4,), d)]))
            out.append(make_case("put", f"{s} {la} accumulate repeats", torch.put,
                                 [x, _long([1, 1, 2]), _t((3,), d), True]))
            for reduce in ("prod", "mean", "amax", "amin"):
                for include_self in (True, False):
                    out.append(make_case("index_reduce", f"{s} {la} {reduce} include_self {include_self}",
                                         torch.index_reduce,
                                         [x, 1, _long([0, 4, 0]), _t((4, 3), d), reduce],
                                         {"include_self": include_self}))
        out.append(make_case("argwhere", f"{s} 0-d", torch.argwhere, [_t((), d)]))
        out.append(make_case("nonzero_numpy", f"{s} transposed", A.nonzero_numpy, [_t((3, 4), d, "transposed")]))
        out.append(make_case("nonzero_numpy", f"{s} 0-d", A.nonzero_numpy, [_t((), d)]))
        out.append(make_case("nonzero_numpy", f"{s} empty", A.nonzero_numpy, [_t((0, 2), d)]))
        out.append(make_case("argwhere", f"{s} empty", torch.argwhere, [_t((0, 3), d)]))
        out.append(make_case("put", f"{s} 0-d", torch.put, [_t((), d), _long([0]), _t((1,), d)]))
        out.append(make_case("put", f"{s} empty index", torch.put, [_t((2,), d), _long([]), _t((0,), d)]))
        out.append(make_case("index_reduce", f"{s} dim 0 int32 index", torch.index_reduce,
                             [_t((3, 2), d), 0, torch.tensor([2, 2], dtype=torch.int32), _t((2, 2), d), "amax"]))
    x = _t((4, 5))
    out.append(make_case("argwhere", "bool", torch.argwhere, [_t((3, 3), torch.bool, "transposed")]))
    out.append(make_case("take_along_dim", "int32 indices bad", torch.take_along_dim,
                         [x, torch.tensor([[0]], dtype=torch.int32), 0]))
    out.append(make_case("take_along_dim", "rank bad", torch.take_along_dim, [x, _long([0]), 0]))
    out.append(make_case("take_along_dim", "out of range bad", torch.take_along_dim, [x, _long([[9]]), 0]))
    out.append(make_case("put", "out of range bad", torch.put, [x, _long([20]), _t((1,))]))
    out.append(make_case("put", "numel bad", torch.put, [x, _long([1, 2]), _t((1,))]))
    out.append(make_case("put", "dtype bad", torch.put, [x, _long([1]), _t((1,), torch.float64)]))
    out.append(make_case("put", "float index bad", torch.put, [x, torch.tensor([1.0]), _t((1,))]))
    out.append(make_case("index_reduce", "sum bad", torch.index_reduce, [x, 0, _long([0]), _t((1, 5)), "sum"]))
    out.append(make_case("index_reduce", "count bad", torch.index_reduce, [x, 0, _long([0, 1]), _t((1, 5)), "prod"]))
    for fn, name in ((torch.tril_indices, "tril_indices"), (torch.triu_indices, "triu_indices")):
        for args in ([3, 3], [4, 3, 1], [3, 5, -1], [0, 3], [3, 4, 10], [2, 2, -5]):
            out.append(make_case(name, f"{args}", fn, args))
        out.append(make_case(name, "int32", fn, [3, 4], {"dtype": torch.int32}))
        out.append(make_case(name, "negative bad", fn, [-1, 3]))
    for args, kw in [([0, 1, 0.3], {}), ([0, 5, 1], {}), ([5, 0, -2], {}), ([1, 2, 0.25], {"dtype": torch.float64}),
                     ([-2, 7, 3], {"dtype": torch.int64}), ([0, 4, 1], {"dtype": torch.int32}),
                     ([0, 1, 0], {}), ([0, 5, -1], {})]:
        out.append(make_case("range", f"{args} {kw}", torch.range, args, kw))
    for d in (torch.float32, torch.float64, torch.int64, torch.int32, torch.bool):
        s = SHORT[d]
        v = _t((4,), d, "strided")
        out.append(make_case("vander", f"{s}", torch.vander, [v]))
        out.append(make_case("vander", f"{s} N 3 increasing", torch.vander, [v], {"N": 3, "increasing": True}))
        out.append(make_case("vander", f"{s} N 0", torch.vander, [v], {"N": 0}))
        out.append(make_case("vander", f"{s} N 1", torch.vander, [v], {"N": 1}))
    out.append(make_case("vander", "empty", torch.vander, [_t((0,))]))
    out.append(make_case("vander", "2-d bad", torch.vander, [_t((2, 2))]))
    out.append(make_case("vander", "N -1 bad", torch.vander, [_t((2,))], {"N": -1}))


def _unique_cases(out):
    g = torch.Generator().manual_seed(7)
    for d in (torch.float32, torch.int64, torch.bool):
        s = SHORT[d]
        x = torch.randint(0, 3, (4, 6), generator=g).to(d)
        x[1] = x[0]
        xt = x.t().contiguous().t()
        for t, la in ((x, "contiguous"), (xt, "transposed")):
            for ri, rc in ((False, False), (True, True), (True, False)):
                out.append(make_case("unique_consecutive", f"{s} {la} inverse {ri} counts {rc}",
                                     A.unique_consecutive, [t, ri, rc], grad=False))
            out.append(make_case("unique_consecutive", f"{s} {la} dim 0", A.unique_consecutive,
                                 [t, True, True, 0], grad=False))
            out.append(make_case("unique_consecutive", f"{s} {la} dim -1", A.unique_consecutive,
                                 [t, False, False, -1], grad=False))
            out.append(make_case("unique_dim_consecutive", f"{s} {la} dim 0", A.unique_dim_consecutive,
                                 [t, 0], grad=False))
            for dim in (0, 1, -1):
                out.append(make_case("unique_dim", f"{s} {la} dim {dim}", A.unique_dim, [t, dim], grad=False))
        out.append(make_case("unique_dim", f"{s} 1-d", A.unique_dim, [x.reshape(-1), 0], grad=False))
        out.append(make_case("unique_consecutive", f"{s} 0-d", A.unique_consecutive, [x[0, 0], True, True],
                             grad=False))
        out.append(make_case("unique_consecutive", f"{s} 1-d dim 0", A.unique_consecutive,
                             [x[0], True, True, 0], grad=False))
        e = torch.zeros(0, 3, dtype=d)
        out.append(make_case("unique_consecutive", f"{s} empty", A.unique_consecutive, [e, True, True], grad=False))
        out.append(make_case("unique_dim", f"{s} empty dim 0", A.unique_dim, [e, 0], grad=False))
        out.append(make_case("unique_dim", f"{s} empty dim 1 bad", A.unique_dim, [e, 1], grad=False))
        out.append(make_case("unique_dim_consecutive", f"{s} empty dim 0", A.unique_dim_consecutive, [e, 0],
                             grad=False))
    out.append(make_case("unique_dim", "dim out of range bad", A.unique_dim, [_t((2, 2)), 2], grad=False))


def cases():
    out = []
    _diag_cases(out)
    _join_cases(out)
    _split_cases(out)
    _orient_cases(out)
    _index_cases(out)
    _unique_cases(out)
    return out
