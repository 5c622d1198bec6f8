"""brasa.utils: data loading (brasa.utils.data)."""
from . import data  # noqa: F401
