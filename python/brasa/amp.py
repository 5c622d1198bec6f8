"""brasa.autocast / brasa.amp.autocast / brasa.cpu.amp.autocast: torch's autocast regions over
brasa's CPU autocast (Note [Autocast] in brasa/dispatch/autocast_mode.h: the ops on PyTorch
1.13's CPU lists run in bfloat16, the rest in float32). device_type "cuda" warns and does
nothing, as torch does where CUDA is unavailable."""
import functools
import warnings

from . import _C


def is_autocast_cpu_enabled():
    return _C._autocast_is_cpu_enabled()


def get_autocast_cpu_dtype():
    return _C._autocast_get_cpu_dtype()


def set_autocast_cpu_enabled(enabled):
    _C._autocast_set_cpu_enabled(bool(enabled))


def set_autocast_cpu_dtype(dtype):
    _C._autocast_set_cpu_dtype(dtype)


def is_autocast_cache_enabled():
    return _C._autocast_is_cache_enabled()


def set_autocast_cache_enabled(enabled):
    _C._autocast_set_cache_enabled(bool(enabled))


def clear_autocast_cache():
    _C._autocast_clear_cache()


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        import brasa
        if device_type not in ("cpu", "cuda"):
            raise RuntimeError("User specified autocast device_type must be 'cuda' or 'cpu', "
                               f"but got {device_type!r}")
        self.device = device_type
        self.fast_dtype = get_autocast_cpu_dtype() if dtype is None else dtype
        self._cache_enabled = is_autocast_cache_enabled() if cache_enabled is None \
            else cache_enabled
        if device_type == "cuda" and enabled:
            warnings.warn("User provided device_type of 'cuda', but CUDA is not available. "
                          "Disabling")
            enabled = False
        if device_type == "cpu" and enabled and self.fast_dtype != brasa.bfloat16:
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling "
                          "autocast.\nCPU Autocast only supports dtype of torch.bfloat16 "
                          "currently.")
            enabled = False
        self._enabled = enabled

    def __enter__(self):
        if self.device != "cpu":
            return self
        self.prev = is_autocast_cpu_enabled()
        self.prev_dtype = get_autocast_cpu_dtype()
        self.prev_cache = is_autocast_cache_enabled()
        set_autocast_cpu_enabled(self._enabled)
        if self._enabled:
            set_autocast_cpu_dtype(self.fast_dtype)
        _C._autocast_increment_nesting()
        set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, *exc):
        if self.device != "cpu":
            return False
        if _C._autocast_decrement_nesting() == 0:
            clear_autocast_cache()
        set_autocast_cpu_enabled(self.prev)
        set_autocast_cpu_dtype(self.prev_dtype)
        set_autocast_cache_enabled(self.prev_cache)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return wrapper
