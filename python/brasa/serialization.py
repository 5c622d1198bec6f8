"""brasa.save / brasa.load: torch.save's `.pt` format (a ZIP archive holding a pickle and one
record per storage), written and read by brasa's C++ serializer (brasa/archive/pt.h), so files go
both ways with PyTorch.

What is saved is what `torch.load(f, weights_only=True)` reads: tensors, None, bools, ints,
floats, strings and lists, tuples and dicts of them (a state_dict, an optimizer's state_dict, a
checkpoint dict). Dicts load back as OrderedDict, as torch.load returns a saved state_dict.
Pickling arbitrary objects (a whole nn.Module) is not supported: nothing is executed on load.
"""
import collections
import os

from . import _C

__all__ = ["save", "load"]


def _is_path(f):
    return isinstance(f, (str, bytes, os.PathLike))


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True):
    """Saves `obj` to `f`: a path (replaced atomically once written) or a binary file object."""
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("brasa.save: only the zip file format is written")
    if _is_path(f):
        _C._save_pt(obj, os.fsdecode(f))
    else:
        f.write(_C._save_pt_bytes(obj))


def _to_location(obj, map_location):
    """Applies map_location: brasa tensors live on the CPU, so only a device or callable that maps
    to the CPU is accepted."""
    if map_location is None:
        return obj
    if callable(map_location) and not isinstance(map_location, str):
        return _map(obj, lambda t: map_location(t, "cpu"))
    if isinstance(map_location, dict):
        return obj
    if str(map_location) != "cpu":
        raise RuntimeError(f"brasa.load: map_location={map_location!r}: brasa loads to 'cpu' only")
    return obj


def _map(obj, fn):
    if isinstance(obj, _C.Tensor):
        return fn(obj)
    if isinstance(obj, dict):
        return type(obj)((k, _map(v, fn)) for k, v in obj.items())
    if isinstance(obj, (list, tuple)):
        return type(obj)(_map(v, fn) for v in obj)
    return obj


def load(f, map_location=None, pickle_module=None, *, weights_only=True, **pickle_load_args):
    """Loads what brasa.save or torch.save wrote to `f` (a path or a binary file object).

    A malformed file raises RuntimeError naming the file and what was wrong; a missing one
    FileNotFoundError."""
    if _is_path(f):
        path = os.fsdecode(f)
        if not os.path.exists(path):
            raise FileNotFoundError(2, "No such file or directory", path)
        obj = _C._load_pt(path, collections.OrderedDict)
    else:
        data = f.read()
        if not isinstance(data, bytes):
            raise TypeError(f"brasa.load: the file object returned {type(data).__name__}, "
                            "expected bytes (open it in binary mode)")
        obj = _C._load_pt_bytes(data, collections.OrderedDict)
    return _to_location(obj, map_location)


