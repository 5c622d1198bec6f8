"""brasa.ops.aten: the registry's ops under their aten names, as torch.ops.aten spells them
(`brasa.ops.aten.slice(x, 0, 1, 3, 1)`); an op the registry lacks is an AttributeError."""
import sys
import types

from . import _ops


class _AtenNamespace(types.ModuleType):
    def __getattr__(self, name):
        op = getattr(_ops, name, None)
        if op is None or name.startswith("_"):
            raise AttributeError(f"brasa.ops.aten has no op {name!r}")
        return op


aten = _AtenNamespace("brasa.ops.aten")
sys.modules[aten.__name__] = aten  # import brasa.ops.aten, as torch.ops.aten is a module
