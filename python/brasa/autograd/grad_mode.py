"""no_grad / enable_grad / set_grad_enabled: context managers and decorators over the thread's
grad mode (brasa::set_grad_enabled; grad mode off excludes the Autograd dispatch key)."""
import functools

from .. import _C


class _GradModeContext:
    enabled = None

    def __new__(cls, fn=None):
        self = super().__new__(cls)
        return self(fn) if callable(fn) else self  # @no_grad as well as @no_grad()

    def __enter__(self):
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(self.enabled)

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)
        return wrapper


class no_grad(_GradModeContext):
    """Within it (or in a function it decorates) no op records history."""
    enabled = False


class enable_grad(_GradModeContext):
    """Turns recording back on, inside a no_grad block."""
    enabled = True


class set_grad_enabled(_GradModeContext):
    """Sets grad mode now (like torch, it acts at construction) and restores it on exit."""

    def __new__(cls, mode):
        return object.__new__(cls)

    def __init__(self, mode):
        self._prev = _C.is_grad_enabled()
        self.enabled = bool(mode)
        _C._set_grad_enabled(self.enabled)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _C._set_grad_enabled(self._prev)
        return False

    def __call__(self, fn):
        _C._set_grad_enabled(self._prev)
        mode = self.enabled

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)
        return wrapper


class inference_mode:
    """Like no_grad, and tensors made inside are inference tensors (brasa::InferenceMode); a
    context manager and a decorator (@inference_mode, @inference_mode(), inference_mode(False))."""

    def __new__(cls, mode=True):
        if callable(mode) and not isinstance(mode, bool):
            return cls()(mode)  # bare @inference_mode
        return super().__new__(cls)

    def __init__(self, mode=True):
        self.mode = bool(mode)

    def __enter__(self):
        self._scope = _C._InferenceMode(self.mode)
        self._scope.__enter__()

    def __exit__(self, *exc):
        self._scope.__exit__(*exc)
        return False

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return fn(*args, **kwargs)
        return wrapper


def is_inference_mode_enabled():
    return _C.is_inference_mode_enabled()
