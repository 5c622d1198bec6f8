"""brasa.special: torch.special over brasa's C++ special functions (python/src/special_binding.cpp)."""
from ._C._special import *  # noqa: F401,F403
from ._C import _special as _S

__all__ = [n for n in dir(_S) if not n.startswith("_")]
