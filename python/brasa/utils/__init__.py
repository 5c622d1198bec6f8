"""brasa.utils: data loading (brasa.utils.data), the safetensors format (brasa.utils.safetensors)
and activation checkpointing (brasa.utils.checkpoint)."""
from . import checkpoint, data, safetensors  # noqa: F401
