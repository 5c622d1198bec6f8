"""brasa.cpu.amp.autocast: torch.cpu.amp.autocast, brasa.autocast("cpu", ...)."""
from .. import amp as _amp


class autocast(_amp.autocast):
    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        import brasa
        super().__init__("cpu", dtype=brasa.bfloat16 if dtype is None else dtype,
                         enabled=enabled, cache_enabled=cache_enabled)
