"""Tensor.register_hook (the hook runs in C++'s engine under the GIL: Note [Python callbacks from
C++]) and DLPack (from_dlpack, Tensor.__dlpack__ in python/src/dlpack_interop.cpp)."""
from . import _C


class _TensorHookHandle:
    """What register_hook returns: remove() unregisters the hook."""

    def __init__(self, tensor, hook_id):
        self._tensor, self._id = tensor, hook_id

    def remove(self):
        if self._tensor is not None:
            _C._remove_hook(self._tensor, self._id)
            self._tensor = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def register_hook(self, hook):
    """hook(grad) -> Tensor or None runs when the gradient of this tensor is computed; a tensor
    it returns replaces the gradient."""
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    return _TensorHookHandle(self, _C._register_hook(self, hook))


def from_dlpack(ext_tensor):
    """A brasa tensor sharing the memory of a DLPack producer (torch, NumPy, ...) or of a
    "dltensor" capsule."""
    if hasattr(ext_tensor, "__dlpack__"):
        try:
            capsule = ext_tensor.__dlpack__(max_version=(1, 1))
        except TypeError:  # a producer from before DLPack 1.0 (torch 1.13, NumPy < 2)
            capsule = ext_tensor.__dlpack__()
    else:
        capsule = ext_tensor
    return _C._from_dlpack_capsule(capsule)


def to_dlpack(tensor):
    """A legacy "dltensor" capsule of the tensor (torch.utils.dlpack.to_dlpack)."""
    return tensor.__dlpack__()


_C.Tensor.register_hook = register_hook
