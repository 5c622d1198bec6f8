"""brasa.utils.safetensors: the safetensors format (Hugging Face), with the functions of
`safetensors.torch`: save_file / load_file for files, save / load for bytes. Loading a file maps
it and the tensors view the map without copying; files go both ways with the safetensors package.
"""
import os

from .. import _C

__all__ = ["save_file", "load_file", "save", "load", "save_model", "load_model",
           "load_metadata"]


def _items(tensors):
    if not isinstance(tensors, dict):
        raise TypeError(f"safetensors: expected a dict of name -> Tensor, got "
                        f"{type(tensors).__name__}")
    for k, v in tensors.items():
        if not isinstance(k, str):
            raise TypeError(f"safetensors: names must be str, got {type(k).__name__}")
        if not isinstance(v, _C.Tensor):
            raise TypeError(f"safetensors: '{k}' is a {type(v).__name__}, expected a Tensor")
    return list(tensors.items())


def save_file(tensors, filename, metadata=None):
    """Writes `tensors` (dict name -> Tensor) to `filename`, with optional str -> str metadata."""
    _C._save_safetensors(_items(tensors), os.fsdecode(filename), dict(metadata or {}))


def save(tensors, metadata=None):
    """The bytes save_file would write."""
    return _C._save_safetensors_bytes(_items(tensors), dict(metadata or {}))


def load_file(filename, device="cpu"):
    """The tensors of `filename` as a dict, in the file's order."""
    _check_device(device)
    path = os.fsdecode(filename)
    if not os.path.exists(path):
        raise FileNotFoundError(2, "No such file or directory", path)
    items, _ = _C._load_safetensors(path)
    return dict(items)


def load(data):
    """The tensors of a safetensors image held in `data` (bytes)."""
    items, _ = _C._load_safetensors_bytes(bytes(data))
    return dict(items)


def load_metadata(filename):
    """The "__metadata__" map of `filename` (a dict of str)."""
    return _C._load_safetensors(os.fsdecode(filename))[1]


def save_model(model, filename, metadata=None):
    """Saves model.state_dict() (tensors only, contiguous copies)."""
    save_file({k: v.contiguous() for k, v in model.state_dict().items()}, filename, metadata)


def load_model(model, filename, strict=True):
    """Loads `filename` into `model` with load_state_dict; returns (missing, unexpected) keys."""
    result = model.load_state_dict(load_file(filename), strict=strict)
    return result.missing_keys, result.unexpected_keys


def _check_device(device):
    if str(device) != "cpu":
        raise RuntimeError(f"safetensors: device={device!r}: brasa loads to 'cpu' only")
