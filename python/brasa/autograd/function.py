"""brasa.autograd.Function: custom differentiable functions written in Python (Note [Python
autograd functions] in python/src/autograd_binding.cpp), with torch's interface:

    class Exp(brasa.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            y, = ctx.saved_tensors
            return grad * y

    Exp.apply(x)
"""
from .. import _C

FunctionCtx = _C._FunctionCtx


class Function:
    """Subclass with static forward(ctx, *args) and backward(ctx, *grads); call Sub.apply(*args).
    forward runs without recording; backward returns one gradient (or None) per forward argument."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is "
                           "deprecated. Please use new-style autograd function with static "
                           "forward method.")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args):
        return _C._function_apply(cls, *args)


def once_differentiable(fn):
    """Accepted for compatibility: brasa runs backward without recording unless create_graph."""
    return fn
