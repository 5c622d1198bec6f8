"""View ops and indexing: results are checked with their strides (FLAG_CHECK_STRIDES), since a view's
geometry is part of its meaning."""

import torch

from common import SHORT, make_case, make_tensor
from fixture_format import FLAG_CHECK_STRIDES, Ellipsis_, Slice

DTYPES = [torch.float32, torch.int64, torch.bool, torch.float16]
S = FLAG_CHECK_STRIDES


def _index(items):
    return tuple(Ellipsis if isinstance(i, Ellipsis_) else i.py() if isinstance(i, Slice) else i for i in items)


def _view_cases(t, tag):
    c = []

    def add(op, label, fn, args, kwargs=None, flags=S):
        c.append(make_case(op, f"{tag} {label}", fn, [t] + list(args), kwargs, flags=flags))

    add("view", "[4, 6]", lambda x, s: x.view(s), [[4, 6]])
    add("view", "[-1]", lambda x, s: x.view(s), [[-1]])
    add("view", "[5, -1] bad", lambda x, s: x.view(s), [[5, -1]])
    add("reshape", "[3, 8]", lambda x, s: x.reshape(s), [[3, 8]])
    add("reshape", "[2, -1, 2]", lambda x, s: x.reshape(s), [[2, -1, 2]])
    add("unfold", "dim 2 size 2 step 1", lambda x, d, n, st: x.unfold(d, n, st), [2, 2, 1])
    add("unfold", "dim 0 size 2 step 3", lambda x, d, n, st: x.unfold(d, n, st), [0, 2, 3])
    add("unfold", "dim -2 size 3 step 2", lambda x, d, n, st: x.unfold(d, n, st), [-2, 3, 2])
    add("unfold", "dim 1 size 0", lambda x, d, n, st: x.unfold(d, n, st), [1, 0, 1])
    add("unfold", "size too large", lambda x, d, n, st: x.unfold(d, n, st), [1, 4, 1])
    add("unfold", "step 0", lambda x, d, n, st: x.unfold(d, n, st), [1, 2, 0])
    add("unfold", "dim out of range", lambda x, d, n, st: x.unfold(d, n, st), [3, 1, 1])
    add("flatten", "all", lambda x: x.flatten(), [])
    add("flatten", "1..2", lambda x, a, b: x.flatten(a, b), [1, 2])
    add("unflatten", "dim 2 [2, 2]", lambda x, d, s: x.unflatten(d, s), [2, [2, 2]])
    add("squeeze", "all", lambda x: x.squeeze(), [])
    add("unsqueeze", "dim 1", lambda x, d: x.unsqueeze(d), [1])
    add("unsqueeze", "dim -1", lambda x, d: x.unsqueeze(d), [-1])
    add("unsqueeze", "dim 5 bad", lambda x, d: x.unsqueeze(d), [5])
    add("transpose", "0, 2", lambda x, a, b: x.transpose(a, b), [0, 2])
    add("transpose", "-1, 1", lambda x, a, b: x.transpose(a, b), [-1, 1])
    add("permute", "[2, 0, 1]", lambda x, p: x.permute(p), [[2, 0, 1]])
    add("permute", "[0, 0, 1] bad", lambda x, p: x.permute(p), [[0, 0, 1]])
    add("movedim", "0 -> 2", lambda x, a, b: x.movedim(a, b), [0, 2])
    add("movedim", "[0, 1] -> [2, 0]", lambda x, a, b: x.movedim(a, b), [[0, 1], [2, 0]])
    add("narrow", "dim 1 start 1 len 2", lambda x, d, s, n: x.narrow(d, s, n), [1, 1, 2])
    add("narrow", "too long", lambda x, d, s, n: x.narrow(d, s, n), [1, 2, 5])
    add("select", "dim 0 index -1", lambda x, d, i: x.select(d, i), [0, -1])
    add("select", "out of range", lambda x, d, i: x.select(d, i), [2, 4])
    for args in ([1, 0, 3, 2], [2, None, None, 3], [0, -1, None, 1], [2, 1, 100, 1]):
        add("slice", f"{args}", lambda x, d, s, e, st: torch.ops.aten.slice(x, d, s, e, st), args)
    add("as_strided", "[3, 2] [1, 4] 1", lambda x, s, st, o: x.as_strided(s, st, o), [[3, 2], [1, 4], 1])
    add("chunk", "3 dim 1", lambda x, n, d: x.chunk(n, d), [3, 1])
    add("chunk", "2 dim 2", lambda x, n, d: x.chunk(n, d), [2, 2])
    add("split", "2 dim 1", lambda x, n, d: x.split(n, d), [2, 1])
    add("split", "[1, 3] dim 2", lambda x, n, d: x.split(n, d), [[1, 3], 2])
    add("split", "[1, 1] dim 2 bad", lambda x, n, d: x.split(n, d), [[1, 1], 2])
    add("unbind", "dim 1", lambda x, d: x.unbind(d), [1])
    add("diagonal", "0, 0, 1", lambda x, o, a, b: x.diagonal(o, a, b), [0, 0, 1])
    add("diagonal", "1, 1, 2", lambda x, o, a, b: x.diagonal(o, a, b), [1, 1, 2])
    add("diagonal", "-1, -1, 0", lambda x, o, a, b: x.diagonal(o, a, b), [-1, -1, 0])
    add("contiguous", "", lambda x: x.contiguous(), [])
    add("clone", "preserves strides", lambda x: x.clone(), [])
    add("expand", "[2, 2, 3, 4]", lambda x, s: x.expand(s), [[2, 2, 3, 4]])
    add("expand", "[2, -1, 3, 4]", lambda x, s: x.expand(s), [[2, -1, 3, 4]])
    indices = [
        [0], [-1, Slice(None, None, 2)], [Ellipsis_(), 1], [None, Slice(1, 3)], [Slice(None, None, -1)],
        [Slice(1, None), None, Ellipsis_(), Slice(None, 2)], [1, 2, 3], [True], [5],
        [Ellipsis_(), None], [0, Ellipsis_(), Ellipsis_()], [Slice(5, 10)],
    ]
    for items in indices:
        add("index", f"{items!r}", lambda x, idx: x[_index(idx)], [items])
    for items in ([0], [Slice(None, None, 2), 1], [Ellipsis_(), Slice(1, 3)], [None, 1]):
        add("index_put_", f"{items!r} scalar", _index_put, [items, 7], flags=0)
        add("index_put_", f"{items!r} tensor", _index_put, [items, make_tensor((4,), t.dtype)], flags=0)
    return c


def _index_put(x, items, value):
    x[_index(items)] = value
    return x


def _view_dtype_cases():
    """x.view(dtype): the same bytes as another dtype (Note [Dtype views]); not differentiable."""
    out = []
    as_dtype = lambda x, d: x.view(d)

    def add(label, t, d):
        out.append(make_case("view.dtype", label, as_dtype, [t, d], flags=S, grad=False))
    f32, i64, i32, i16 = torch.float32, torch.int64, torch.int32, torch.int16
    for src, dst in ((f32, i32), (i64, torch.float64), (torch.float16, i16), (f32, i16),
                     (i64, i32), (f32, torch.uint8), (i16, i32), (i32, i64),
                     (torch.complex64, i64), (torch.complex64, f32)):
        tag = f"{SHORT[src]} -> {SHORT[dst]}"
        add(f"{tag} contiguous", make_tensor((2, 3, 4), src), dst)
        add(f"{tag} rows every other", make_tensor((4, 4), src)[::2], dst)
        add(f"{tag} offset 2", make_tensor((3, 4), src)[1:], dst)
        add(f"{tag} empty", make_tensor((0, 4), src), dst)
        add(f"{tag} 0-d", make_tensor((), src), dst)
        add(f"{tag} transposed", make_tensor((4, 4), src, layout="transposed"), dst)
        add(f"{tag} last stride 2", make_tensor((2, 4), src, layout="strided"), dst)
    add("i16 -> i64 last dim 3", make_tensor((2, 3), i16), i64)
    add("i16 -> i64 offset 1", make_tensor((9,), i16)[1:5], i64)
    add("i16 -> i64 row stride 6", make_tensor((4, 6), i16)[:, :4], i64)
    add("i32 -> i32 same dtype", make_tensor((3,), i32), i32)
    return out


def cases():
    out = []
    for d in DTYPES:
        out += _view_cases(make_tensor((2, 3, 4), d), f"{SHORT[d]} contiguous")
        out += _view_cases(make_tensor((2, 3, 4), d, layout="transposed"), f"{SHORT[d]} transposed")
    for d in DTYPES[:2]:
        out += _view_cases(make_tensor((2, 3, 4), d, layout="strided"), f"{SHORT[d]} strided")
        t = make_tensor((1, 3, 1), d)
        out.append(make_case("squeeze", f"{SHORT[d]} dim 0", lambda x, i: x.squeeze(i), [t, 0], flags=S))
        out.append(make_case("squeeze", f"{SHORT[d]} dim 1 (not 1)", lambda x, i: x.squeeze(i), [t, 1], flags=S))
        out.append(make_case("t", f"{SHORT[d]} 2-d", lambda x: x.t(), [make_tensor((3, 4), d)], flags=S))
        out.append(make_case("t", f"{SHORT[d]} 1-d", lambda x: x.t(), [make_tensor((3,), d)], flags=S))
        out.append(make_case("t", f"{SHORT[d]} 3-d bad", lambda x: x.t(), [make_tensor((2, 3, 4), d)], flags=S))
        z = make_tensor((), d)
        out.append(make_case("view", f"{SHORT[d]} 0-d -> [1]", lambda x, s: x.view(s), [z, [1]], flags=S))
        out.append(make_case("unsqueeze", f"{SHORT[d]} 0-d", lambda x, i: x.unsqueeze(i), [z, 0], flags=S))
        unfold = lambda x, dim, n, st: x.unfold(dim, n, st)
        out.append(make_case("unfold", f"{SHORT[d]} 0-d", unfold, [z, 0, 1, 5], flags=S))
        out.append(make_case("unfold", f"{SHORT[d]} 0-d size 2", unfold, [z, -1, 2, 1], flags=S))
        out.append(make_case("unfold", f"{SHORT[d]} empty", unfold, [make_tensor((0, 4), d), 1, 2, 1], flags=S))
        out.append(make_case("unfold", f"{SHORT[d]} 1-d overlapping", unfold, [make_tensor((10,), d), 0, 4, 1],
                             flags=S))
        out.append(make_case("reshape", f"{SHORT[d]} empty", lambda x, s: x.reshape(s),
                             [make_tensor((0, 4), d), [2, 0, -1]], flags=S))
    out += _view_dtype_cases()
    return out
