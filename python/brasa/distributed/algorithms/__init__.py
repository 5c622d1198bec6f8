"""brasa.distributed.algorithms: DDP communication hooks (ddp_comm_hooks)."""
from . import ddp_comm_hooks  # noqa: F401
