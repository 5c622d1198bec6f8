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
from ._tensor import device

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


def _default_restore(storage, location):
    """torch's default_restore_location: the storage goes to the device it was saved from."""
    if location == "cpu":
        return storage
    try:
        dev = device(location)
    except (RuntimeError, ValueError, TypeError):
        raise RuntimeError(f"brasa.load: don't know how to restore data location "
                           f"'{location}' of a storage (use map_location)") from None
    if dev.type == "cpu":
        return storage
    try:
        return storage.to(dev)
    except RuntimeError as e:
        raise RuntimeError(
            f"brasa.load: a storage was saved on '{location}', a device brasa cannot use here "
            f"({e}); pass map_location='cpu' (or a dict or function) to load it elsewhere") from None


def _restore_location(map_location):
    """torch.load's map_location forms as one function (storage, location) -> tensor, or None
    when every storage stays on the CPU as read: None (each storage back where it was saved), a
    str or device (all to it), a dict (location -> location, others unchanged), or a callable
    fn(storage, location) returning the storage to use, or None for the default."""
    if map_location is None:
        return _default_restore
    if isinstance(map_location, (str, device)):
        target = str(map_location)
        if target == "cpu":
            return None
        return lambda storage, location: _default_restore(storage, target)
    if isinstance(map_location, dict):
        mapping = {str(k): str(v) for k, v in map_location.items()}
        return lambda storage, location: _default_restore(storage, mapping.get(location, location))
    if callable(map_location):
        def restore(storage, location):
            result = map_location(storage, location)
            return _default_restore(storage, location) if result is None else result
        return restore
    raise TypeError(f"brasa.load: map_location must be None, a str, a brasa.device, a dict or a "
                    f"callable, got {type(map_location).__name__}")


def load(f, map_location=None, pickle_module=None, *, weights_only=True, **pickle_load_args):
    """Loads what brasa.save or torch.save wrote to `f` (a path or a binary file object).

    A malformed file raises RuntimeError naming the file and what was wrong; a missing one
    FileNotFoundError.

    `map_location` is torch.load's: None, a str or device, a dict mapping saved locations to
    locations, or a callable fn(storage, location) (the storage a 1-d tensor of its dtype,
    location the device it was saved from, e.g. 'cuda:0') returning a tensor of the same dtype
    and size, or None for the default."""
    restore, errors = _keeping_errors(_restore_location(map_location))
    try:
        return _load(f, restore)
    except Exception:
        if errors:  # map_location's own exception, as it was raised
            raise errors[0] from None
        raise


def _keeping_errors(restore):
    """`restore` recording the exception it raises: it crosses C++ as a brasa error, and load
    re-raises the original (a KeyError stays a KeyError)."""
    errors = []
    if restore is None:
        return None, errors

    def call(storage, location):
        try:
            return restore(storage, location)
        except BaseException as e:
            errors.append(e)
            raise

    return call, errors


def _load(f, restore):
    if _is_path(f):
        path = os.fsdecode(f)
        if not os.path.exists(path):
            raise FileNotFoundError(2, "No such file or directory", path)
        obj = _C._load_pt(path, collections.OrderedDict, restore)
    else:
        data = f.read()
        if not isinstance(data, bytes):
            raise TypeError(f"brasa.load: the file object returned {type(data).__name__}, "
                            "expected bytes (open it in binary mode)")
        obj = _C._load_pt_bytes(data, collections.OrderedDict, restore)
    return obj


