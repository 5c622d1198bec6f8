"""Autograd from Python against torch 1.13: backward, .grad, autograd.grad, grad modes."""
import numpy as np
import pytest
import torch

import brasa


def grads_match(fn_b, fn_t, data):
    xb = brasa.tensor(data, requires_grad=True)
    xt = torch.tensor(data, requires_grad=True)
    fn_b(xb).backward()
    fn_t(xt).backward()
    np.testing.assert_allclose(xb.grad.numpy(), xt.grad.numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn", [
    lambda m, x: (x * 2 + 1).sum(),
    lambda m, x: (x * x).mean(),
    lambda m, x: m.exp(x).sum() / 3,
    lambda m, x: (x.sin() * x.cos()).sum(),
    lambda m, x: m.softmax(x, 0)[1],
    lambda m, x: (x @ x.t()).sum() if x.dim() == 2 else (x * x).sum(),
    lambda m, x: x.pow(3).sum(),
    lambda m, x: x.max(),
    lambda m, x: m.tanh(x).std(),
])
def test_backward_matches_torch(fn):
    grads_match(lambda x: fn(brasa, x), lambda x: fn(torch, x), [0.5, -1.0, 2.0, 0.25])


def test_leaf_state_and_grad_fn():
    x = brasa.ones(3, requires_grad=True)
    y = x * 2
    assert x.is_leaf and not y.is_leaf and x.grad is None
    assert y.grad_fn is not None and y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
    (x * 3).sum().backward()
    assert x.grad.tolist() == [5.0, 5.0, 5.0]  # accumulates
    x.grad = None
    assert x.grad is None


def test_autograd_grad_and_create_graph():
    xb = brasa.tensor([1.0, 2.0], requires_grad=True)
    xt = torch.tensor([1.0, 2.0], requires_grad=True)
    (gb,) = brasa.autograd.grad((xb ** 3).sum(), xb, create_graph=True)
    (gt,) = torch.autograd.grad((xt ** 3).sum(), xt, create_graph=True)
    np.testing.assert_allclose(gb.detach().numpy(), gt.detach().numpy())
    (ggb,) = brasa.autograd.grad(gb.sum(), xb)
    (ggt,) = torch.autograd.grad(gt.sum(), xt)
    np.testing.assert_allclose(ggb.numpy(), ggt.numpy())
    assert xb.grad is None


def test_no_grad_and_enable_grad():
    x = brasa.ones(2, requires_grad=True)
    with brasa.no_grad():
        assert not brasa.is_grad_enabled()
        assert not (x * 2).requires_grad
        with brasa.enable_grad():
            assert (x * 2).requires_grad
    assert brasa.is_grad_enabled() and (x * 2).requires_grad

    @brasa.no_grad()
    def f(t):
        return t * 2

    @brasa.no_grad
    def g(t):
        return t * 2

    assert not f(x).requires_grad and not g(x).requires_grad
    with brasa.set_grad_enabled(False):
        assert not (x + 1).requires_grad
    assert brasa.is_grad_enabled()


def test_backward_errors_like_torch():
    x = brasa.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError):
        (x * 2).backward()  # not a scalar and no gradient
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError):
        y.backward()  # graph freed
