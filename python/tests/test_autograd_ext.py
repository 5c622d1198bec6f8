"""Grad-mode decorators, inference_mode, tensor hooks and autograd.Function subclasses written in
Python, against torch 1.13's behaviour."""
import gc
import math

import numpy as np
import pytest
import torch

import brasa


def test_grad_mode_decorators_keep_the_function_and_restore_the_mode():
    x = brasa.ones(2, requires_grad=True)

    @brasa.enable_grad()
    def inner(t):
        return t * 2

    @brasa.no_grad()
    def outer(t):
        """doc"""
        return inner(t), t * 2

    a, b = outer(x)
    assert a.requires_grad and not b.requires_grad and outer.__doc__ == "doc"
    assert brasa.is_grad_enabled()

    @brasa.set_grad_enabled(False)
    def off(t):
        return t * 2
    assert not off(x).requires_grad and brasa.is_grad_enabled()
    with pytest.raises(ZeroDivisionError):
        with brasa.no_grad():
            1 / 0
    assert brasa.is_grad_enabled()


def test_inference_mode_context_and_decorators():
    x = brasa.ones(2, requires_grad=True)
    with brasa.inference_mode():
        assert brasa.is_inference_mode_enabled() and not brasa.is_grad_enabled()
        y = x * 2
        assert not y.requires_grad
        with brasa.inference_mode(False):
            assert not brasa.is_inference_mode_enabled()
    assert not brasa.is_inference_mode_enabled() and brasa.is_grad_enabled()

    @brasa.inference_mode
    def f(t):
        return t * 2, brasa.is_inference_mode_enabled()

    @brasa.inference_mode()
    def g(t):
        return t * 2
    out, inside = f(x)
    assert inside and not out.requires_grad and not g(x).requires_grad
    assert (x * 2).requires_grad


def test_tensor_hooks_match_torch():
    def run(m):
        x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * x
        seen = []
        y.register_hook(lambda g: seen.append(g.tolist()))
        h = x.register_hook(lambda g: g * 10)
        y.sum().backward()
        first = x.grad.tolist()
        h.remove()
        x.grad = None
        (x * x).sum().backward()
        return seen, first, x.grad.tolist()
    assert run(brasa) == run(torch)


def test_hook_errors_reach_python_with_their_type():
    x = brasa.ones(2, requires_grad=True)

    def bad(g):
        raise ValueError("bad hook")
    x.register_hook(bad)
    with pytest.raises(ValueError, match="bad hook"):
        (x * 2).sum().backward()
    with pytest.raises(RuntimeError, match="doesn't require gradient"):
        brasa.ones(1).register_hook(lambda g: g)


class Exp(brasa.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * y


class ScaleShift(brasa.autograd.Function):
    """Two tensors and a number in, two outputs (one non-differentiable) out."""

    @staticmethod
    def forward(ctx, x, w, k):
        ctx.k = k
        ctx.save_for_backward(x, w)
        ctx.flags = ctx.needs_input_grad
        idx = (x > 0).long()
        ctx.mark_non_differentiable(idx)
        return x * w * k, idx

    @staticmethod
    def backward(ctx, grad, grad_idx):
        x, w = ctx.saved_tensors
        return grad * w * ctx.k, (grad * x * ctx.k).sum(0), None


def test_python_function_forward_and_backward():
    x = brasa.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = Exp.apply(x)
    assert y.grad_fn is not None and y.grad_fn.name() == "ExpBackward"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.5, -1.0, 2.0]), rtol=1e-6)
    xb = brasa.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
    wb = brasa.tensor([0.5, 2.0], requires_grad=True)
    out, idx = ScaleShift.apply(xb, wb, 3.0)
    assert not idx.requires_grad and idx.dtype == brasa.int64 and out.requires_grad
    out.sum().backward()
    xt = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
    wt = torch.tensor([0.5, 2.0], requires_grad=True)
    (xt * wt * 3.0).sum().backward()
    np.testing.assert_allclose(xb.grad.numpy(), xt.grad.numpy())
    np.testing.assert_allclose(wb.grad.numpy(), wt.grad.numpy())
    with brasa.no_grad():
        assert not Exp.apply(x).requires_grad


def test_function_needs_input_grad_and_errors():
    class Probe(brasa.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.flags = ctx.needs_input_grad
            Probe.ctx = ctx
            return a + b

        @staticmethod
        def backward(ctx, g):
            raise TypeError("no backward here")
    a, b = brasa.ones(1, requires_grad=True), brasa.ones(1)
    out = Probe.apply(a, b)
    assert Probe.ctx.flags == (True, False)
    with pytest.raises(TypeError, match="no backward here"):
        out.backward()

    class Wrong(brasa.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g, g, g
    with pytest.raises(RuntimeError, match="incorrect number of gradients"):
        Wrong.apply(a).backward()


def test_function_graph_is_freed():
    x = brasa.ones(1000, requires_grad=True)
    for _ in range(50):
        Exp.apply(x).sum().backward()
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(200):
        Exp.apply(x).sum().backward()
    gc.collect()
    assert len(gc.get_objects()) <= before + 5
    assert math.isclose(x.grad[0].item(), 250 * math.e, rel_tol=1e-5)


def test_function_mark_dirty_and_unused_outputs_match_torch():
    def run(m):
        class Dbl(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.mul_(2)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, g):
                return g * 2
        a = m.tensor([1.0, 2.0], requires_grad=True)
        b = a * 1
        c = Dbl.apply(b)
        out = [c is b, c.tolist(), b.grad_fn.name()]
        (c * c).sum().backward()

        class Pair(m.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                ctx.save_for_backward(x, y)
                return x * y, x + y

            @staticmethod
            def backward(ctx, g1, g2):  # g2 arrives as zeros (materialized)
                x, y = ctx.saved_tensors
                return g1 * y + g2, g1 * x + g2
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = m.tensor([3.0, 4.0], requires_grad=True)
        p, _ = Pair.apply(x, y)
        p.sum().backward()
        return out + [a.grad.tolist(), x.grad.tolist(), y.grad.tolist()]
    assert run(brasa) == run(torch)
