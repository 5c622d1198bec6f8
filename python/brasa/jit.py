"""brasa.jit: brasa has no TorchScript (Note [No TorchScript] on the C++ side). script, trace,
load and save raise NotImplementedError naming what to use instead (brasa.compile for speed,
brasa.save / safetensors for a model); the annotations TorchScript reads are accepted and change
nothing, so code that only decorates its methods for scripting runs."""


def _no_torchscript(what):
    raise NotImplementedError(
        f"brasa.jit.{what}: brasa has no TorchScript. To make a function or module faster use "
        "brasa.compile; to move a model between programs save its state_dict (brasa.save, or "
        "brasa.utils.safetensors) and load it into the same module class")


def script(obj, *args, **kwargs):
    _no_torchscript("script")


def trace(func, *args, **kwargs):
    _no_torchscript("trace")


def trace_module(mod, *args, **kwargs):
    _no_torchscript("trace_module")


def load(f, *args, **kwargs):
    _no_torchscript("load")


def save(m, f, *args, **kwargs):
    _no_torchscript("save")


def freeze(mod, *args, **kwargs):
    _no_torchscript("freeze")


def ignore(drop=False, **kwargs):
    """@brasa.jit.ignore and @brasa.jit.ignore(drop=...): the function unchanged."""
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    return fn


def export(fn):
    return fn


def is_scripting():
    return False


def is_tracing():
    return False


def annotate(the_type, the_value):
    return the_value
