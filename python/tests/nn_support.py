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
