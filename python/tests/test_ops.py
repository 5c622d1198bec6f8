"""Ops bound generically from their schemas, against torch 1.13: functions and methods, positional
and keyword arguments, defaults, overloads, out= and in-place forms, operators."""
import operator

import numpy as np
import pytest
import torch

import brasa


def pair(data, dtype="float32", requires_grad=False):
    b = brasa.tensor(data, dtype=getattr(brasa, dtype), requires_grad=requires_grad)
    t = torch.tensor(data, dtype=getattr(torch, dtype), requires_grad=requires_grad)
    return b, t


def close(b, t, tol=1e-5):
    if isinstance(t, (tuple, list)):
        assert len(b) == len(t)
        for x, y in zip(b, t):
            close(x, y, tol)
        return
    if not isinstance(t, torch.Tensor):
        assert b == t
        return
    assert tuple(b.shape) == tuple(t.shape), (b.shape, t.shape)
    assert repr(b.dtype).split(".")[1] == str(t.dtype).split(".")[1]
    np.testing.assert_allclose(b.detach().numpy(), t.detach().numpy(), rtol=tol, atol=tol)


X = [[0.5, -1.25, 2.0], [3.0, 0.25, -0.75]]

CALLS = [  # (name, args, kwargs): called as brasa.name / torch.name with X first, then as methods
    ("exp", (), {}), ("sin", (), {}), ("abs", (), {}), ("neg", (), {}), ("sigmoid", (), {}),
    ("tanh", (), {}), ("floor", (), {}), ("round", (), {}), ("relu", (), {}), ("sign", (), {}),
    ("add", (1.5,), {}), ("add", (2,), {"alpha": 3}), ("sub", (0.5,), {}), ("mul", (2,), {}),
    ("div", (4.0,), {}), ("pow", (2,), {}), ("maximum", ("T",), {}), ("atan2", ("T",), {}),
    ("clamp", (), {"min": -1.0, "max": 1.0}), ("clamp", (-0.5,), {}), ("clamp_min", (0.0,), {}),
    ("sum", (), {}), ("sum", (0,), {}), ("sum", (1, True), {}), ("sum", (), {"dim": (0, 1)}),
    ("mean", (), {}), ("mean", (), {"dim": 1, "keepdim": True}), ("prod", (1,), {}),
    ("amax", (1,), {}), ("argmax", (), {}), ("argmax", (1,), {}), ("logsumexp", (1,), {}),
    ("var", (), {}), ("std", (1,), {}), ("cumsum", (1,), {}), ("softmax", (1,), {}),
    ("log_softmax", (0,), {}), ("max", (), {}), ("max", (1,), {}), ("min", (0, True), {}),
    ("sort", (), {}), ("sort", (0,), {"descending": True}), ("topk", (2,), {}),
    ("transpose", (0, 1), {}), ("permute", ((1, 0),), {}), ("flip", ([0],), {}),
    ("unsqueeze", (0,), {}), ("tril", (), {}), ("triu", (1,), {}), ("roll", ([1], [1]), {}),
    ("eq", (0.5,), {}), ("gt", ("T",), {}), ("where", None, None), ("reshape", ((3, 2),), {}),
    ("flatten", (), {}), ("t", (), {}), ("clone", (), {}), ("square", (), {}),
    ("lerp", ("T", 0.5), {}),
    ("nan_to_num", (), {}), ("allclose", ("T",), {}),
]


def resolve(args, other_b, other_t):
    bargs = tuple(other_b if a == "T" else a for a in args)
    targs = tuple(other_t if a == "T" else a for a in args)
    return bargs, targs


@pytest.mark.parametrize("name,args,kwargs", [c for c in CALLS if c[1] is not None])
def test_function_and_method(name, args, kwargs):
    xb, xt = pair(X)
    ob, ot = pair([[1.0, 2.0, -3.0], [0.5, 0.0, 1.0]])
    bargs, targs = resolve(args, ob, ot)
    close(getattr(brasa, name)(xb, *bargs, **kwargs), getattr(torch, name)(xt, *targs, **kwargs))
    close(getattr(xb, name)(*bargs, **kwargs), getattr(xt, name)(*targs, **kwargs))


def test_keyword_input_and_overloads():
    xb, xt = pair(X)
    close(brasa.add(input=xb, other=xb), torch.add(input=xt, other=xt))
    close(brasa.clamp(xb, brasa.tensor(0.0), brasa.tensor(1.0)),
          torch.clamp(xt, torch.tensor(0.0), torch.tensor(1.0)))
    close(brasa.where(xb > 0, xb, brasa.zeros(1)), torch.where(xt > 0, xt, torch.zeros(1)))
    close(brasa.cat([xb, xb], 1), torch.cat([xt, xt], 1))
    close(brasa.stack([xb, xb]), torch.stack([xt, xt]))
    close(xb.view(3, 2), xt.view(3, 2))
    close(xb.view([6]), xt.view([6]))
    close(brasa.matmul(xb, xb.t()), torch.matmul(xt, xt.t()))


def test_out_and_inplace_forms():
    xb, xt = pair(X)
    out_b, out_t = brasa.empty(2, 3), torch.empty(2, 3)
    r = brasa.add(xb, 1.0, out=out_b)
    torch.add(xt, 1.0, out=out_t)
    close(out_b, out_t)
    assert r._is_same(out_b)
    yb, yt = pair(X)
    assert yb.add_(2.0) is yb
    yt.add_(2.0)
    yb.mul_(yb)
    yt.mul_(yt)
    yb.exp_()
    yt.exp_()
    close(yb, yt, 1e-4)
    zb = brasa.zeros(3)
    assert zb.fill_(4) is zb and zb.tolist() == [4.0, 4.0, 4.0]


BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.pow,
          operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge,
          operator.floordiv, operator.mod]


@pytest.mark.parametrize("op", BINARY, ids=lambda f: f.__name__)
def test_operators(op):
    xb, xt = pair([[1.5, 2.0, 3.0], [4.0, 5.5, 6.0]])
    yb, yt = pair([[0.5, 2.0, 1.0], [2.0, 1.5, 4.0]])
    close(op(xb, yb), op(xt, yt))
    close(op(xb, 2), op(xt, 2))
    close(op(3, yb), op(3, yt))
    close(op(xb, 0.5), op(xt, 0.5))


def test_operators_int_bool_and_unary():
    ib, it = pair([1, 6, 3], "int64")
    close(ib & 2, it & 2)
    close(ib | ib, it | it)
    close(ib ^ 5, it ^ 5)
    close(~ib, ~it)
    close(-ib, -it)
    close(abs(-ib), abs(-it))
    close(ib + 1.5, it + 1.5)  # int tensor + Python float: default float dtype
    close(ib / 2, it / 2)
    mb, mt = pair([[1.0, 2.0], [3.0, 4.0]])
    close(mb @ mb, mt @ mt)


def test_inplace_operators():
    xb, xt = pair([1.0, 2.0, 3.0])
    alias = xb
    xb += 1
    xt += 1
    xb *= xb
    xt *= xt
    xb -= 0.5
    xt -= 0.5
    xb /= 2
    xt /= 2
    close(xb, xt)
    assert alias is xb


def test_every_bound_op_has_schema_arguments():
    sigs = brasa._C._bound_signatures()
    assert len(sigs) > 250
    names = {s[0] for s in sigs}
    for name in ("add", "add_", "sum", "view", "select", "cat", "empty", "fill_", "index_select"):
        assert name in names
        assert callable(getattr(brasa, name))


def test_torch_spellings_beyond_the_schema():
    xb, xt = pair(X)
    for mode in (None, "trunc", "floor"):
        close(brasa.div(xb, 0.3, rounding_mode=mode), torch.div(xt, 0.3, rounding_mode=mode))
    close(xb.var(unbiased=False), xt.var(unbiased=False))
    close(xb.std(1, True, True), xt.std(1, True, True))
    close(brasa.var(xb, 0), torch.var(xt, 0))
    with pytest.raises(ValueError):
        brasa.div(xb, 2, rounding_mode="up")
