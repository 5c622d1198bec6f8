"""torch's process-wide helpers that are not ops: is_tensor, numel, finfo / iinfo, the
deterministic-algorithms switch and the float32 matmul precision."""
import numpy as _np

from . import _C


def is_tensor(obj):
    return isinstance(obj, _C.Tensor)


def is_storage(obj):
    return False


def numel(input):
    return input.numel()


def _dtype_name(dtype):
    return repr(dtype).split(".")[-1]


class finfo:
    """torch.finfo: bits, eps, max, min, tiny (smallest_normal), resolution of a floating dtype."""

    _BF16 = dict(bits=16, eps=0.0078125, max=3.3895313892515355e+38, tiny=1.1754943508222875e-38,
                 resolution=0.01)

    def __init__(self, type=None):
        from . import get_default_dtype
        type = get_default_dtype() if type is None else type
        if not (type.is_floating_point or type.is_complex):
            raise TypeError(f"finfo: {type} is not a floating point dtype")
        name = _dtype_name(type)
        real = {"complex64": "float32", "complex128": "float64"}.get(name, name)
        if real == "bfloat16":
            v = self._BF16
            self.bits, self.eps, self.max, self.tiny = v["bits"], v["eps"], v["max"], v["tiny"]
            self.resolution = v["resolution"]
        else:
            info = _np.finfo(_np.dtype(real))
            self.bits, self.eps, self.max = info.bits, float(info.eps), float(info.max)
            self.tiny, self.resolution = float(info.tiny), 10.0 ** -int(info.precision)
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = real

    def __repr__(self):
        return (f"finfo(resolution={self.resolution}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.tiny:g}, tiny={self.tiny:g}, "
                f"dtype={self.dtype})")


class iinfo:
    """torch.iinfo: bits, min, max of an integer dtype."""

    def __init__(self, type):
        name = _dtype_name(type)
        if type.is_floating_point or type.is_complex or name == "bool":
            raise TypeError(f"iinfo: {type} is not an integer dtype")
        info = _np.iinfo(_np.dtype(name))
        self.bits, self.min, self.max, self.dtype = info.bits, int(info.min), int(info.max), name

    def __repr__(self):
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"


_deterministic = {"on": False, "warn_only": False}


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Recorded for are_deterministic_algorithms_enabled(): brasa's CPU kernels are deterministic
    for a given thread count already (no atomics-based reductions), so nothing else changes."""
    _deterministic["on"], _deterministic["warn_only"] = bool(mode), bool(warn_only)


def are_deterministic_algorithms_enabled():
    return _deterministic["on"]


def is_deterministic_algorithms_warn_only_enabled():
    return _deterministic["warn_only"]


_matmul_precision = ["highest"]


def set_float32_matmul_precision(precision):
    """"highest", "high" or "medium": brasa computes float32 products in float32 at every
    setting (torch, too, on CPUs without reduced-precision units)."""
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"set_float32_matmul_precision: expected 'highest', 'high' or "
                           f"'medium', got {precision!r}")
    _matmul_precision[0] = precision


def get_float32_matmul_precision():
    return _matmul_precision[0]
