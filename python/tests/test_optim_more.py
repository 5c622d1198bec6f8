"""Adadelta, Adamax, NAdam, RAdam, ASGD, Rprop and LBFGS against torch 1.13: the same model,
data and options give the same parameters after several steps."""
import numpy as np
import pytest
import torch

import brasa
from nn_support import assert_close, step_both_and_compare
from test_optim import models

CONFIGS = [
    ("Adadelta", dict()), ("Adadelta", dict(lr=0.5, rho=0.8, weight_decay=0.1, maximize=True)),
    ("Adamax", dict()), ("Adamax", dict(lr=0.01, betas=(0.8, 0.9), weight_decay=0.1,
                                        maximize=True)),
    ("NAdam", dict()), ("NAdam", dict(lr=0.01, weight_decay=0.1, momentum_decay=0.01)),
    ("RAdam", dict()), ("RAdam", dict(lr=0.01, betas=(0.5, 0.6), weight_decay=0.1)),
    ("ASGD", dict()), ("ASGD", dict(lr=0.05, lambd=0.01, alpha=0.5, t0=2, weight_decay=0.1,
                                    maximize=True)),
    ("Rprop", dict()), ("Rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.1),
                                      maximize=True)),
]


@pytest.mark.parametrize("name,kw", CONFIGS, ids=[f"{n}-{k}" for n, k in CONFIGS])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_trajectory_matches_torch(name, kw, dtype):
    b, t = models()
    b.to(getattr(brasa, dtype))
    t.to(getattr(torch, dtype))
    ob = getattr(brasa.optim, name)(b.parameters(), **kw)
    # torch 1.13's single-tensor NAdam multiplies mu_product_next by mu once too often (fixed in
    # torch 2.0); its foreach path, which brasa follows, has the published formula.
    ot = getattr(torch.optim, name)(t.parameters(), **kw, **(
        dict(foreach=True) if name == "NAdam" else {}))
    # 8 steps: RAdam's rectified branch starts at step 6 with the default betas
    step_both_and_compare(ob, ot, b, t, dtype, steps=8)
    assert set(ob.state_dict()["state"][0]) == set(ot.state_dict()["state"][0])


@pytest.mark.parametrize("kw", [dict(), dict(lr=0.5, max_iter=5, history_size=3),
                                dict(max_iter=7, tolerance_change=1e-3)])
def test_lbfgs_matches_torch(kw):
    b, t = models()
    b.double()
    t.double()
    ob, ot = brasa.optim.LBFGS(b.parameters(), **kw), torch.optim.LBFGS(t.parameters(), **kw)
    x = np.random.RandomState(1).randn(8, 5)
    y = np.random.RandomState(2).randn(8, 2)

    def closure_b():
        ob.zero_grad()
        loss = ((b(brasa.from_numpy(x)) - brasa.from_numpy(y)) ** 2).mean()
        loss.backward()
        return loss

    def closure_t():
        ot.zero_grad()
        loss = ((t(torch.from_numpy(x)) - torch.from_numpy(y)) ** 2).mean()
        loss.backward()
        return loss

    for _ in range(3):
        lb, lt = ob.step(closure_b), ot.step(closure_t)
        assert abs(lb.item() - lt.item()) <= 1e-9 * max(1.0, abs(lt.item()))
    for pb, pt in zip(b.parameters(), t.parameters()):
        assert_close(pb, pt, rtol=1e-8, atol=1e-10)
    state_b = ob.state[next(iter(b.parameters()))]
    state_t = ot.state[next(iter(t.parameters()))]
    assert state_b["n_iter"] == state_t["n_iter"]
    assert state_b["func_evals"] == state_t["func_evals"]


def rosenbrock(lib, x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


ROSENBROCK_START = [-1.2, 1.0, -0.5, 1.5, 0.3, -0.8]
# Problems, starts and options chosen so that, together, every branch of the line search runs:
# bracketing by the sufficient-decrease and the slope conditions, step expansion by
# extrapolation, zoom with both bracket updates, the bracket-width stop and the safeguard that
# moves a step hugging an end of the bracket inwards.
LINE_SEARCH_PROBLEMS = {
    "rosenbrock": (rosenbrock, ROSENBROCK_START, dict()),
    "rosenbrock-history3": (rosenbrock, ROSENBROCK_START, dict(history_size=3, max_iter=7)),
    "rosenbrock-lr10-zoom": (rosenbrock, ROSENBROCK_START, dict(lr=10)),
    "quadratic-lr0.003-expansion": (
        lambda lib, x: (lib.arange(1, 7, dtype=x.dtype) * x ** 2).sum(),
        [1.0, -2.0, 3.0, -1.0, 0.5, 2.0], dict(lr=0.003)),
    "l1-lr5-bracket-width": (lambda lib, x: x.abs().sum() + 0.1 * (x ** 2).sum(),
                             [1.0, -2.0, 3.0, -1.0, 0.5, 2.0], dict(lr=5)),
    "wavy-safeguard": (lambda lib, x: (x ** 2).sum() + 2 * lib.sin(5 * x).sum(),
                       list(np.random.RandomState(8).randn(6) * 2), dict()),
}


def lbfgs_state(opt, p):
    st = opt.state[p]
    return st["n_iter"], st["func_evals"], float(st["t"])


def lbfgs_on(lib, fn, start, dtype, kw):
    p = lib.nn.Parameter(lib.tensor(start, dtype=getattr(lib, dtype)))
    opt = lib.optim.LBFGS([p], line_search_fn="strong_wolfe", **kw)

    def closure():
        opt.zero_grad()
        loss = fn(lib, p)
        loss.backward()
        return loss

    return p, opt, closure


@pytest.mark.parametrize("name", list(LINE_SEARCH_PROBLEMS))
def test_lbfgs_strong_wolfe_matches_torch(name):
    """Each step's loss, parameters, iteration and evaluation counts and final step size equal
    torch 1.13's (float64, 4 steps of up to 20 iterations). Relative 1e-7: torch's dot products
    run in the system BLAS (OpenBLAS's summation order differs from the reference BLAS's), and
    L-BFGS carries the last-bit differences through its 80 iterations (5.7e-9 seen)."""
    fn, start, kw = LINE_SEARCH_PROBLEMS[name]
    pb, ob, cb = lbfgs_on(brasa, fn, start, "float64", kw)
    pt, ot, ct = lbfgs_on(torch, fn, start, "float64", kw)
    for _ in range(4):
        lb, lt = ob.step(cb), ot.step(ct)
        assert lb.item() == pytest.approx(lt.item(), rel=1e-7, abs=1e-12)
        assert_close(pb, pt, rtol=1e-7, atol=1e-11)
        assert lbfgs_state(ob, pb)[:2] == lbfgs_state(ot, pt)[:2]
        assert lbfgs_state(ob, pb)[2] == pytest.approx(lbfgs_state(ot, pt)[2], rel=1e-7)
    if name == "rosenbrock":
        assert rosenbrock(brasa, pb).item() < 1e-8  # it reaches the minimum (1, ..., 1)


def test_lbfgs_strong_wolfe_float32_matches_torch():
    """float32: the two libraries' losses already differ in the last bit (summation order), which
    L-BFGS amplifies after a few dozen iterations with or without a line search, so this compares
    one step of 8 iterations."""
    pb, ob, cb = lbfgs_on(brasa, rosenbrock, ROSENBROCK_START, "float32", dict(max_iter=8))
    pt, ot, ct = lbfgs_on(torch, rosenbrock, ROSENBROCK_START, "float32", dict(max_iter=8))
    lb, lt = ob.step(cb), ot.step(ct)
    assert lb.item() == pytest.approx(lt.item(), rel=1e-6)
    assert_close(pb, pt, rtol=1e-5, atol=1e-7)
    assert lbfgs_state(ob, pb)[:2] == lbfgs_state(ot, pt)[:2]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kw", [dict(), dict(lr=0.5, max_iter=5, history_size=3)])
def test_lbfgs_strong_wolfe_model_matches_torch(dtype, kw):
    b, t = models()
    b.to(getattr(brasa, dtype))
    t.to(getattr(torch, dtype))
    if dtype == "float32":  # see the Rosenbrock case
        kw = dict(kw, max_iter=min(kw.get("max_iter", 20), 10))
    ob = brasa.optim.LBFGS(b.parameters(), line_search_fn="strong_wolfe", **kw)
    ot = torch.optim.LBFGS(t.parameters(), line_search_fn="strong_wolfe", **kw)
    x = np.random.RandomState(1).randn(8, 5).astype(dtype)
    y = np.random.RandomState(2).randn(8, 2).astype(dtype)

    def closure(opt, model, lib):
        def run():
            opt.zero_grad()
            loss = ((model(lib.from_numpy(x)) - lib.from_numpy(y)) ** 2).mean()
            loss.backward()
            return loss
        return run

    rtol = 1e-8 if dtype == "float64" else 1e-5
    for _ in range(3 if dtype == "float64" else 1):
        lb, lt = ob.step(closure(ob, b, brasa)), ot.step(closure(ot, t, torch))
        assert lb.item() == pytest.approx(lt.item(), rel=rtol)
    # float32: up to 25 line-search evaluations, each a oneDNN matmul whose summation order depends
    # on the CPU (an Intel host differs from an AMD one by ~7e-7 here); float64 stays tight.
    for pb, pt in zip(b.parameters(), t.parameters()):
        assert_close(pb, pt, rtol=rtol, atol=rtol * (1e-2 if dtype == "float64" else 0.2))
    first_b, first_t = next(iter(b.parameters())), next(iter(t.parameters()))
    assert lbfgs_state(ob, first_b)[:2] == lbfgs_state(ot, first_t)[:2]


def test_argument_errors():
    p = [brasa.nn.Parameter(brasa.ones(2))]
    with pytest.raises(ValueError, match="rho"):
        brasa.optim.Adadelta(p, rho=1.5)
    with pytest.raises(ValueError, match="beta"):
        brasa.optim.NAdam(p, betas=(1.0, 0.9))
    with pytest.raises(ValueError, match="eta"):
        brasa.optim.Rprop(p, etas=(1.5, 1.2))
    with pytest.raises(ValueError, match="learning rate"):
        brasa.optim.RAdam(p, lr=-1)
    with pytest.raises(RuntimeError, match="closure"):
        brasa.optim.LBFGS(p).step(None)
    with pytest.raises(RuntimeError, match="strong_wolfe"):
        brasa.optim.LBFGS(p, line_search_fn="armijo")
    brasa.optim.LBFGS(p, line_search_fn="strong_wolfe")
