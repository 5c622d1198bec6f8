"""brasa.autograd: torch.autograd's functions over brasa's engine."""
from .. import _C
from .function import Function, FunctionCtx, once_differentiable  # noqa: F401
from .grad_mode import (enable_grad, inference_mode, is_inference_mode_enabled, no_grad,
                        set_grad_enabled)

__all__ = ["Function", "backward", "enable_grad", "grad", "inference_mode", "no_grad",
           "set_grad_enabled"]


def _as_tuple(x):
    if x is None:
        return None
    if isinstance(x, _C.Tensor):
        return (x,)
    return tuple(x)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=False):
    """d(outputs)/d(inputs) contracted with grad_outputs, as a tuple; .grad is not touched."""
    outputs, inputs = _as_tuple(outputs), _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs) or ()
    return _C._grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulates the gradients of `tensors` into the leaves' .grad."""
    tensors = _as_tuple(tensors)
    grad_tensors = _as_tuple(grad_tensors) or (None,) * len(tensors)
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        keep = retain_graph if retain_graph is not None else create_graph
        t.backward(g, retain_graph=keep or i + 1 < len(tensors), create_graph=create_graph,
                   inputs=inputs)
