"""Binary pointwise ops: one line per op in OPS; every op gets the same battery of variants (all dtype
pairs, layouts, broadcasting, 0-d, empty, Python scalars, special floats, in-place, out=)."""

import operator

import torch

from common import (ALL, FLOATS, INTS, LAYOUTS, SHORT, domain_any, domain_exponent, domain_nonzero,
                    domain_small, make_case, make_tensor, special_pair)


class Op:
    """name: brasa/libtorch name; fn: the PyTorch function; rhs: value domain of `other`;
    lhs: value domain of `self`; kwargs: kwarg sets to run each variant with; k: tolerance factor;
    scalars: Python scalars used as `other`; operator: the Python operator, when the op has one;
    inplace: whether PyTorch has the `name_` method (brasa declares it for every binary op)."""

    def __init__(self, name, fn, lhs=domain_any, rhs=domain_any, kwargs=({},), k=1.0,
                 scalars=(2, -1.5, True), operator=None, inplace=True):
        self.name, self.fn, self.lhs, self.rhs, self.kwargs, self.k = name, fn, lhs, rhs, kwargs, k
        self.scalars, self.operator, self.inplace = scalars, operator, inplace


OPS = [
    Op("add", torch.add, kwargs=({}, {"alpha": 2}, {"alpha": 0.5}), operator=operator.add),
    Op("sub", torch.sub, kwargs=({}, {"alpha": 3}), operator=operator.sub),
    Op("mul", torch.mul, operator=operator.mul),
    Op("div", torch.div, rhs=domain_nonzero, operator=operator.truediv, scalars=(2, -1.5, 3)),
    Op("div", torch.div, rhs=domain_nonzero, scalars=(2, -1.5),
       kwargs=({"rounding_mode": "trunc"}, {"rounding_mode": "floor"})),
    Op("remainder", torch.remainder, rhs=domain_nonzero, operator=operator.mod, scalars=(3, -2.5)),
    Op("fmod", torch.fmod, rhs=domain_nonzero, scalars=(3, -2.5)),
    Op("floor_divide", torch.floor_divide, rhs=domain_nonzero, scalars=(3, -2.5)),
    Op("pow", torch.pow, lhs=domain_small, rhs=domain_exponent, k=4, scalars=(2, 0.5, -1, 3)),
    Op("atan2", torch.atan2, k=4, scalars=()),
    Op("hypot", torch.hypot, k=2, scalars=()),
    Op("maximum", torch.maximum, scalars=(), inplace=False),
    Op("minimum", torch.minimum, scalars=(), inplace=False),
    Op("eq", torch.eq, operator=operator.eq),
    Op("ne", torch.ne, operator=operator.ne),
    Op("lt", torch.lt, operator=operator.lt),
    Op("le", torch.le, operator=operator.le),
    Op("gt", torch.gt, operator=operator.gt),
    Op("ge", torch.ge, operator=operator.ge),
    Op("logical_and", torch.logical_and, scalars=()),
    Op("logical_or", torch.logical_or, scalars=()),
    Op("logical_xor", torch.logical_xor, scalars=()),
    Op("bitwise_and", torch.bitwise_and, operator=operator.and_, scalars=(5, True, 1.5)),
    Op("bitwise_or", torch.bitwise_or, operator=operator.or_, scalars=(5, True)),
    Op("bitwise_xor", torch.bitwise_xor, operator=operator.xor, scalars=(5, True)),
]

OPERATOR_NAMES = {operator.add: "+", operator.sub: "-", operator.mul: "*", operator.truediv: "/",
                  operator.mod: "%", operator.and_: "&", operator.or_: "|", operator.xor: "^",
                  operator.eq: "==", operator.ne: "!=", operator.lt: "<", operator.le: "<=",
                  operator.gt: ">", operator.ge: ">="}

# (shape of self, shape of other, what the pair exercises)
SHAPES = [
    ((2, 3), (2, 3), "same"),
    ((2, 1, 3), (4, 1), "broadcast"),
    ((), (3,), "0-d self"),
    ((3, 2), (), "0-d other"),
    ((), (), "both 0-d"),
    ((0, 3), (3,), "empty"),
]


def _kw_label(kw):
    return "".join(f" {k}={v}" for k, v in kw.items())


def _pair_cases(op, kw):
    label = lambda *parts: " ".join(p for p in parts if p) + _kw_label(kw)  # noqa: E731
    cases = []
    # every dtype pair, contiguous
    for da in ALL:
        for db in ALL:
            a, b = make_tensor((2, 3), da, op.lhs), make_tensor((2, 3), db, op.rhs)
            cases.append(make_case(op.name, label(SHORT[da], SHORT[db]), op.fn, [a, b], kw, k=op.k))
    # shapes and layouts per dtype
    for d in ALL:
        for sa, sb, what in SHAPES:
            for la, lb in [("contiguous", "contiguous"), ("transposed", "strided"),
                           ("strided", "expanded"), ("expanded", "transposed")]:
                if what in ("0-d self", "both 0-d", "0-d other") and la != "contiguous":
                    continue
                a, b = make_tensor(sa, d, op.lhs, la), make_tensor(sb, d, op.rhs, lb)
                cases.append(make_case(op.name, label(SHORT[d], what, la, lb), op.fn, [a, b], kw, k=op.k))
        # 0-d tensor of another dtype: participates with lower priority than dim tensors
        for dz in (torch.float64, torch.int64, torch.bool):
            a, z = make_tensor((3,), d, op.lhs), make_tensor((), dz, op.rhs)
            cases.append(make_case(op.name, label(SHORT[d], "0-d", SHORT[dz]), op.fn, [a, z], kw, k=op.k))
        # Python scalars as other: wrapped numbers
        for s in op.scalars:
            a = make_tensor((2, 3), d, op.lhs, "transposed")
            cases.append(make_case(op.name, label(SHORT[d], "scalar", repr(s)), op.fn, [a, s], kw, k=op.k))
    for d in FLOATS:
        a, b = special_pair(d)
        cases.append(make_case(op.name, label(SHORT[d], "specials"), op.fn, [a, b], kw, k=op.k))
    for d in INTS:
        a = make_tensor((4,), d, op.lhs)
        cases.append(make_case(op.name, label(SHORT[d], "zero other"), op.fn, [a, torch.zeros(4, dtype=d)],
                               kw, k=op.k, cache_errors=False))
    return cases


def _inplace_cases(op, kw):
    cases = []
    fn = lambda a, b, **kw: getattr(a, op.name + "_")(b, **kw)  # noqa: E731
    for da in ALL:
        for db in ALL:
            a, b = make_tensor((3, 2), da, op.lhs, "transposed"), make_tensor((2,), db, op.rhs)
            cases.append(make_case(op.name + "_", f"{SHORT[da]} {SHORT[db]}{_kw_label(kw)}", fn, [a, b],
                                   kw, k=op.k))
        for s in op.scalars:
            a = make_tensor((2, 3), da, op.lhs, "strided")
            cases.append(make_case(op.name + "_", f"{SHORT[da]} scalar {s!r}{_kw_label(kw)}", fn, [a, s],
                                   kw, k=op.k))
    a, b = make_tensor((3,), torch.float32, op.lhs), make_tensor((2, 3), torch.float32, op.rhs)
    cases.append(make_case(op.name + "_", f"f32 self does not broadcast{_kw_label(kw)}", fn, [a, b], kw, k=op.k))
    return cases


def _out_cases(op, kw):
    cases = []
    for din in (torch.int32, torch.float32, torch.bool):
        for dout in ALL:
            a, b = make_tensor((2, 3), din, op.lhs, "transposed"), make_tensor((3,), din, op.rhs)
            out = torch.empty(0, dtype=dout)
            cases.append(make_case(op.name + "_out", f"{SHORT[din]} -> out {SHORT[dout]}{_kw_label(kw)}",
                                   op.fn, [a, b], {"out": out, **kw}, k=op.k))
        a, b = make_tensor((2, 3), din, op.lhs), make_tensor((2, 3), din, op.rhs)
        out = make_tensor((2, 3), torch.float64, layout="transposed")
        cases.append(make_case(op.name + "_out", f"{SHORT[din]} -> non-contiguous out f64{_kw_label(kw)}",
                               op.fn, [a, b], {"out": out, **kw}, k=op.k))
    return cases


def _operator_cases(op):
    cases = []
    sym = OPERATOR_NAMES[op.operator]
    for d in ALL:
        a, b = make_tensor((2, 3), d, op.lhs, "strided"), make_tensor((3,), d, op.rhs)
        cases.append(make_case("operator" + sym, f"{SHORT[d]} tensor {sym} tensor", op.operator, [a, b], k=op.k))
        for s in op.scalars:
            t = make_tensor((2, 3), d, op.rhs if not isinstance(s, bool) else op.lhs)
            cases.append(make_case("operator" + sym, f"{SHORT[d]} tensor {sym} {s!r}", op.operator, [t, s], k=op.k))
            cases.append(make_case("operator" + sym, f"{SHORT[d]} {s!r} {sym} tensor", op.operator, [s, t], k=op.k))
    return cases


def cases():
    out = []
    for op in OPS:
        for i, kw in enumerate(op.kwargs):
            out += _pair_cases(op, kw) + _out_cases(op, kw)
            if op.inplace and i == 0:
                out += _inplace_cases(op, kw)
        if op.operator is not None:
            out += _operator_cases(op)
    # pow with a Python scalar base: brasa::pow(Scalar, Tensor)
    for d in ALL:
        for s in (2, 0.5, True):
            t = make_tensor((2, 3), d, domain_exponent)
            out.append(make_case("pow(Scalar, Tensor)", f"{s!r} ** {SHORT[d]}", torch.pow, [s, t], k=4))
    return out
