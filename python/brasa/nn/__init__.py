"""brasa.nn: torch.nn's Python API (Module, Parameter, the layers, functional, init) over brasa's
C++ nn functions (docs/python.md, Note [nn functions in Python])."""
from . import functional, init  # noqa: F401
from .modules import *  # noqa: F401,F403
from .modules import Module  # noqa: F401
from .parameter import Parameter  # noqa: F401
from . import parallel, utils  # noqa: F401
