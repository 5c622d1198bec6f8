"""torch functions and Tensor methods whose Python signature is not one op's schema: several ops
behind one name (max/min), varargs shapes (reshape), dtype conversions (to, float(), ...)."""
import builtins
import collections

from . import _C, _composite_functions, _nn_aten, _ops

_ValuesIndices = {name: collections.namedtuple(name, ["values", "indices"])
                  for name in ("max", "min", "topk", "cummax", "cummin")}


def _extremum(name, all_dims, elementwise):
    def fn(input, dim=None, keepdim=False, *, out=None):
        if dim is None:
            return all_dims(input)
        if isinstance(dim, _C.Tensor):
            return elementwise(input, dim)
        return _ValuesIndices[name](*getattr(_ops, name)(input, dim, keepdim))
    fn.__name__ = name
    return fn


max = _extremum("max", lambda t: _ops.amax(t), lambda a, b: _ops.maximum(a, b))
min = _extremum("min", lambda t: _ops.amin(t), lambda a, b: _ops.minimum(a, b))


def _named(name):
    op = getattr(_ops, name)

    def fn(*args, **kwargs):
        return _ValuesIndices[name](*op(*args, **kwargs))
    fn.__name__ = name
    return fn


topk, cummax, cummin = (_named(n) for n in ("topk", "cummax", "cummin"))


def div(input, other, *, rounding_mode=None, out=None):
    """torch.div: true division, or rounded toward zero ("trunc") or down ("floor")."""
    op = {None: _ops.div, "trunc": _ops.div_trunc, "floor": _ops.floor_divide}.get(rounding_mode)
    if op is None:
        raise ValueError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                         f"found '{rounding_mode}'")
    return op(input, other, out=out)


def _variance(name):
    op = getattr(_ops, name)

    def fn(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
        if isinstance(dim, bool):  # var(input, unbiased)
            dim, unbiased = None, dim
        if correction is None:
            correction = 0 if unbiased is False else 1
        return op(input, [] if dim is None else dim, correction, keepdim)
    fn.__name__ = name
    return fn


var, std = _variance("var"), _variance("std")
var_mean, std_mean = _variance("_var_mean"), _variance("_std_mean")
var_mean.__name__, std_mean.__name__ = "var_mean", "std_mean"


def _shape_args(shape):
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        return list(shape[0])
    return list(shape)


def reshape(input, *shape):
    return _ops._reshape(input, _shape_args(shape))


def flatten(input, start_dim=0, end_dim=-1):
    return _ops._flatten(input, start_dim, end_dim)


def to(self, *args, dtype=None, device=None, copy=False, non_blocking=False):
    for a in args:
        if isinstance(a, _C.dtype):
            dtype = a
        elif isinstance(a, _C.Tensor):
            dtype = a.dtype
        elif isinstance(a, bool):
            non_blocking = a
        elif a is not None and str(a) != "cpu":
            raise RuntimeError(f"brasa's Python package runs on the CPU only (got device {a})")
    if dtype is None:
        return self.clone() if copy else self
    return self._to_dtype(dtype, copy)


def split(tensor, split_size_or_sections, dim=0):
    """Views of `tensor` along dim: pieces of split_size (the last one shorter), or of the listed
    sizes."""
    n = tensor.shape[dim]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        if size <= 0 and n > 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
        sizes = [size] * (n // size) + ([n % size] if n % size else []) if size > 0 else [0]
    else:
        sizes = list(split_size_or_sections)
    return tuple(_ops.split_with_sizes(tensor, sizes, dim))


def chunk(input, chunks, dim=0):
    """At most `chunks` views along dim, each of ceil(size / chunks) (the last one smaller)."""
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    n = input.shape[dim]
    return split(input, builtins.max(1, -(-n // chunks)), dim) if n else (input,) * chunks


FUNCTIONS = {"max": max, "min": min, "topk": topk, "cummax": cummax,
             "cummin": cummin, "reshape": reshape, "flatten": flatten, "div": div, "var": var,
             "std": std, "split": split, "chunk": chunk, "divide": div, "true_divide": div}

METHODS = dict(FUNCTIONS)
FUNCTIONS.update(var_mean=var_mean, std_mean=std_mean)
FUNCTIONS.update({n: f for n, f in _nn_aten.FUNCTIONS.items() if not hasattr(_ops, n)})
FUNCTIONS.update(_composite_functions.FUNCTIONS)
METHODS.update(_composite_functions.METHODS)
METHODS.update({
    "to": to,
    "type_as": lambda self, other: self.to(other.dtype),
    "view_as": lambda self, other: self.view(other.shape),
    "expand_as": lambda self, other: self.expand(other.shape),
    "reshape_as": lambda self, other: self.reshape(other.shape),
    "cpu": lambda self: self,
    "zero_": lambda self: self.fill_(0),
    "__matmul__": lambda self, other: _ops.matmul(self, other),
    "__rmatmul__": lambda self, other: _ops.matmul(other, self),
})
for _name, _dtype in (("float", "float32"), ("double", "float64"), ("half", "float16"),
                      ("bfloat16", "bfloat16"), ("long", "int64"), ("int", "int32"),
                      ("short", "int16"), ("char", "int8"), ("byte", "uint8"), ("bool", "bool")):
    METHODS[_name] = (lambda d: lambda self: self._to_dtype(getattr(_C, d), False))(_dtype)
