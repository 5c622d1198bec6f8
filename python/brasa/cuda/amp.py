"""brasa.cuda.amp: torch.cuda.amp's autocast and GradScaler without CUDA. Both warn once and do
nothing, as torch 1.13 does when CUDA is unavailable: autocast disables itself, GradScaler(enabled
=True) becomes a disabled scaler whose scale() returns the loss and step() steps the optimizer."""
import warnings

from .. import amp as _amp


class autocast(_amp.autocast):
    """brasa.autocast("cuda", ...): warns that CUDA is unavailable and does nothing."""

    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        super().__init__("cuda", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


class GradScaler:
    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        if enabled:
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                          "Disabling.")
        self._enabled = False

    def is_enabled(self):
        return self._enabled

    def scale(self, outputs):
        return outputs

    def unscale_(self, optimizer):
        pass

    def step(self, optimizer, *args, **kwargs):
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        pass

    def get_scale(self):
        return 1.0

    def get_growth_factor(self):
        return 2.0

    def get_backoff_factor(self):
        return 0.5

    def get_growth_interval(self):
        return 2000

    def state_dict(self):
        return {}

    def load_state_dict(self, state_dict):
        pass
