"""torch's older tensor spellings that scripts still use: Tensor.type() ('brasa.FloatTensor'),
the typed tensor classes (brasa.FloatTensor([1, 2]), brasa.LongTensor(2, 3), isinstance checks),
brasa.Tensor(...) as a constructor, Tensor.new_zeros / new_ones / new_full / new_empty /
new_tensor, is_cuda and nbytes / itemsize."""
from . import _C

Tensor = _C.Tensor

_TYPE_NAMES = {
    "float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor",
    "bfloat16": "BFloat16Tensor", "uint8": "ByteTensor", "int8": "CharTensor",
    "int16": "ShortTensor", "int32": "IntTensor", "int64": "LongTensor", "bool": "BoolTensor",
    "complex64": "ComplexFloatTensor", "complex128": "ComplexDoubleTensor",
}


def _dtype_of(name):
    import brasa
    return getattr(brasa, name)


def _from_args(dtype, args, kwargs):
    """What a typed constructor builds from its arguments: sizes, data, or nothing."""
    import brasa
    device = kwargs.pop("device", None)
    where = {} if device is None else {"device": device}
    if kwargs:
        raise TypeError(f"new(): unexpected keyword argument(s) {sorted(kwargs)}")
    if not args:
        return brasa.empty(0, dtype=dtype, **where)
    if len(args) == 1 and isinstance(args[0], Tensor):
        return args[0] if args[0].dtype == dtype else args[0].to(dtype)
    if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        return brasa.empty(*args, dtype=dtype, **where)
    if len(args) == 1 and isinstance(args[0], brasa.Size):
        return brasa.empty(*args[0], dtype=dtype, **where)
    if len(args) == 1:
        return brasa.tensor(args[0], dtype=dtype, **where)
    raise TypeError(f"new(): invalid arguments {args!r}: expected sizes (ints), a sequence of "
                    "data or a tensor")


class _TypedTensorMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype == _dtype_of(cls._dtype_name) and \
            obj.device.type == "cpu"

    def __call__(cls, *args, **kwargs):
        return _from_args(_dtype_of(cls._dtype_name), args, kwargs)

    def __repr__(cls):
        return f"<class 'brasa.{cls.__name__}'>"


def _typed_class(dtype_name, class_name):
    return _TypedTensorMeta(class_name, (), {"_dtype_name": dtype_name, "__module__": "brasa"})


TYPED_CLASSES = {name: _typed_class(d, name) for d, name in _TYPE_NAMES.items()}


def _type(self, dtype=None, non_blocking=False, **kwargs):
    """Without an argument the type's name ('brasa.FloatTensor'); with a dtype, a typed class or
    its name ('torch.' or 'brasa.' prefix), the tensor converted to it."""
    name = repr(self.dtype).split(".")[-1]
    if dtype is None:
        return "brasa." + _TYPE_NAMES[name]
    if isinstance(dtype, str):
        short = dtype.split(".")[-1]
        matches = [d for d, n in _TYPE_NAMES.items() if n == short]
        if not matches or dtype.split(".")[0] not in ("torch", "brasa"):
            raise ValueError(f"type(): invalid type: {dtype!r}")
        dtype = _dtype_of(matches[0])
    elif isinstance(dtype, _TypedTensorMeta):
        dtype = _dtype_of(dtype._dtype_name)
    return self if self.dtype == dtype else self.to(dtype)


def _options(self, dtype, device):
    return {"dtype": self.dtype if dtype is None else dtype,
            "device": self.device if device is None else device}


def _sizes(size):
    return tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size


def _new_factory(factory_name):
    """Tensor.new_zeros / new_ones / new_empty: the factory with this tensor's dtype and device
    unless given; sizes as varargs or one sequence."""
    def new(self, *size, dtype=None, device=None, requires_grad=False):
        import brasa
        return getattr(brasa, factory_name)(*_sizes(size), requires_grad=requires_grad,
                                            **_options(self, dtype, device))
    new.__name__ = "new_" + factory_name
    return new


def _new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
    import brasa
    return brasa.full(tuple(size), fill_value, requires_grad=requires_grad,
                      **_options(self, dtype, device))


def _new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    """A copy of `data` (a tensor is copied and detached, as in torch) with this tensor's dtype
    and device unless given."""
    import brasa
    if isinstance(data, Tensor):
        out = data.detach().clone().to(**_options(self, dtype, device))
    else:
        out = brasa.tensor(data, **_options(self, dtype, device))
    return out.requires_grad_(requires_grad) if requires_grad else out


def construct(*args, **kwargs):
    """brasa.Tensor(...) (python/src/tensor_type.cpp's __new__): the default dtype's typed
    constructor, as torch.Tensor(...) is."""
    import brasa
    return _from_args(brasa.get_default_dtype(), args, dict(kwargs))


def install():
    Tensor.type = _type
    Tensor.new_zeros = _new_factory("zeros")
    Tensor.new_ones = _new_factory("ones")
    Tensor.new_empty = _new_factory("empty")
    Tensor.new_full = _new_full
    Tensor.new_tensor = _new_tensor
    Tensor.is_cuda = property(lambda self: self.device.type == "cuda")
    Tensor.nbytes = property(lambda self: self.numel() * self.element_size())
    Tensor.itemsize = property(lambda self: self.element_size())
