"""brasa: torch's Python API over brasa's C++ core (docs/python.md).

Every op of the C++ registry is a function here and, when its first argument is `self`, a Tensor
method (Note [Ops bound from their declarations] in python/src/op_binding.h)."""
import sys as _sys
import types as _types

from . import _C
from . import _errors  # noqa: F401  (installs the exception translation)
from ._C import (Generator, Tensor, bfloat16, bool, cdouble, cfloat, complex64,  # noqa
                 complex128, double, dtype, float, float16, float32, float64, get_default_dtype,
                 get_num_threads, get_rng_state, half, initial_seed, int, int8, int16, int32,
                 int64, is_grad_enabled, long, manual_seed, set_default_dtype, set_num_threads,
                 set_rng_state, short, uint8)
from ._signatures import DEFAULTS as _DEFAULTS, OP_DEFAULTS as _OP_DEFAULTS

_ops = _types.ModuleType("brasa._ops", "Every op of the registry, bound from its schema.")
_C._bind_ops(_ops, _DEFAULTS, _OP_DEFAULTS)
_sys.modules["brasa._ops"] = _ops

for _name in dir(_ops):
    if not _name.startswith("__"):
        globals()[_name] = getattr(_ops, _name)

from . import _tensor  # noqa: E402  (printing, NumPy, number protocol on Tensor)
from ._tensor import Size, device  # noqa: E402
from ._functions import FUNCTIONS as _FUNCTIONS, METHODS as _METHODS  # noqa: E402

globals().update(_FUNCTIONS)
for _name, _method in _METHODS.items():
    setattr(Tensor, _name, _method)

from ._factories import (arange, as_tensor, empty, empty_like, eye, from_numpy, full,  # noqa
                         full_like, linspace, logspace, ones, ones_like, rand, randint, randn,
                         randperm, tensor, zeros, zeros_like)
from . import autograd  # noqa: E402
from .autograd import (enable_grad, inference_mode, is_inference_mode_enabled, no_grad,  # noqa
                       set_grad_enabled)
from ._C import is_inference_mode_enabled as _is_inference  # noqa: E402,F401
from ._hooks_dlpack import from_dlpack  # noqa: E402
from . import fft, linalg, nn, ops, optim, special, utils  # noqa: E402
from .serialization import load, save  # noqa: E402
from . import amp, backends, cpu, cuda, jit, testing, version  # noqa: E402
from .amp import (autocast, clear_autocast_cache, get_autocast_cpu_dtype,  # noqa: E402,F401
                  is_autocast_cache_enabled, is_autocast_cpu_enabled, set_autocast_cache_enabled,
                  set_autocast_cpu_dtype, set_autocast_cpu_enabled)
from ._globals import (are_deterministic_algorithms_enabled, finfo,  # noqa: E402,F401
                       get_float32_matmul_precision, iinfo,
                       is_deterministic_algorithms_warn_only_enabled, is_storage, is_tensor,
                       numel, set_float32_matmul_precision, use_deterministic_algorithms)
from ._tensor_str import set_printoptions  # noqa: E402,F401
from . import _tensor_legacy  # noqa: E402

_tensor_legacy.install()
Tensor.equal = lambda self, other: _ops.equal(self, other)  # the C++ brasa::equal
globals().update(_tensor_legacy.TYPED_CLASSES)

default_generator = _C.default_generator()
__version__ = "0.1.0"
del _name, _method


def compile(model=None, **kwargs):
    """torch.compile (brasa.compiler.compile): imports brasa.compiler, and with it
    libbrasa_compile, on first use."""
    from .compiler import compile as _compile
    return _compile(model, **kwargs)


def __getattr__(name):
    """brasa.distributed is imported on first use: it loads libbrasa_distributed (Gloo, MPI);
    brasa.compiler and brasa._dynamo load libbrasa_compile."""
    if name in ("distributed", "compiler", "_dynamo"):
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module 'brasa' has no attribute '{name}'")
