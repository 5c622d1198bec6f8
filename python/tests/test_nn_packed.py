"""nn.utils.rnn's PackedSequence against torch 1.13: packing and padding (sorted or not,
batch_first, total_length), pack_sequence/pad_sequence/unpack_sequence, and RNN/LSTM/GRU over
packed input: outputs, final states and gradients (input and weights)."""
import numpy as np
import pytest
import torch

import brasa
import brasa.nn as nn
from brasa.nn.utils import rnn as brnn
from nn_support import assert_close, copy_state, to_brasa
from torch.nn.utils import rnn as trnn

LENGTHS = [[5, 3, 3, 1], [2, 5, 1, 4], [3]]


def padded_input(lengths, features=4, batch_first=False):
    rs = np.random.RandomState(0)
    x = rs.randn(len(lengths), max(lengths), features)
    for i, n in enumerate(lengths):
        x[i, n:] = 0
    if not batch_first:
        x = x.transpose(1, 0, 2).copy()
    return x


def same_pack(pb, pt):
    assert_close(pb.data, pt.data, rtol=1e-12, atol=0)
    assert pb.batch_sizes.tolist() == pt.batch_sizes.tolist()
    for a, b in ((pb.sorted_indices, pt.sorted_indices),
                 (pb.unsorted_indices, pt.unsorted_indices)):
        assert (a is None) == (b is None)
        if a is not None:
            assert a.tolist() == b.tolist()


@pytest.mark.parametrize("lengths", LENGTHS)
@pytest.mark.parametrize("batch_first", [False, True])
def test_pack_and_pad_match_torch(lengths, batch_first):
    x = padded_input(lengths, batch_first=batch_first)
    enforce = lengths == sorted(lengths, reverse=True)
    pb = brnn.pack_padded_sequence(brasa.from_numpy(x), lengths, batch_first, enforce)
    pt = trnn.pack_padded_sequence(torch.from_numpy(x), lengths, batch_first, enforce)
    same_pack(pb, pt)
    assert isinstance(pb, tuple) and pb._fields == pt._fields
    for total in (None, max(lengths) + 2):
        (ob, lb), (ot, lt) = (brnn.pad_packed_sequence(pb, batch_first, -1.0, total),
                              trnn.pad_packed_sequence(pt, batch_first, -1.0, total))
        assert_close(ob, ot, rtol=0, atol=0)
        assert lb.tolist() == lt.tolist()
    with pytest.raises(RuntimeError):
        brnn.pad_packed_sequence(pb, total_length=max(lengths) - 1 if max(lengths) > 1 else 0)


def test_sequence_helpers_match_torch():
    rs = np.random.RandomState(1)
    seqs = [rs.randn(n, 3) for n in (2, 4, 1)]
    sb, st = [brasa.from_numpy(s) for s in seqs], [torch.from_numpy(s) for s in seqs]
    assert_close(brnn.pad_sequence(sb, True, 7.0), trnn.pad_sequence(st, True, 7.0))
    same_pack(brnn.pack_sequence(sb, enforce_sorted=False),
              trnn.pack_sequence(st, enforce_sorted=False))
    for a, b in zip(brnn.unpack_sequence(brnn.pack_sequence(sb, enforce_sorted=False)), seqs):
        np.testing.assert_array_equal(a.numpy(), b)
    with pytest.raises(RuntimeError):
        brnn.pack_sequence(sb)  # not sorted by decreasing length


def test_packing_is_differentiable():
    x = brasa.from_numpy(padded_input([3, 2])).requires_grad_()
    packed = brnn.pack_padded_sequence(x, [3, 2])
    (packed.data * 2).sum().backward()
    mask = (padded_input([3, 2]) != 0).any(-1, keepdims=True)
    np.testing.assert_array_equal(x.grad.numpy(), np.broadcast_to(2.0 * mask, x.shape))


SPECS = ["RNN(4, 5)", "RNN(4, 5, 2, nonlinearity='relu')", "LSTM(4, 5)",
         "LSTM(4, 5, num_layers=2, bidirectional=True, batch_first=True)", "GRU(4, 5, bias=False)",
         "GRU(4, 5, 2, bidirectional=True)"]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("lengths", LENGTHS[:2])
@pytest.mark.parametrize("with_hx", [False, True])
def test_recurrent_layers_over_packed_input(spec, lengths, with_hx):
    bm, tm = eval("nn." + spec).double(), eval("torch.nn." + spec).double()
    copy_state(bm, tm)
    batch_first = "batch_first" in spec
    x = padded_input(lengths, batch_first=batch_first)
    xb, xt = brasa.from_numpy(x).requires_grad_(), torch.from_numpy(x).requires_grad_()
    enforce = lengths == sorted(lengths, reverse=True)
    pb = brnn.pack_padded_sequence(xb, lengths, batch_first, enforce)
    pt = trnn.pack_padded_sequence(xt, lengths, batch_first, enforce)
    hx_b = hx_t = None
    if with_hx:
        dirs = 2 if tm.bidirectional else 1
        h = np.random.RandomState(3).randn(tm.num_layers * dirs, len(lengths), 5)
        hx_t = torch.from_numpy(h)
        hx_b = to_brasa(hx_t)
        if "LSTM" in spec:
            hx_t, hx_b = (hx_t, hx_t * 0.5), (hx_b, hx_b * 0.5)
    ob, sb = bm(pb, hx_b)
    ot, st = tm(pt, hx_t)
    assert isinstance(ob, brnn.PackedSequence)
    assert_close(ob.data, ot.data, rtol=1e-10, atol=1e-12)
    assert ob.batch_sizes.tolist() == ot.batch_sizes.tolist()
    assert (ob.sorted_indices is None) == (ot.sorted_indices is None)
    states_b = sb if isinstance(sb, tuple) else (sb,)
    states_t = st if isinstance(st, tuple) else (st,)
    for b, t in zip(states_b, states_t):
        assert_close(b, t, rtol=1e-10, atol=1e-12)
    weights = np.random.RandomState(4).randn(*ot.data.shape)
    loss_b = (ob.data * brasa.from_numpy(weights)).sum() + sum(s.sum() for s in states_b)
    loss_t = (ot.data * torch.from_numpy(weights)).sum() + sum(s.sum() for s in states_t)
    loss_b.backward()
    loss_t.backward()
    assert_close(xb.grad, xt.grad, rtol=1e-9, atol=1e-11)
    for (n, pb_), (_, pt_) in zip(bm.named_parameters(), tm.named_parameters()):
        assert_close(pb_.grad, pt_.grad, rtol=1e-9, atol=1e-11)


def test_packed_input_errors():
    packed = brnn.pack_sequence([brasa.ones(3, 2), brasa.ones(1, 2)])
    with pytest.raises(ValueError, match="packed data"):
        nn.LSTM(4, 5)(packed)
