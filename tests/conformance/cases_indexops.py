"""Indexing and shaping ops: cat/stack/hstack/vstack/meshgrid, flip/roll/tril/triu/repeat/tile,
gather/scatter/scatter_add, index_select/index_add/index_copy/index_fill, take, masked_select,
nonzero. Index tensors are fixed literals (no duplicates where the write order would matter), and
each op also gets an out-of-range index case (PyTorch raises, brasa must throw)."""

import torch

from common import LAYOUTS, SHORT, make_case, make_tensor

DTYPES = [torch.float32, torch.int64, torch.bool, torch.float16, torch.uint8, torch.float64]


def _long(v):
    return torch.tensor(v, dtype=torch.long)


def _shape_cases(x, tag):
    d = x.dtype
    c = []

    def add(op, label, fn, args):
        c.append(make_case(op, f"{tag} {label}", fn, args))

    add("cat", "dim 0", lambda ts, dim: torch.cat(ts, dim), [[x, make_tensor((2, 4), d)], 0])
    add("cat", "dim -1", lambda ts, dim: torch.cat(ts, dim), [[x, make_tensor((3, 2), d, layout="transposed")], -1])
    add("cat", "promote f64", lambda ts, dim: torch.cat(ts, dim), [[x, make_tensor((1, 4), torch.float64)], 0])
    add("cat", "legacy empty", lambda ts, dim: torch.cat(ts, dim), [[make_tensor((0,), d), x], 1])
    add("cat", "bad sizes", lambda ts, dim: torch.cat(ts, dim), [[x, make_tensor((3, 3), d)], 0])
    add("stack", "dim 1", lambda ts, dim: torch.stack(ts, dim), [[x, make_tensor((3, 4), d)], 1])
    add("stack", "dim -1", lambda ts, dim: torch.stack(ts, dim), [[x, x], -1])
    add("stack", "bad sizes", lambda ts, dim: torch.stack(ts, dim), [[x, make_tensor((4, 3), d)], 0])
    add("hstack", "", lambda ts: torch.hstack(ts), [[x, make_tensor((3, 1), d)]])
    add("vstack", "", lambda ts: torch.vstack(ts), [[x, make_tensor((4,), d)]])
    add("flip", "[0]", lambda t, dims: t.flip(dims), [x, [0]])
    add("flip", "[-1, 0]", lambda t, dims: t.flip(dims), [x, [-1, 0]])
    add("flip", "dup bad", lambda t, dims: t.flip(dims), [x, [1, 1]])
    add("roll", "flat 5", lambda t, s: t.roll(s), [x, [5]])
    add("roll", "[1, -2] [0, 1]", lambda t, s, dims: t.roll(s, dims), [x, [1, -2], [0, 1]])
    add("roll", "misaligned bad", lambda t, s, dims: t.roll(s, dims), [x, [1], [0, 1]])
    for k in (0, 1, -2, 7):
        add("tril", f"{k}", lambda t, k: t.tril(k), [x, k])
        add("triu", f"{k}", lambda t, k: t.triu(k), [x, k])
    add("repeat", "[2, 1, 3]", lambda t, r: t.repeat(r), [x, [2, 1, 3]])
    add("repeat", "[1] bad", lambda t, r: t.repeat(r), [x, [1]])
    add("tile", "[2]", lambda t, r: t.tile(r), [x, [2]])
    add("tile", "[2, 1, 1]", lambda t, r: t.tile(r), [x, [2, 1, 1]])
    return c


def _index_cases(x, tag):
    d = x.dtype
    c = []

    def add(op, label, fn, args):
        c.append(make_case(op, f"{tag} {label}", fn, args))

    gidx = _long([[0, 3], [2, 2], [1, 0]])
    add("gather", "dim 1", lambda t, dim, i: t.gather(dim, i), [x, 1, gidx])
    add("gather", "dim 0", lambda t, dim, i: t.gather(dim, i), [x, 0, _long([[2, 0, 1, 1]])])
    add("gather", "bad index", lambda t, dim, i: t.gather(dim, i), [x, 1, _long([[4]])])
    sidx = _long([[3, 0], [1, 2]])
    src = make_tensor((2, 3), d)
    add("scatter", "src dim 1", lambda t, dim, i, s: t.scatter(dim, i, s), [x, 1, sidx, src])
    add("scatter", "value dim 1", lambda t, dim, i, v: t.scatter(dim, i, v), [x, 1, sidx, 1])
    add("scatter", "bad index", lambda t, dim, i, s: t.scatter(dim, i, s), [x, 0, _long([[-1]]), src])
    add("scatter_add", "dim 0", lambda t, dim, i, s: t.scatter_add(dim, i, s),
        [x, 0, _long([[0, 0, 2], [0, 1, 2]]), src])
    add("scatter_add_", "dim 1", lambda t, dim, i, s: t.scatter_add_(dim, i, s), [x, 1, sidx, src])
    for r in ("sum", "prod", "mean", "amax", "amin"):
        for inc in (True, False):
            add("scatter_reduce", f"{r} include_self={inc}", lambda t, dim, i, s, r, inc: t.scatter_reduce(dim, i, s, r, include_self=inc),
                [x, 1, _long([[3, 0, 3], [1, 1, 2]]), make_tensor((2, 3), d), r, inc])
    add("index_select", "dim 0", lambda t, dim, i: t.index_select(dim, i), [x, 0, _long([2, 0, 2])])
    add("index_select", "dim 1 int32", lambda t, dim, i: t.index_select(dim, i),
        [x, 1, torch.tensor([3, 1], dtype=torch.int32)])
    add("index_select", "bad index", lambda t, dim, i: t.index_select(dim, i), [x, 1, _long([4])])
    add("index_add", "dim 1", lambda t, dim, i, s: t.index_add(dim, i, s), [x, 1, _long([0, 3]), make_tensor((3, 2), d)])
    add("index_copy", "dim 0", lambda t, dim, i, s: t.index_copy(dim, i, s), [x, 0, _long([2, 0]), make_tensor((2, 4), d)])
    add("index_copy", "bad index", lambda t, dim, i, s: t.index_copy(dim, i, s), [x, 0, _long([-1]), make_tensor((1, 4), d)])
    add("index_fill", "dim 1 negative", lambda t, dim, i, v: t.index_fill(dim, i, v), [x, 1, _long([-1, 1]), 1])
    add("take", "negative", lambda t, i: t.take(i), [x, _long([[-1, 0], [11, 5]])])
    add("take", "bad index", lambda t, i: t.take(i), [x, _long([12])])
    add("masked_select", "broadcast", lambda t, m: t.masked_select(m), [x, torch.tensor([True, False, True, True])])
    add("nonzero", "", lambda t: t.nonzero(), [x])
    return c


def _index(x, idx):
    return x[tuple(slice(None) if i is None else i for i in idx)]


def _index_put(x, idx, v, acc):
    return x.index_put_(tuple(idx), v, accumulate=acc)


def _extra_cases(d):
    tag = SHORT[d]
    c = []

    def add(op, label, fn, args):
        c.append(make_case(op, f"{tag} {label}", fn, args))

    for layout in ("contiguous", "transposed"):
        x = make_tensor((3, 4), d, layout=layout)
        lt = f"{layout} "
        add("repeat_interleave", lt + "int", lambda t, r: t.repeat_interleave(r), [x, 2])
        add("repeat_interleave", lt + "tensor dim 0", lambda t, r, dim: t.repeat_interleave(r, dim=dim),
            [x, _long([1, 0, 2]), 0])
        add("repeat_interleave", lt + "bad size", lambda t, r, dim: t.repeat_interleave(r, dim=dim),
            [x, _long([1, 2]), 0])
        add("masked_scatter", lt + "broadcast", lambda t, m, s: t.masked_scatter(m, s),
            [x, torch.tensor([True, False, False, True]), make_tensor((8,), d)])
        add("masked_scatter", lt + "short source", lambda t, m, s: t.masked_scatter(m, s),
            [x, torch.tensor([True, False, False, True]), make_tensor((5,), d)])
        cube = make_tensor((2, 3, 4), d, layout=layout)
        add("index.Tensor", lt + "[:, [0, 2], [[1], [3]]]", _index, [cube, [None, _long([0, 2]), _long([[1], [3]])]])
        add("index.Tensor", lt + "[[1], :, [0, 3]]", _index, [cube, [_long([1]), None, _long([0, 3])]])
        add("index.Tensor", lt + "mask", _index, [x, [torch.tensor([[True, False, True, True]] * 3)]])
        add("index.Tensor", lt + "mask dim 0", _index, [x, [torch.tensor([True, False, True])]])
        add("index.Tensor", lt + "out of range", _index, [x, [_long([3])]])
        add("index.Tensor", lt + "negative", _index, [x, [None, _long([-1, -4])]])
        for acc in (False, True):
            add("index_put_.Tensor", f"{lt}acc={acc}", _index_put,
                [x, [_long([0, 0, 2]), _long([1, 1, 3])], make_tensor((3,), d), acc])
            add("index_put_.Tensor", f"{lt}mask acc={acc}", _index_put,
                [x, [torch.tensor([True, False, True])], make_tensor((4,), d), acc])
    return c


def _int_extra_cases():
    c = []
    seq = torch.tensor([1.0, 3.0, 5.0, 7.0])
    vals = torch.tensor([[3.0, 6.0], [9.0, 0.0]])
    for right in (False, True):
        for out32 in (False, True):
            c.append(make_case("searchsorted", f"right={right} int32={out32}",
                               lambda s, v, o, r: torch.searchsorted(s, v, out_int32=o, right=r),
                               [seq, vals, out32, right]))
            c.append(make_case("bucketize", f"right={right} int32={out32}",
                               lambda v, s, o, r: torch.bucketize(v, s, out_int32=o, right=r),
                               [vals.t(), seq, out32, right]))
    c.append(make_case("searchsorted", "batched", lambda s, v, o, r: torch.searchsorted(s, v, out_int32=o, right=r),
                       [torch.tensor([[1, 3], [2, 4]]), torch.tensor([[3, 0], [3, 5]]), False, False]))
    c.append(make_case("searchsorted", "bad batch", lambda s, v, o, r: torch.searchsorted(s, v, out_int32=o, right=r),
                       [torch.tensor([[1, 3], [2, 4]]), torch.tensor([[3, 0]]), False, False]))
    for n in (-1, 5):
        c.append(make_case("one_hot", f"classes {n}", lambda t, k: torch.nn.functional.one_hot(t, k),
                           [torch.tensor([[0, 2], [1, 2]]), n]))
    c.append(make_case("one_hot", "too large", lambda t, k: torch.nn.functional.one_hot(t, k), [torch.tensor([4]), 3]))
    for d in (torch.int64, torch.float32):
        t = make_tensor((3, 4), d, domain=lambda dt, n: torch.randint(0, 4, (n,)).to(dt), layout="transposed")
        c.append(make_case("unique", f"{SHORT[d]} inverse counts",
                           lambda x: torch.unique(x, sorted=True, return_inverse=True, return_counts=True), [t]))
    w = make_tensor((5, 3), torch.float32)
    c.append(make_case("embedding", "2-d indices", lambda i, w: torch.nn.functional.embedding(i, w),
                       [torch.tensor([[0, 4], [2, 2]]), w]))
    c.append(make_case("embedding", "out of range", lambda i, w: torch.nn.functional.embedding(i, w),
                       [torch.tensor([5]), w]))
    import torch.nn.functional as F
    idx, off = torch.tensor([0, 4, 1, 3, 3, 2]), torch.tensor([0, 2, 2, 5])
    for mode in ("sum", "mean", "max"):
        for wd in (torch.float32, torch.float64):
            wt = make_tensor((5, 3), wd, layout="transposed")
            c.append(make_case("embedding_bag", f"{SHORT[wd]} {mode}",
                               lambda w, i, o, m: F.embedding_bag(i, w, o, mode=m), [wt, idx, off, mode]))
        c.append(make_case("embedding_bag", f"{mode} 2-d", lambda w, i, m: F.embedding_bag(i, w, mode=m),
                           [w, torch.tensor([[0, 1], [4, 4]]), mode]))
        c.append(make_case("embedding_bag", f"{mode} padding_idx", lambda w, i, o, m, p: F.embedding_bag(i, w, o, mode=m, padding_idx=p),
                           [w, idx, off, mode, 3]))
    c.append(make_case("repeat_interleave", "counts", lambda r: torch.repeat_interleave(r), [torch.tensor([2, 0, 3])]))
    return c


def cases():
    out = []
    for d in DTYPES:
        for layout in LAYOUTS:
            x = make_tensor((3, 4), d, layout=layout)
            out += _shape_cases(x, f"{SHORT[d]} {layout}")
            out += _index_cases(x, f"{SHORT[d]} {layout}")
    for d in (torch.float32, torch.int64, torch.bool, torch.float16):
        out += _extra_cases(d)
    out += _int_extra_cases()
    for d in (torch.float32, torch.int64):
        a, b = make_tensor((2,), d), make_tensor((3,), d)
        for ix in ("ij", "xy"):
            out.append(make_case("meshgrid", f"{SHORT[d]} {ix}", lambda p, q, ix: torch.meshgrid(p, q, indexing=ix),
                                 [a, b, ix]))
        out.append(make_case("cat", f"{SHORT[d]} empty", lambda ts, dim: torch.cat(ts, dim),
                             [[make_tensor((0, 2), d), make_tensor((0, 2), d)], 1]))
        out.append(make_case("nonzero", f"{SHORT[d]} 0-d", lambda t: t.nonzero(), [make_tensor((), d)]))
        out.append(make_case("flip", f"{SHORT[d]} empty", lambda t, dims: t.flip(dims), [make_tensor((0, 3), d), [1]]))
        out.append(make_case("gather", f"{SHORT[d]} 0-d", lambda t, dim, i: t.gather(dim, i),
                             [make_tensor((), d), 0, torch.tensor(0)]))
    return out
