"""brasa.ops.aten: the registry's ops under their aten names, as torch.ops.aten spells them
(`brasa.ops.aten.slice(x, 0, 1, 3, 1)`), then libbrasa's at:: functions that are not registry ops
(brasa._C._aten, brasa._C._nn: Note [aten functions in Python]); any other name is an
AttributeError."""
import sys
import types

from . import _C, _ops


class _AtenNamespace(types.ModuleType):
    def __getattr__(self, name):
        if not name.startswith("_"):
            for home in (_ops, _C._aten, _C._nn):
                op = getattr(home, name, None)
                if op is not None:
                    return op
        raise AttributeError(f"brasa.ops.aten has no op {name!r}")


aten = _AtenNamespace("brasa.ops.aten")
sys.modules[aten.__name__] = aten  # import brasa.ops.aten, as torch.ops.aten is a module
