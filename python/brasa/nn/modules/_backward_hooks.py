"""Module.register_full_backward_hook: identity autograd.Functions around a call's tensor inputs
and outputs. The outputs' node records grad_output; the inputs' node sees grad_input, calls the
hooks and passes on what they return. With no input requiring grad, the hooks run at the outputs'
node with grad_input all None, as torch does."""
from ... import _C
from ...autograd.function import Function


def _identity(ctx, *tensors):
    return tensors if len(tensors) != 1 else tensors[0]


class _Outputs(Function):
    forward = staticmethod(_identity)

    @staticmethod
    def backward(ctx, *grads):
        ctx.hook_state.grad_outputs = grads
        if ctx.hook_state.n_inputs == 0:
            ctx.hook_state.run(tuple(None for _ in range(ctx.hook_state.n_args)))
        return grads if len(grads) != 1 else grads[0]


class _Inputs(Function):
    forward = staticmethod(_identity)

    @staticmethod
    def backward(ctx, *grads):
        out = ctx.hook_state.run(grads)
        return out if len(out) != 1 else out[0]


class BackwardHook:
    def __init__(self, module, hooks):
        self.module, self.hooks = module, hooks
        self.grad_outputs, self.n_inputs, self.n_args = None, 0, 0

    def run(self, grad_inputs):
        grad_inputs = tuple(grad_inputs)
        for hook in self.hooks:
            r = hook(self.module, grad_inputs, self.grad_outputs)
            if r is not None:
                r = tuple(r) if isinstance(r, (tuple, list)) else (r,)
                if len(r) != len(grad_inputs):
                    raise RuntimeError(f"Backward hook returned an invalid number of grad_input, "
                                       f"got {len(r)}, but expected {len(grad_inputs)}")
                grad_inputs = r
        return grad_inputs

    def _wrap(self, fn, values):
        idx = [i for i, v in enumerate(values) if isinstance(v, _C.Tensor)]
        if not idx:
            return values, 0
        fn_state = self

        class Wrapped(fn):
            @staticmethod
            def forward(ctx, *tensors):
                ctx.hook_state = fn_state
                return _identity(ctx, *(t.view_as(t) for t in tensors))
        Wrapped.__name__ = "BackwardHookFunction"
        out = Wrapped.apply(*(values[i] for i in idx))
        out = out if isinstance(out, tuple) else (out,)
        values = list(values)
        for k, i in enumerate(idx):
            values[i] = out[k]
        return values, len(idx)

    def setup_inputs(self, args):
        needs = [a for a in args if isinstance(a, _C.Tensor) and a.requires_grad]
        self.n_args = sum(isinstance(a, _C.Tensor) for a in args)
        if not needs:
            return args
        values, self.n_inputs = self._wrap(_Inputs, args)
        return tuple(values)

    def setup_outputs(self, result):
        if isinstance(result, _C.Tensor):
            return self._wrap(_Outputs, [result])[0][0]
        if isinstance(result, tuple):
            return tuple(self._wrap(_Outputs, list(result))[0])
        return result
