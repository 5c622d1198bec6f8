"""libtorch's at:: functions from Python (Note [aten functions in Python]) and the session-16
fixes the conformance cases found: brasa.ops.aten's fallback to brasa._C._aten / _C._nn, torch's
top-level spellings, the in-place activations, FractionalMaxPool, CrossMapLRN2d, MaxUnpool's
output_size checks, pow's integer check, fill_ / masked_fill with tensor values, softmax of empty
integral inputs, embedding_bag's 2-d per-sample weights and affine_grid's size check."""
import numpy as np
import pytest
import torch

import brasa
import brasa.nn as bnn
import brasa.nn.functional as BF
import torch.nn.functional as TF

A, TA = brasa.ops.aten, torch.ops.aten


def b(t):
    return brasa.from_numpy(t.detach().numpy().copy())


def same(x, y, tol=1e-6):
    if isinstance(y, (tuple, list)):
        assert len(x) == len(y)
        for u, v in zip(x, y):
            same(u, v, tol)
        return
    assert tuple(x.shape) == tuple(y.shape)
    assert str(x.dtype).split(".")[-1] == str(y.dtype).split(".")[-1]
    np.testing.assert_allclose(x.detach().numpy(), y.detach().numpy(), rtol=tol, atol=tol)


def test_aten_namespace_falls_back_to_the_bound_functions():
    x = torch.tensor([[1, 2], [1, 2], [0, 5]])
    same(A.unique_dim(b(x), 0), TA.unique_dim(x, 0))
    same(A.unique_consecutive(b(x.flatten()), True, True), TA.unique_consecutive(x.flatten(), True, True))
    same(A.unique_dim_consecutive(b(x), 0, True, True), TA.unique_dim_consecutive(x, 0, True, True))
    lp = torch.randn(4, 3, dtype=torch.float64).log_softmax(1)
    t = torch.tensor([0, 2, 1, 2])
    same(A.nll_loss_forward(b(lp), b(t), None, 1, -100), TA.nll_loss_forward(lp, t, None, 1, -100))
    same(A.nll_loss_nd(b(lp), b(t)), TA.nll_loss_nd(lp, t))
    v = torch.randn(2, 3, 5)
    same(A.pad(b(v), [1, 2]), TA.pad(v, [1, 2]))  # aten's defaults
    same(A.pad(b(v), [1, 1], "reflect"), TA.pad(v, [1, 1], "reflect"))
    same(A.upsample_linear1d(b(v), None, False, [1.5]), TA.upsample_linear1d.vec(v, None, False, [1.5]))
    same(A.upsample_linear1d(b(v), [8], True), TA.upsample_linear1d(v, [8], True))
    with pytest.raises(AttributeError):
        A.no_such_op


def test_recurrent_cells_take_atens_defaults():
    x, h = torch.randn(2, 3), torch.randn(2, 4)
    w_ih, w_hh = torch.randn(16, 3), torch.randn(16, 4)
    same(A.lstm_cell(b(x), [b(h), b(h)], b(w_ih), b(w_hh)), TA.lstm_cell(x, [h, h], w_ih, w_hh), 1e-5)
    same(brasa.gru_cell(b(x), b(h), b(w_ih[:12]), b(w_hh[:12])), torch.gru_cell(x, h, w_ih[:12], w_hh[:12]),
         1e-5)


def test_top_level_aten_spellings():
    x = torch.randn(4, 3, 5, dtype=torch.float64)
    w, bias = torch.randn(3, dtype=torch.float64), torch.randn(3, dtype=torch.float64)
    same(brasa.native_batch_norm(b(x), b(w), b(bias), None, None, True, 0.1, 1e-5),
         torch.native_batch_norm(x, w, bias, None, None, True, 0.1, 1e-5))
    same(brasa.native_layer_norm(b(x), [5], None, None, 1e-5), torch.native_layer_norm(x, [5], None, None, 1e-5))
    same(brasa.dropout(b(x), 0.3, False), torch.dropout(x, 0.3, False))
    sym = x[0, :, :3] @ x[0, :, :3].T
    same(brasa.symeig(b(sym))[0], torch.symeig(sym)[0])
    c = torch.randn(1, 6, 2)
    same(brasa.native_channel_shuffle(b(c), 3), torch.native_channel_shuffle(c, 3))


@pytest.mark.parametrize("name,args", [("selu_", []), ("celu_", [0.8]), ("threshold_", [0.0, 7.0]),
                                       ("rrelu_", []), ("logit_", [0.1])])
def test_top_level_inplace_activations_return_their_input(name, args):
    x = torch.rand(3, 4) * (1 if name == "logit_" else 4) - (0 if name == "logit_" else 2)
    y = b(x)
    assert getattr(brasa, name)(y, *args) is y
    same(y, getattr(torch, name)(x.clone(), *args))


@pytest.mark.parametrize("name,args", [("elu_", [1.2]), ("celu_", []), ("selu_", []), ("hardtanh_", [-0.5, 0.5]),
                                       ("leaky_relu_", [0.1]), ("rrelu_", []), ("threshold_", [0.0, 7.0])])
def test_functional_inplace_activations(name, args):
    x = torch.randn(3, 4) * 3
    y = b(x)
    assert getattr(BF, name)(y, *args) is y
    same(y, getattr(TF, name)(x.clone(), *args))


def test_fractional_max_pool_matches_torch_with_the_same_samples():
    x = torch.randn(2, 3, 9, 8, dtype=torch.float64, requires_grad=True)
    s = torch.rand(2, 3, 2, dtype=torch.float64)
    xb = b(x).requires_grad_()
    for kw in (dict(output_size=[4, 5]), dict(output_ratio=[0.5, 0.7])):
        out_t, idx_t = torch.nn.FractionalMaxPool2d(3, return_indices=True, _random_samples=s, **kw)(x)
        out_b, idx_b = bnn.FractionalMaxPool2d(3, return_indices=True, _random_samples=b(s), **kw)(xb)
        same((out_b, idx_b), (out_t, idx_t))
        gt, = torch.autograd.grad(out_t.sum(), x)
        gb, = brasa.autograd.grad(out_b.sum(), xb)
        same(gb, gt)
    assert tuple(BF.fractional_max_pool3d(brasa.randn(1, 2, 6, 7, 5), 2, output_size=[3, 4, 2]).shape) == (1, 2, 3, 4, 2)
    with pytest.raises(ValueError):
        bnn.FractionalMaxPool2d(2)


def test_cross_map_lrn2d_forward_and_backward():
    x = torch.randn(2, 5, 3, 4, dtype=torch.float64, requires_grad=True) * 4
    x.retain_grad()
    xb = b(x).requires_grad_()
    yt = torch.nn.CrossMapLRN2d(3, 0.2, 0.75, 1)(x)
    yb = bnn.CrossMapLRN2d(3, 0.2, 0.75, 1)(xb)
    same(yb, yt)
    g = torch.randn(2, 5, 3, 4, dtype=torch.float64)
    gt, = torch.autograd.grad(yt, x, g)
    gb, = brasa.autograd.grad(yb, xb, b(g))
    same(gb, gt)
    with pytest.raises(RuntimeError):
        bnn.CrossMapLRN2d(3)(brasa.randn(5, 3, 4))


def test_max_unpool_checks_output_size_as_torch():
    x = torch.randn(2, 3, 9)
    v, i = TF.max_pool1d(x, 2, 2, return_indices=True)
    bad = [15]
    with pytest.raises(ValueError, match="dim 0 must be between 6 and 10"):
        torch.nn.MaxUnpool1d(2)(v, i, bad)
    with pytest.raises(ValueError, match="dim 0 must be between 6 and 10"):
        bnn.MaxUnpool1d(2)(b(v), b(i), bad)
    same(bnn.MaxUnpool1d(2)(b(v), b(i), list(x.shape)), torch.nn.MaxUnpool1d(2)(v, i, list(x.shape)))


def test_pow_refuses_integers_to_negative_integer_scalars():
    x = brasa.tensor([1, 2, 3])
    for f in (lambda: brasa.pow(x, -1), lambda: x.pow(-1), lambda: x ** -1, lambda: x.pow_(-1)):
        with pytest.raises(RuntimeError, match="negative integer powers"):
            f()
    assert brasa.pow(x, brasa.tensor(-1)).tolist() == torch.pow(torch.tensor([1, 2, 3]), torch.tensor(-1)).tolist()
    assert (x.double() ** -1).tolist() == [1.0, 0.5, 1 / 3]


def test_fill_and_masked_fill_with_tensor_values():
    x = brasa.zeros(3)
    with pytest.raises(RuntimeError, match="0-dimensional"):
        x.fill_(brasa.tensor([2.0]))
    assert x.fill_(brasa.tensor(2.0)) is x and x.tolist() == [2.0] * 3
    assert brasa.fill_(x, 3) is x and x.fill_(value=4).tolist() == [4.0] * 3
    m = brasa.tensor([True, False, True])
    with pytest.raises(RuntimeError, match="0-dimensional"):
        x.masked_fill(m, brasa.tensor([1.0, 2.0]))
    v = brasa.tensor(2.0, requires_grad=True)
    y = brasa.masked_fill(brasa.zeros(3), m, v)
    y.sum().backward()
    assert y.tolist() == [2.0, 0.0, 2.0] and v.grad.item() == 2.0
    assert x.masked_fill_(m, brasa.tensor(1.0)) is x and x.tolist() == [1.0, 4.0, 1.0]
    assert x.masked_fill(m, 7).tolist() == [7.0, 4.0, 7.0]


def test_softmax_of_an_empty_integral_input_is_an_empty_copy():
    e = brasa.zeros(0, 4, dtype=brasa.int64)
    for f in (BF.softmax, BF.log_softmax, BF.softmin):
        r = f(e, dim=-1)
        assert r.dtype == brasa.int64 and tuple(r.shape) == (0, 4)
    with pytest.raises(TypeError):
        BF.softmax(brasa.ones(2, 4, dtype=brasa.int64), dim=-1)


def test_embedding_bag_with_2d_per_sample_weights():
    w = torch.randn(10, 3)
    idx = torch.randint(0, 10, (2, 4))
    psw = torch.rand(2, 4)
    same(BF.embedding_bag(b(idx), b(w), mode="sum", per_sample_weights=b(psw)),
         TF.embedding_bag(idx, w, mode="sum", per_sample_weights=psw), 1e-5)
    with pytest.raises(ValueError):
        BF.embedding_bag(b(idx), b(w), mode="sum", per_sample_weights=b(psw.flatten()))


def test_affine_grid_refuses_an_empty_size():
    theta = brasa.randn(2, 2, 3)
    with pytest.raises(ValueError, match="positive output size"):
        BF.affine_grid(theta, [2, 3, 0, 5], align_corners=False)
    assert tuple(BF.affine_grid(theta, [2, 3, 4, 5], align_corners=False).shape) == (2, 4, 5, 2)
