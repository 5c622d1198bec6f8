"""brasa.nn.parallel: DistributedDataParallel (brasa.distributed)."""
from .distributed import DistributedDataParallel  # noqa: F401
