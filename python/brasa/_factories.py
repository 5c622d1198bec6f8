"""torch's tensor factories over brasa's factory ops and composites: tensor, zeros, ones, empty,
full, arange, rand, randn, the *_like forms, eye, linspace, from_numpy."""
import numbers

import numpy as np

from . import _C, _ops

_NUMPY_DTYPES = {
    "float32": np.float32, "float64": np.float64, "float16": np.float16, "int8": np.int8,
    "int16": np.int16, "int32": np.int32, "int64": np.int64, "uint8": np.uint8, "bool": np.bool_,
    "complex64": np.complex64, "complex128": np.complex128,
}


def _size(size):
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        return list(size[0])
    return list(size)


def _finish(t, requires_grad):
    if requires_grad:
        t.requires_grad_(True)
    return t


def _dtype(dtype):
    return _C.get_default_dtype() if dtype is None else dtype


def empty(*size, dtype=None, device="cpu", requires_grad=False, out=None):
    return _finish(_ops.empty(_size(size), _dtype(dtype), device), requires_grad)


def full(size, fill_value, *, dtype=None, device="cpu", requires_grad=False):
    if dtype is None:
        if isinstance(fill_value, bool):
            dtype = _C.bool
        elif isinstance(fill_value, numbers.Integral):
            dtype = _C.int64
    t = _ops.empty(list(size), _dtype(dtype), device)
    return _finish(t.fill_(fill_value), requires_grad)


def zeros(*size, dtype=None, device="cpu", requires_grad=False):
    return _finish(empty(*size, dtype=dtype, device=device).fill_(0), requires_grad)


def ones(*size, dtype=None, device="cpu", requires_grad=False):
    return _finish(empty(*size, dtype=dtype, device=device).fill_(1), requires_grad)


def _like(fill):
    def factory(input, *, dtype=None, device=None, requires_grad=False):
        t = empty(list(input.shape), dtype=dtype or input.dtype, device=device or "cpu")
        return _finish(fill(t), requires_grad)
    return factory


empty_like = _like(lambda t: t)
zeros_like = _like(lambda t: t.fill_(0))
ones_like = _like(lambda t: t.fill_(1))


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False):
    return _finish(empty_like(input, dtype=dtype, device=device).fill_(fill_value), requires_grad)


def arange(start, end=None, step=1, *, dtype=None, device="cpu", requires_grad=False):
    if end is None:
        start, end = 0, start
    if dtype is None:
        values = (start, end, step)
        if all(isinstance(v, numbers.Integral) for v in values):
            dtype = _C.int64
        else:
            dtype = _C.get_default_dtype()
    return _finish(_ops.arange(start, end, step, dtype, device), requires_grad)


def linspace(start, end, steps, *, dtype=None, device="cpu", requires_grad=False):
    return _finish(_ops.linspace(start, end, steps, _dtype(dtype), device), requires_grad)


def logspace(start, end, steps, base=10.0, *, dtype=None, device="cpu", requires_grad=False):
    return _finish(_ops.logspace(start, end, steps, base, _dtype(dtype), device), requires_grad)


def eye(n, m=None, *, dtype=None, device="cpu", requires_grad=False):
    return _finish(_ops.eye(n, n if m is None else m, _dtype(dtype), device), requires_grad)


def randperm(n, *, generator=None, dtype=None, device="cpu", requires_grad=False):
    t = _ops.randperm(n, generator, dtype or _C.int64, device)
    return _finish(t, requires_grad)


def randint(*args, size=None, generator=None, dtype=None, device="cpu", requires_grad=False):
    """randint(high, size) or randint(low, high, size): integers uniform in [low, high), the same
    numbers as torch for a seed (the registry's random_)."""
    if size is None:
        *bounds, size = args
    else:
        bounds = list(args)
    low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
    t = _ops.empty(_size((size,)), _dtype(dtype or _C.int64), device)
    return _finish(t.random_(low, high, generator), requires_grad)


def rand(*size, dtype=None, device="cpu", requires_grad=False):
    return _finish(_ops._rand(_size(size), dtype), requires_grad)


def randn(*size, dtype=None, device="cpu", requires_grad=False):
    return _finish(_ops._randn(_size(size), dtype), requires_grad)


def from_numpy(array):
    """A tensor sharing `array`'s memory (writes show on both sides); the array stays alive while
    any tensor or view of it does."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    return _C._from_array(array)


def _infer_dtype(data):
    """torch's inference: bool < int64 < default float < complex, over every element."""
    kind = -1  # no element yet: the default float dtype, like torch.tensor([])
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, _C.Tensor):
            kind = max(kind, 3 if x.dtype.is_complex else 2 if x.dtype.is_floating_point
                       else 0 if x.dtype == _C.bool else 1)
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, bool):
            kind = max(kind, 0)
        elif isinstance(x, numbers.Integral):
            kind = max(kind, 1)
        elif isinstance(x, numbers.Real):
            kind = max(kind, 2)
        elif isinstance(x, numbers.Complex):
            kind = max(kind, 3)
        else:
            raise TypeError(f"Could not infer dtype of {type(x).__name__}")
    if kind == 3:
        return _C.complex64 if _C.get_default_dtype() == _C.float32 else _C.complex128
    return (_C.get_default_dtype(), _C.bool, _C.int64, _C.get_default_dtype())[kind + 1]


def tensor(data, *, dtype=None, device="cpu", requires_grad=False):
    """A new tensor holding a copy of `data` (a number, nested lists/tuples, a NumPy array or a
    tensor), with torch's dtype inference."""
    if isinstance(data, _C.Tensor):
        t = data.detach().clone()
        return _finish(t if dtype is None else t.to(dtype), requires_grad)
    if isinstance(data, np.ndarray):
        t = from_numpy(np.require(data, requirements="C")).clone()
        return _finish(t if dtype is None else t.to(dtype), requires_grad)
    if dtype is None:
        dtype = _infer_dtype(data)
    name = repr(dtype)[len("brasa."):]
    if name in _NUMPY_DTYPES:
        array = np.array(data, dtype=_NUMPY_DTYPES[name])
        t = from_numpy(np.require(array, requirements="C")).clone()
    else:  # bfloat16: through float32
        t = from_numpy(np.array(data, dtype=np.float32)).to(dtype)
    return _finish(t, requires_grad)


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, _C.Tensor) and (dtype is None or data.dtype == dtype):
        return data
    if isinstance(data, np.ndarray) and dtype is None:
        return from_numpy(data)
    return tensor(data, dtype=dtype)
