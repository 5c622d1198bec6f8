"""Reductions, scans, softmax and sorting. Inputs of ops that return indices have distinct values, so ties can't make
the indices ambiguous (sort with stable=True is checked with ties on purpose)."""

import torch

from common import ALL, FLOATS, SHORT, make_case, make_tensor

SHAPES = [((3, 4), "contiguous"), ((4, 5), "transposed"), ((2, 3, 4), "strided"), ((), "contiguous"),
          ((0, 3), "contiguous")]


def domain_distinct(dtype, n):
    """Distinct values (a shuffled range), so max/argmax/sort/topk indices are unambiguous."""
    if dtype == torch.bool:
        return torch.randint(0, 2, (n,)).bool()
    v = torch.randperm(n).double() - n // 2
    if dtype == torch.uint8:
        v = v + n // 2
    if dtype.is_floating_point:
        v = v * 0.5 + 0.25
    return v.to(dtype)


def _t(shape, dtype, layout, domain=None):
    return make_tensor(shape, dtype, domain, layout) if domain else make_tensor(shape, dtype, layout=layout)


def _dims(shape):
    """(kwargs label, kwargs) variants over dims valid for shape."""
    nd = len(shape)
    out = [({}, "all")]
    if nd >= 1:
        out += [({"dim": [-1]}, "dim -1"), ({"dim": [0], "keepdim": True}, "dim 0 keepdim")]
    if nd >= 2:
        out.append(({"dim": [0, -1]}, "dims 0,-1"))
    return out


def cases():
    out = []
    for d in ALL:
        for shape, layout in SHAPES:
            t = _t(shape, d, layout)
            tag = f"{SHORT[d]} {list(shape)} {layout}"
            for kw, what in _dims(shape):
                for op in ("sum", "mean", "amax", "amin"):
                    op_kw = {"dim": []} if op in ("amax", "amin") and not kw else kw
                    out.append(make_case(op, f"{tag} {what}", getattr(torch, op), [t], op_kw, k=8))
                out.append(make_case("count_nonzero", f"{tag} {what}", torch.count_nonzero, [t],
                                     {"dim": kw["dim"]} if "dim" in kw else {}))
                if kw.get("dim") and len(kw["dim"]) == 1:
                    out.append(make_case("logsumexp", f"{tag} {what}", torch.logsumexp, [t], kw, k=8))
                    for corr in (True, False):
                        out.append(make_case("var", f"{tag} {what} unbiased={corr}", torch.var, [t],
                                             {**kw, "unbiased": corr}, k=16))
                        out.append(make_case("std", f"{tag} {what} unbiased={corr}", torch.std, [t],
                                             {**kw, "unbiased": corr}, k=16))
            out.append(make_case("sum", f"{tag} dtype f64", torch.sum, [t], {"dtype": torch.float64}, k=8))
            out.append(make_case("prod", f"{tag} all", torch.prod, [_t(shape, d, layout, _small)], k=8))
            out.append(make_case("var", f"{tag} all", torch.var, [t], k=16))
            out.append(make_case("norm", f"{tag} p=2", torch.norm, [t], k=8))
            out.append(make_case("all", f"{tag}", torch.all, [t]))
            out.append(make_case("any", f"{tag}", torch.any, [t]))
            u = _t(shape, d, layout, domain_distinct)
            out.append(make_case("max", f"{tag}", torch.max, [u]))
            out.append(make_case("min", f"{tag}", torch.min, [u]))
            out.append(make_case("argmax", f"{tag}", torch.argmax, [u]))
            out.append(make_case("argmin", f"{tag}", torch.argmin, [u]))
            if shape:
                for dim, keep in ((-1, False), (0, True)):
                    dk = {"dim": dim, "keepdim": keep}
                    out.append(make_case("max", f"{tag} dim {dim} keepdim={keep}", torch.max, [u], dk))
                    out.append(make_case("min", f"{tag} dim {dim} keepdim={keep}", torch.min, [u], dk))
                    out.append(make_case("argmax", f"{tag} dim {dim} keepdim={keep}", torch.argmax, [u], dk))
                    out.append(make_case("argmin", f"{tag} dim {dim} keepdim={keep}", torch.argmin, [u], dk))
                    out.append(make_case("all", f"{tag} dim {dim} keepdim={keep}", torch.all, [t], dk))
                    out.append(make_case("any", f"{tag} dim {dim} keepdim={keep}", torch.any, [t], dk))
                    out.append(make_case("prod", f"{tag} dim {dim} keepdim={keep}", torch.prod,
                                         [_t(shape, d, layout, _small)], dk, k=8))
                for dim in (0, -1):
                    out.append(make_case("cumsum", f"{tag} dim {dim}", torch.cumsum, [t], {"dim": dim}, k=8))
                    out.append(make_case("cumprod", f"{tag} dim {dim}", torch.cumprod,
                                         [_t(shape, d, layout, _small)], {"dim": dim}, k=8))
                    out.append(make_case("softmax", f"{tag} dim {dim}", torch.softmax, [t], {"dim": dim}, k=8))
                    out.append(make_case("log_softmax", f"{tag} dim {dim}", torch.log_softmax, [t], {"dim": dim}, k=8))
                    for desc in (False, True):
                        sk = {"dim": dim, "descending": desc}
                        out.append(make_case("sort", f"{tag} dim {dim} descending={desc}", torch.sort, [u], sk))
                        out.append(make_case("argsort", f"{tag} dim {dim} descending={desc}", torch.argsort, [u], sk))
                        out.append(make_case("sort", f"{tag} ties stable dim {dim} descending={desc}", torch.sort,
                                             [t], {**sk, "stable": True}))
                    if shape[dim] >= 2:
                        for largest in (True, False):
                            out.append(make_case("topk", f"{tag} k=2 dim {dim} largest={largest}", torch.topk, [u],
                                                 {"k": 2, "dim": dim, "largest": largest}))
            out.append(make_case("cumsum", f"{tag} dim 0 dtype f64", torch.cumsum, [t],
                                 {"dim": 0, "dtype": torch.float64}, k=8) if shape else
                       make_case("cumsum", f"{tag} 0-d", torch.cumsum, [t], {"dim": 0}))
    for d in FLOATS:
        t = make_tensor((3, 4), d)
        out.append(make_case("norm", f"{SHORT[d]} p=1 dim 1", torch.norm, [t], {"p": 1, "dim": [1]}, k=8))
        out.append(make_case("norm", f"{SHORT[d]} p=inf dim 0 keepdim", torch.norm, [t],
                             {"p": float("inf"), "dim": [0], "keepdim": True}, k=8))
        out.append(make_case("softmax", f"{SHORT[d]} dtype f64", torch.softmax, [t], {"dim": 1, "dtype": torch.float64}, k=8))
        out.append(make_case("var", f"{SHORT[d]} correction=0 dim 1", torch.var, [t], {"dim": [1], "correction": 0}, k=16))
    t = make_tensor((3, 4), torch.float32)
    out.append(make_case("sum", "dim out of range", torch.sum, [t], {"dim": [2]}))
    out.append(make_case("topk", "k too large", torch.topk, [t], {"k": 5}))
    out.append(make_case("softmax", "dim out of range", torch.softmax, [t], {"dim": -3}))
    return out


def _small(dtype, n):
    """Values whose products stay small: prod/cumprod must not overflow integral dtypes."""
    if dtype == torch.bool:
        return torch.randint(0, 2, (n,)).bool()
    if dtype.is_floating_point:
        return (torch.rand(n, dtype=torch.float64) + 0.5).to(dtype)
    return torch.randint(1, 3, (n,)).to(dtype)
