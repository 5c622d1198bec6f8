"""Helpers for the nn/optim tests: brasa and torch modules with the same weights, compared."""
import numpy as np
import torch

import brasa


def to_brasa(t):
    return brasa.from_numpy(t.detach().numpy().copy())


def copy_state(bm, tm):
    """Copies torch module tm's parameters and buffers into brasa module bm (same names)."""
    bs, ts = bm.state_dict(), tm.state_dict()
    assert list(bs) == list(ts)
    bm.load_state_dict({k: to_brasa(v) for k, v in ts.items()})


def assert_close(b, t, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(b.detach().numpy(), t.detach().numpy(), rtol=rtol, atol=atol)


def step_both_and_compare(ob, ot, b, t, dtype, steps):
    """Runs `steps` optimizer steps of ob (brasa module b) and ot (torch module t) on the same
    [8, 5] batch and loss, then checks the parameters agree (1e-5 in float32, 1e-10 in float64)."""
    x = np.random.RandomState(1).randn(8, 5).astype(dtype)
    for _ in range(steps):
        ob.zero_grad()
        ot.zero_grad()
        (b(brasa.from_numpy(x)) ** 2).mean().backward()
        (t(torch.from_numpy(x)) ** 2).mean().backward()
        ob.step()
        ot.step()
    tol = 1e-5 if dtype == "float32" else 1e-10
    for pb, pt in zip(b.parameters(), t.parameters()):
        assert_close(pb, pt, rtol=tol, atol=tol)
