"""brasa.utils.checkpoint: activation checkpointing (torch.utils.checkpoint). The wrapped function
runs without recording a graph; backward runs it again, with the random state it saw the first
time when preserve_rng_state (dropout masks repeat), and differentiates that second run. Memory
for the function's intermediate values is traded for a second forward."""
import brasa

from ..autograd.function import Function


class _Checkpoint(Function):
    @staticmethod
    def forward(ctx, run, preserve_rng_state, *args):
        ctx.run, ctx.preserve = run, preserve_rng_state
        ctx.rng = brasa.get_rng_state() if preserve_rng_state else None
        ctx.grad_enabled = brasa.is_grad_enabled()
        tensors = [a for a in args if isinstance(a, brasa.Tensor)]
        ctx.save_for_backward(*tensors)
        ctx.args = [None if isinstance(a, brasa.Tensor) else a for a in args]
        with brasa.no_grad():
            return run(*args)

    @staticmethod
    def backward(ctx, *grads):
        saved = iter(ctx.saved_tensors)
        args = [next(saved) if a is None else a for a in ctx.args]
        inputs = [a.detach().requires_grad_(a.requires_grad) if isinstance(a, brasa.Tensor) else a
                  for a in args]
        outer = brasa.get_rng_state() if ctx.preserve else None
        if ctx.preserve:
            brasa.set_rng_state(ctx.rng)
        try:
            with brasa.enable_grad():
                outputs = ctx.run(*inputs)
        finally:
            if ctx.preserve:
                brasa.set_rng_state(outer)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [(o, g) for o, g in zip(outputs, grads)
                 if isinstance(o, brasa.Tensor) and o.requires_grad and g is not None]
        if pairs:  # accumulates into the parameters' .grad too, as torch's reentrant form does
            brasa.autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        result = [x.grad if isinstance(x, brasa.Tensor) else None for x in inputs]
        return (None, None) + tuple(result)


def checkpoint(function, *args, use_reentrant=True, preserve_rng_state=True, **kwargs):
    """function(*args) with its intermediate values recomputed in backward instead of kept."""
    if kwargs:
        raise ValueError("checkpoint: unexpected keyword arguments " + ", ".join(sorted(kwargs)))
    if not any(isinstance(a, brasa.Tensor) and a.requires_grad for a in args) and \
            not brasa.is_grad_enabled():
        return function(*args)
    return _Checkpoint.apply(function, preserve_rng_state, *args)


def checkpoint_sequential(functions, segments, input, use_reentrant=True, **kwargs):
    """A Sequential (or list of modules) run in `segments` checkpointed pieces; the last piece runs
    normally, as in torch."""
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("checkpoint_sequential: unexpected keyword arguments " +
                         ", ".join(sorted(kwargs)))
    functions = list(functions.children()) if isinstance(functions, brasa.nn.Sequential) \
        else list(functions)
    size = len(functions) // segments

    def run(start, end):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)
