"""What brasa.Tensor has beyond the C++ class and the bound ops: printing, NumPy, Python's number
protocol, and torch's spellings that are not ops (size(), device, grad_fn, T)."""
import numpy as np

from . import _C
from ._tensor_str import tensor_repr

Tensor = _C.Tensor

_TYPESTR = {
    "float32": "<f4", "float64": "<f8", "float16": "<f2", "int8": "|i1", "int16": "<i2",
    "int32": "<i4", "int64": "<i8", "uint8": "|u1", "bool": "|b1", "complex64": "<c8",
    "complex128": "<c16",
}


class Size(tuple):
    """torch.Size: a tuple of ints that prints as brasa.Size([...])."""

    def __repr__(self):
        return f"brasa.Size({list(self)})"

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n


class device:
    """torch.device: a type ("cpu") and an optional index."""

    def __init__(self, type, index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        if ":" in type:
            type, idx = type.split(":")
            index = int(idx)
        self.type = type
        self.index = index

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other):
        other = device(other) if isinstance(other, str) else other
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


def _size(self, dim=None):
    sizes = self._sizes()
    if dim is None:
        return Size(sizes)
    return sizes[dim]


def _array_interface(self):
    if self.requires_grad:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                           "Use tensor.detach().numpy() instead.")
    name = repr(self.dtype)[len("brasa."):]
    if name not in _TYPESTR:
        raise TypeError(f"Got unsupported ScalarType {name}")
    itemsize = self.element_size()
    return {
        "data": (self.data_ptr(), False),
        "shape": tuple(self._sizes()),
        "strides": tuple(s * itemsize for s in self.stride()),
        "typestr": _TYPESTR[name],
        "version": 3,
    }


def _numpy(self, force=False):
    t = self.detach() if force else self
    return np.asarray(t)


def _array(self, dtype=None):
    a = np.asarray(self)
    return a if dtype is None else a.astype(dtype, copy=False)


def _numpy_for_print(self):
    t = self.detach()
    if t.dtype in (_C.float16, _C.bfloat16):
        t = t.to(_C.float32)
    return np.asarray(t)


def _tolist(self):
    t = self.detach()
    if t.dtype in (_C.float16, _C.bfloat16):
        t = t.to(_C.float32)
    if t.dim() == 0:
        return t.item()
    return np.asarray(t).tolist()


def _bool(self):
    if self.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(self.item())


def _index(self):
    if self.numel() != 1 or self.dtype.is_floating_point or self.dtype.is_complex:
        raise TypeError("only integer tensors of a single element can be converted to an index")
    return int(self.item())


def _iter(self):
    if self.dim() == 0:
        raise TypeError("iteration over a 0-d tensor")
    return (self[i] for i in range(self._sizes()[0]))


def _format(self, spec):
    if self.dim() == 0 and not self.requires_grad:
        return self.item().__format__(spec)
    return object.__format__(self, spec)


def _grad_fn(self):
    name = self._grad_fn_name
    return None if name is None else _GradFn(name)


class _GradFn:
    """The name of the node that made a tensor (torch's grad_fn, printed as <AddBackward0 ...>)."""

    def __init__(self, name):
        self._name = name

    def name(self):
        return self._name

    def __repr__(self):
        return f"<{self._name} object>"


Tensor.__repr__ = tensor_repr
Tensor.__str__ = tensor_repr
Tensor.size = _size
Tensor.__array_interface__ = property(_array_interface)
Tensor.numpy = _numpy
Tensor.__array__ = _array
Tensor._numpy_for_print = _numpy_for_print
Tensor.tolist = _tolist
Tensor.__bool__ = _bool
Tensor.__float__ = lambda self: float(self.item())
Tensor.__int__ = lambda self: int(self.item())
Tensor.__index__ = _index
Tensor.__iter__ = _iter
Tensor.__format__ = _format
Tensor.grad_fn = property(_grad_fn)
Tensor.device = property(lambda self: device(self._device_str))
Tensor.is_cpu = property(lambda self: self._device_str == "cpu")
Tensor.T = property(lambda self: self.permute(*reversed(range(self.dim()))))
Tensor.__array_priority__ = 1000
Tensor.shape = property(lambda self: Size(self._sizes()))


def _deepcopy(self, memo):
    """copy.deepcopy: a leaf with its own copy of the data (and of .grad), like torch."""
    if id(self) in memo:
        return memo[id(self)]
    if not self.is_leaf:
        raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support "
                           "the deepcopy protocol at the moment")
    data = self.detach().clone()
    new = type(self)._make_subclass(type(self), data, self.requires_grad) \
        if type(self) is not Tensor else data.requires_grad_(self.requires_grad)
    if self.grad is not None:
        new.grad = self.grad.clone()
    memo[id(self)] = new
    return new


def _rebuild_tensor(array, requires_grad):
    from . import from_numpy
    return from_numpy(array).requires_grad_(requires_grad)


def _reduce_ex(self, protocol):
    """Pickling (copy, multiprocessing): the data as a NumPy array, and requires_grad."""
    return (_rebuild_tensor, (self.detach().numpy().copy(), self.requires_grad))


Tensor.__deepcopy__ = _deepcopy
Tensor.__reduce_ex__ = _reduce_ex
