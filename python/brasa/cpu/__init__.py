"""brasa.cpu: torch.cpu's namespace (brasa.cpu.amp.autocast)."""
from . import amp  # noqa: F401
