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
