"""brasa.compile: torch.compile's API over brasa's compile step (docs/compile.md).

    fast = brasa.compile(fn)                 # or @brasa.compile, @brasa.compile(fullgraph=True)
    model = brasa.compile(model)             # an OptimizedModule: forward compiled, params as inputs

The first call of a new signature runs the function under brasa's tracer (its result is the eager
one); later calls whose tensors pass the graph's guards replay the optimised graph (fused pointwise
kernels compiled to C++ and cached on disk) without running the Python function at all. So, as with
torch.compile, Python side effects of the function (prints, appends to a list, counters) happen
when it is traced, not on every call. Non-tensor arguments (ints, strings, tuples of them) are part
of the cache key: each value gets its own graphs. What needs data (item(), tolist(), printing a
tensor, nonzero) is a graph break: that signature runs eagerly (with fullgraph=True: an error).
A function that returns non-tensor values other than None (a shape, a float) runs eagerly too, as
the value could differ on a replay. BRASA_COMPILE=0 makes compile the identity.
"""
import functools
import warnings

from . import _compiled as _X
from ._C import Tensor
from .nn.modules.module import Module

__all__ = ["compile", "reset", "stats", "reset_stats", "mark_dynamic", "list_backends",
           "OptimizedModule"]

# backend -> brasa's mode; "inductor" (torch's default) is brasa's generated C++.
_BACKENDS = {"inductor": "default", "brasa": "default", "aot_eager": "no-fuse",
             "eager": "interpret"}
_TORCH_MODES = ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")
_generation = [0]  # reset() drops every compiled function's graphs


def list_backends(exclude_tags=()):
    """The backend names compile accepts."""
    return sorted(_BACKENDS)


def stats():
    """Process-wide counters (brasa::compile_stats): traces, graphs, compiler_runs, cache hits,
    recompiles with their reasons, graph_breaks, compiled_calls, eager_calls, fused kernels..."""
    return _X.stats()


def reset_stats():
    _X.reset_stats()


def mark_dynamic(t, index, min=None, max=None):
    """Dim `index` of `t` (an int or a list of ints) is dynamic in every graph traced with `t`,
    for sizes in [min, max] (torch._dynamo.mark_dynamic)."""
    for i in ([index] if isinstance(index, int) else index):
        _X.mark_dynamic(t, i, 2 if min is None else min, 2**63 - 1 if max is None else max)


def reset():
    """Forgets every compiled graph: the next call of each compiled function traces again."""
    _generation[0] += 1


# ---- flattening of arguments and results ---------------------------------------------------------
_TENSOR = object()


def _flatten(obj, leaves):
    """The structure of obj with its tensors replaced by a marker (appended to leaves) and its
    other values kept; tuples, lists and dicts are walked."""
    if isinstance(obj, Tensor):
        leaves.append(obj)
        return _TENSOR
    if isinstance(obj, (tuple, list)):
        return (type(obj), tuple(_flatten(o, leaves) for o in obj))
    if isinstance(obj, dict):
        return (dict, tuple(obj.keys()), tuple(_flatten(v, leaves) for v in obj.values()))
    return ("value", obj)


def _unflatten(spec, leaves):
    if spec is _TENSOR:
        return next(leaves)
    kind = spec[0]
    if kind == "value":
        return spec[1]
    if kind is dict:
        return {k: _unflatten(s, leaves) for k, s in zip(spec[1], spec[2])}
    items = [_unflatten(s, leaves) for s in spec[1]]
    if kind is list:
        return items
    return kind(*items) if hasattr(kind, "_fields") else kind(items)  # namedtuple or tuple


def _constant_leaves(spec):
    """True when spec holds a non-tensor value other than None."""
    if spec is _TENSOR:
        return False
    if spec[0] == "value":
        return spec[1] is not None
    return any(_constant_leaves(s) for s in spec[-1])


def _freeze(spec):
    """A hashable key for an argument structure (its tensors are the graph's inputs)."""
    if spec is _TENSOR:
        return _TENSOR
    if spec[0] == "value":
        v = spec[1]
        hash(v)  # TypeError: an unhashable argument (the caller runs eagerly)
        return ("value", type(v), v)
    if spec[0] is dict:
        return (dict, spec[1], tuple(_freeze(s) for s in spec[2]))
    return (spec[0], tuple(_freeze(s) for s in spec[1]))


# ---- the compiled function -----------------------------------------------------------------------
class _Compiled:
    """One compiled callable: per argument structure, brasa's guard-keyed graphs."""

    def __init__(self, fn, name, options, extra_inputs=None):
        self._fn = fn
        self._name = name
        self._options = options  # (dynamic, recompile_limit, fullgraph, mode)
        self._extra_inputs = extra_inputs  # a module's parameters and buffers, or None
        self._entries = {}  # key -> [handle or None, output spec or None, eager reason]
        self._generation = _generation[0]
        self._warned = set()

    def _eager(self, why, args, kwargs):
        if why not in self._warned:
            self._warned.add(why)
            warnings.warn(f"brasa.compile: {self._name} runs eagerly: {why}", stacklevel=3)
        return self._fn(*args, **kwargs)

    def __call__(self, *args, **kwargs):
        if self._generation != _generation[0]:
            self._entries.clear()
            self._generation = _generation[0]
        inputs = []
        arg_spec = _flatten((args, kwargs), inputs)
        try:
            key = _freeze(arg_spec)
        except TypeError:
            return self._eager("an argument is not a tensor and not hashable", args, kwargs)
        if self._extra_inputs is not None:
            owner = self._extra_inputs()
            key = (key, owner.training)
            inputs.extend(owner.parameters())
            inputs.extend(owner.buffers())
        entry = self._entries.get(key)
        if entry is None:
            dynamic, limit, fullgraph, mode = self._options
            entry = [_X.make(dynamic, limit, fullgraph, mode, self._name), None, None]
            self._entries[key] = entry
        handle, out_spec, eager_reason = entry
        if handle is None:  # BRASA_COMPILE=0
            return self._fn(*args, **kwargs)
        if eager_reason is not None:
            return self._eager(eager_reason, args, kwargs)

        result = []  # the Python result of a run of fn during this call, if any

        def closure():
            r = self._fn(*args, **kwargs)
            leaves = []
            spec = _flatten(r, leaves)
            result.append(r)
            entry[1] = spec
            return leaves

        outputs = _X.call(handle, inputs, closure)
        if result:  # traced or run eagerly in this call: its own result, as eager returns it
            if _constant_leaves(entry[1]):
                entry[2] = "it returns non-tensor values, which a replay could not recompute"
                if self._options[2]:
                    raise RuntimeError(f"brasa.compile(fullgraph=True): {self._name} "
                                       f"{entry[2]}")
            return result[-1]
        return _unflatten(entry[1], iter(outputs))


class OptimizedModule(Module):
    """A module whose forward runs compiled (torch's OptimizedModule): the original module is
    `_orig_mod` (so state_dict keys start with "_orig_mod."), its parameters and buffers are graph
    inputs (optimizer steps and load_state_dict never leave a graph reading stale tensors), and
    training and eval modes have separate graphs."""

    def __init__(self, mod, compiled):
        super().__init__()
        self._orig_mod = mod
        object.__setattr__(self, "_compiled_call", compiled)

    def forward(self, *args, **kwargs):
        return self._compiled_call(*args, **kwargs)

    def train(self, mode=True):
        self._orig_mod.train(mode)
        object.__setattr__(self, "training", mode)
        return self

    def __getattr__(self, name):
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self.__dict__["_modules"]["_orig_mod"], name)


def _options(fullgraph, dynamic, backend, mode, options):
    if backend not in _BACKENDS:
        raise ValueError(f"brasa.compile: unknown backend {backend!r}; brasa has "
                         f"{', '.join(list_backends())}")
    brasa_mode = _BACKENDS[backend]
    if mode in ("no-fuse", "interpret"):
        brasa_mode = mode
    elif mode is not None and mode not in _TORCH_MODES:
        raise ValueError(f"brasa.compile: unknown mode {mode!r}; expected one of "
                         f"{', '.join(_TORCH_MODES + ('no-fuse', 'interpret'))}")
    limit = 8
    for k, v in (options or {}).items():
        if k != "recompile_limit":
            raise ValueError(f"brasa.compile: unknown option {k!r} (brasa has: recompile_limit)")
        limit = int(v)
    dyn = {None: "automatic", True: "all", False: "static"}.get(dynamic)
    if dyn is None:
        raise ValueError(f"brasa.compile: dynamic must be None, True or False, got {dynamic!r}")
    return (dyn, limit, bool(fullgraph), brasa_mode)


def compile(model=None, *, fullgraph=False, dynamic=None, backend="inductor", mode=None,
            options=None, disable=False):
    """torch.compile: compiles a function of tensors, or a Module's forward. backend "inductor"
    (or "brasa") fuses and generates C++, "aot_eager" runs the optimised graph op by op, "eager"
    replays the captured graph as recorded; mode "no-fuse"/"interpret" choose the same directly.
    dynamic: None (sizes become symbolic once a second size traces to the same graph), True (all
    dims symbolic from the start), False (every new size traces again). options:
    {"recompile_limit": n} (graphs per argument structure; default 8)."""
    opts = _options(fullgraph, dynamic, backend, mode, options)
    if model is None:
        return lambda m: compile(m, fullgraph=fullgraph, dynamic=dynamic, backend=backend,
                                 mode=mode, options=options, disable=disable)
    if disable:
        return model
    if isinstance(model, Module):
        import weakref
        owner = weakref.ref(model)
        name = f"the module {type(model).__name__}"
        return OptimizedModule(model, _Compiled(model, name, opts, extra_inputs=owner))
    if not callable(model):
        raise TypeError(f"brasa.compile: expected a function or a Module, got "
                        f"{type(model).__name__}")
    name = f"the function {getattr(model, '__qualname__', repr(model))}"
    compiled = _Compiled(model, name, opts)

    @functools.wraps(model)
    def wrapper(*args, **kwargs):
        return compiled(*args, **kwargs)

    wrapper._brasa_compiled = compiled
    return wrapper
