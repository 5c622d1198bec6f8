"""brasa.utils: data loading (brasa.utils.data) and the safetensors format
(brasa.utils.safetensors)."""
from . import data, safetensors  # noqa: F401
