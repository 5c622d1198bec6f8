"""Unary pointwise ops and the pointwise ops with extra operands (clamp, lerp, where, masked_fill,
nan_to_num)."""

import torch

from common import ALL, FLOATS, SHORT, domain_any, domain_nonzero, domain_positive, make_case, make_tensor

SPECIALS = torch.tensor([float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -2.5,
                         100.0], dtype=torch.float64)


def domain_unit(dtype, n):
    if dtype.is_floating_point:
        return (torch.rand(n, dtype=torch.float64) * 1.9 - 0.95).to(dtype)
    return torch.randint(0, 2, (n,)).to(dtype)


def domain_halves(dtype, n):
    """Values on .5 boundaries too, for round (half to even), floor, ceil, trunc, frac."""
    if dtype.is_floating_point:
        return (torch.randint(-12, 13, (n,)).double() / 2 + (torch.rand(n, dtype=torch.float64) < 0.5) * 0.25).to(dtype)
    return domain_any(dtype, n)


class Op:
    """name: libtorch method; domain: input values; k: tolerance factor; inplace: PyTorch has name_."""

    def __init__(self, name, domain=domain_any, k=1.0, inplace=True):
        self.name, self.domain, self.k, self.inplace = name, domain, k, inplace


OPS = [
    Op("neg"), Op("reciprocal", domain_nonzero), Op("abs"), Op("sign"),
    Op("exp", k=2), Op("exp2", k=2), Op("expm1", k=2),
    Op("log", domain_positive, k=2), Op("log2", domain_positive, k=2), Op("log10", domain_positive, k=2),
    Op("log1p", domain_positive, k=2), Op("sqrt", domain_positive), Op("rsqrt", domain_positive, k=2),
    Op("sin", k=2), Op("cos", k=2), Op("tan", domain_unit, k=4),
    Op("asin", domain_unit, k=2), Op("acos", domain_unit, k=2), Op("atan", k=2),
    Op("sinh", domain_unit, k=2), Op("cosh", domain_unit, k=2), Op("tanh", k=2), Op("sigmoid", k=2),
    Op("erf", k=2), Op("erfinv", domain_unit, k=4),
    Op("floor", domain_halves), Op("ceil", domain_halves), Op("round", domain_halves), Op("trunc", domain_halves),
    Op("frac", domain_halves), Op("relu"),
    Op("logical_not"), Op("bitwise_not"),
    Op("isnan", inplace=False), Op("isinf", inplace=False), Op("isfinite", inplace=False),
]

LAYOUT_SHAPES = [((2, 3), "contiguous"), ((3, 4), "transposed"), ((2, 5), "strided"), ((3, 2), "expanded"),
                 ((), "contiguous"), ((0, 4), "contiguous")]


def _unary_cases(op):
    out = []
    method = lambda t: getattr(t, op.name)()  # noqa: E731
    for d in ALL:
        for shape, layout in LAYOUT_SHAPES:
            t = make_tensor(shape, d, op.domain, layout)
            out.append(make_case(op.name, f"{SHORT[d]} {list(shape)} {layout}", method, [t], k=op.k))
        if op.inplace:
            t = make_tensor((3, 4), d, op.domain, "transposed")
            out.append(make_case(op.name + "_", f"{SHORT[d]} transposed", lambda x: getattr(x, op.name + "_")(),
                                 [t], k=op.k))
    for d in FLOATS:
        out.append(make_case(op.name, f"{SHORT[d]} specials", method, [SPECIALS.to(d)], k=op.k))
    return out


def _extra_cases():
    out = []
    for d in ALL:
        t = make_tensor((3, 4), d, layout="transposed")
        for lo, hi in ((-2, 3), (None, 1), (-1.5, None), (2.5, 1), (True, None)):
            out.append(make_case("clamp", f"{SHORT[d]} scalars {lo!r} {hi!r}", torch.clamp, [t], {"min": lo, "max": hi}))
        out.append(make_case("clamp", f"{SHORT[d]} no bounds", torch.clamp, [t]))
        lo, hi = make_tensor((4,), d), make_tensor((3, 1), d)
        out.append(make_case("clamp", f"{SHORT[d]} tensors", torch.clamp, [t], {"min": lo, "max": hi}))
        out.append(make_case("clamp_", f"{SHORT[d]} scalars", lambda x, **kw: x.clamp_(**kw), [t], {"min": -1, "max": 2}))
        cond = make_tensor((3, 4), torch.bool, layout="strided")
        for od in (d, torch.float32, torch.int64):
            other = make_tensor((4,), od)
            out.append(make_case("where", f"{SHORT[d]} other {SHORT[od]}", lambda s, c, o: s.where(c, o), [t, cond, other]))
        mask = make_tensor((4,), torch.bool)
        for v in (0, -1.5, True):
            out.append(make_case("masked_fill", f"{SHORT[d]} {v!r}", torch.masked_fill, [t, mask, v]))
        out.append(make_case("masked_fill", f"{SHORT[d]} 0-d tensor value", torch.masked_fill,
                             [t, mask, make_tensor((), d)]))
        out.append(make_case("masked_fill", f"{SHORT[d]} non-bool mask", torch.masked_fill,
                             [t, make_tensor((4,), torch.uint8), 1]))
        out.append(make_case("masked_fill_", f"{SHORT[d]}", lambda x, m, v: x.masked_fill_(m, v), [t, mask, 2]))
    for d in FLOATS:
        s, e = make_tensor((3, 4), d, layout="transposed"), make_tensor((4,), d)
        out.append(make_case("lerp", f"{SHORT[d]} scalar weight", torch.lerp, [s, e, 0.3]))
        out.append(make_case("lerp", f"{SHORT[d]} tensor weight", torch.lerp, [s, e, make_tensor((3, 1), d)], k=2))
        out.append(make_case("lerp_", f"{SHORT[d]}", lambda a, b, w: a.lerp_(b, w), [s, e, 0.75]))
        sp = SPECIALS.to(d)
        for kw in ({}, {"nan": 1.0}, {"nan": 0.0, "posinf": 5.0, "neginf": -5.0}):
            out.append(make_case("nan_to_num", f"{SHORT[d]} {kw}", torch.nan_to_num, [sp], kw))
        out.append(make_case("nan_to_num_", f"{SHORT[d]}", lambda x: x.nan_to_num_(), [sp]))
    i32 = torch.int32
    out.append(make_case("lerp", "i32", torch.lerp, [make_tensor((3,), i32), make_tensor((3,), i32), 0.5]))
    out.append(make_case("nan_to_num", "i32", torch.nan_to_num, [make_tensor((3,), i32)]))
    return out


def cases():
    out = []
    for op in OPS:
        out += _unary_cases(op)
    return out + _extra_cases()
