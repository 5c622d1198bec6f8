"""nn.init against torch 1.13 (the same numbers for a seed where torch draws the same way),
nn.utils' clipping and parameter/vector conversion."""
import numpy as np
import pytest
import torch

import brasa
import brasa.nn as nn
from nn_support import assert_close, to_brasa


@pytest.mark.parametrize("name,args", [
    ("uniform_", (-0.5, 2.0)), ("normal_", (1.0, 0.5)), ("xavier_uniform_", (2.0,)),
    ("xavier_normal_", ()), ("kaiming_uniform_", ()), ("kaiming_normal_", (0, "fan_out")),
    ("kaiming_uniform_", (0.2, "fan_in", "leaky_relu"))])
def test_random_initialisers_match_torch_for_a_seed(name, args):
    brasa.manual_seed(11)
    torch.manual_seed(11)
    b, t = brasa.empty(6, 4, 3), torch.empty(6, 4, 3)
    out = getattr(nn.init, name)(b, *args)
    getattr(torch.nn.init, name)(t, *args)
    assert out is b
    assert_close(b, t, rtol=1e-6, atol=1e-6)


def test_deterministic_initialisers_and_gain():
    for fn, args in (("constant_", (0.3,)), ("ones_", ()), ("zeros_", ()), ("eye_", ())):
        b, t = brasa.empty(3, 4), torch.empty(3, 4)
        getattr(nn.init, fn)(b, *args)
        getattr(torch.nn.init, fn)(t, *args)
        assert b.tolist() == t.tolist()
    b, t = brasa.empty(4, 2, 3, 3), torch.empty(4, 2, 3, 3)
    nn.init.dirac_(b, groups=2)
    torch.nn.init.dirac_(t, groups=2)
    assert b.tolist() == t.tolist()
    for nl, p in (("relu", None), ("tanh", None), ("leaky_relu", 0.2), ("selu", None),
                  ("conv2d", None)):
        assert nn.init.calculate_gain(nl, p) == torch.nn.init.calculate_gain(nl, p)
    with pytest.raises(ValueError):
        nn.init.xavier_uniform_(brasa.empty(3))


def test_orthogonal_and_trunc_normal():
    w = nn.init.orthogonal_(brasa.empty(4, 6), gain=2.0)
    np.testing.assert_allclose((w @ w.t()).numpy(), 4 * np.eye(4), atol=1e-5)
    x = nn.init.trunc_normal_(brasa.empty(10000), std=1.0, a=-0.5, b=1.0)
    assert x.min().item() >= -0.5 and x.max().item() <= 1.0
    assert not nn.init.normal_(nn.Parameter(brasa.empty(2))).grad_fn


def test_clip_grad_matches_torch():
    g = np.random.RandomState(0).randn(3, 5).astype(np.float32)
    for max_norm, norm_type in ((1.0, 2.0), (0.5, float("inf")), (100.0, 1.0)):
        pb, pt = nn.Parameter(brasa.zeros(3, 5)), torch.nn.Parameter(torch.zeros(3, 5))
        qb, qt = nn.Parameter(brasa.zeros(5)), torch.nn.Parameter(torch.zeros(5))
        pb.grad, pt.grad = to_brasa(torch.from_numpy(g)), torch.from_numpy(g.copy())
        qb.grad, qt.grad = brasa.ones(5), torch.ones(5)
        nb_ = nn.utils.clip_grad_norm_([pb, qb], max_norm, norm_type)
        nt = torch.nn.utils.clip_grad_norm_([pt, qt], max_norm, norm_type)
        assert_close(nb_, nt)
        assert_close(pb.grad, pt.grad)
        assert_close(qb.grad, qt.grad)
    nn.utils.clip_grad_value_([pb], 0.01)
    assert pb.grad.abs().max().item() <= 0.01


def test_parameters_vector_round_trip():
    m = nn.Linear(3, 2)
    v = nn.utils.parameters_to_vector(m.parameters())
    assert v.shape == (8,)
    nn.utils.vector_to_parameters(brasa.arange(8.0), m.parameters())
    assert m.bias.tolist() == [6.0, 7.0] and m.weight[1].tolist() == [3.0, 4.0, 5.0]
