"""RNN, LSTM, GRU and the cells against torch 1.13: parameter names and shapes, initialisation
for a seed, outputs, final states and gradients, batched and unbatched."""
import numpy as np
import pytest
import torch

import brasa
import brasa.nn as nn
from nn_support import assert_close, copy_state

SPECS = ["RNN(4, 5)", "RNN(4, 5, 2, nonlinearity='relu', batch_first=True)", "LSTM(4, 5)",
         "LSTM(4, 5, num_layers=2, bidirectional=True)", "GRU(4, 5, bias=False, batch_first=True)",
         "GRU(4, 5, 2, bidirectional=True)"]


def flat(out):
    if isinstance(out, tuple):
        return [t for o in out for t in flat(o)]
    return [out]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("batched", [True, False])
def test_recurrent_layer_matches_torch(spec, batched):
    bm, tm = eval("nn." + spec), eval("torch.nn." + spec)
    assert repr(bm) == repr(tm)
    assert [(n, tuple(p.shape)) for n, p in bm.named_parameters()] == [
        (n, tuple(p.shape)) for n, p in tm.named_parameters()]
    copy_state(bm, tm)
    shape = (2, 3, 4) if batched else (3, 4)
    x = np.random.RandomState(0).randn(*shape).astype(np.float32)
    xb = brasa.from_numpy(x.copy()).requires_grad_()
    xt = torch.from_numpy(x.copy()).requires_grad_()
    ob, ot = flat(bm(xb)), flat(tm(xt))
    assert len(ob) == len(ot)
    for b, t in zip(ob, ot):
        assert_close(b, t)
    sum(o.sum() * (i + 1) for i, o in enumerate(ob)).backward()
    sum(o.sum() * (i + 1) for i, o in enumerate(ot)).backward()
    assert_close(xb.grad, xt.grad, rtol=1e-4, atol=1e-5)
    for pb, pt in zip(bm.parameters(), tm.parameters()):
        assert_close(pb.grad, pt.grad, rtol=1e-4, atol=1e-5)


def test_initial_state_and_seeded_init():
    brasa.manual_seed(5)
    torch.manual_seed(5)
    bm, tm = nn.LSTM(3, 2), torch.nn.LSTM(3, 2)
    for pb, pt in zip(bm.parameters(), tm.parameters()):
        assert_close(pb, pt, rtol=0, atol=0)
    x = np.random.RandomState(1).randn(4, 1, 3).astype(np.float32)
    h0 = np.random.RandomState(2).randn(1, 1, 2).astype(np.float32)
    out_b, (hb, cb) = bm(brasa.from_numpy(x), (brasa.from_numpy(h0), brasa.from_numpy(h0)))
    out_t, (ht, ct) = tm(torch.from_numpy(x), (torch.from_numpy(h0), torch.from_numpy(h0)))
    assert_close(out_b, out_t)
    assert_close(cb, ct)


@pytest.mark.parametrize("spec", ["RNNCell(4, 3)", "RNNCell(4, 3, nonlinearity='relu')",
                                  "GRUCell(4, 3)", "LSTMCell(4, 3, bias=False)"])
def test_cells_match_torch(spec):
    bm, tm = eval("nn." + spec), eval("torch.nn." + spec)
    assert repr(bm) == repr(tm)
    copy_state(bm, tm)
    x = np.random.RandomState(0).randn(2, 4).astype(np.float32)
    for b, t in zip(flat(bm(brasa.from_numpy(x))), flat(tm(torch.from_numpy(x)))):
        assert_close(b, t)
    for b, t in zip(flat(bm(brasa.from_numpy(x[0]))), flat(tm(torch.from_numpy(x[0])))):
        assert_close(b, t)
