"""Python exception types for brasa's errors (Note [Python errors] in python/src/errors.h).

torch raises RuntimeError for most shape and value errors that brasa types as ValueError, and for
dtype errors inside kernels that brasa types as TypeError; these classes are both, so code written
for either spelling catches them."""
from . import _C


class ValueError(ValueError, RuntimeError):  # noqa: A001 - torch's spelling, both bases
    pass


class TypeError(TypeError, RuntimeError):  # noqa: A001
    pass


ValueError.__module__ = TypeError.__module__ = "brasa"
_C._register_errors(ValueError, TypeError)
