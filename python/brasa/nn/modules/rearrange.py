"""Padding layers, Upsample, PixelShuffle / PixelUnshuffle."""
from .. import functional as F
from .module import Module


def _pad_layer(name, mode, n, with_value=False):
    class Pad(Module):
        def __init__(self, padding, value=0.0):
            super().__init__()
            self.padding = tuple(padding) if isinstance(padding, (list, tuple)) \
                else (padding,) * (2 * n)
            if with_value:
                self.value = value

        def forward(self, input):
            if with_value:
                return F.pad(input, self.padding, "constant", self.value)
            return F.pad(input, self.padding, mode)

        def extra_repr(self):
            return f"padding={self.padding}, value={self.value}" if with_value \
                else f"{self.padding}"
    Pad.__name__ = Pad.__qualname__ = name
    return Pad


ConstantPad1d = _pad_layer("ConstantPad1d", "constant", 1, True)
ConstantPad2d = _pad_layer("ConstantPad2d", "constant", 2, True)
ConstantPad3d = _pad_layer("ConstantPad3d", "constant", 3, True)
ReflectionPad1d = _pad_layer("ReflectionPad1d", "reflect", 1)
ReflectionPad2d = _pad_layer("ReflectionPad2d", "reflect", 2)
ReflectionPad3d = _pad_layer("ReflectionPad3d", "reflect", 3)
ReplicationPad1d = _pad_layer("ReplicationPad1d", "replicate", 1)
ReplicationPad2d = _pad_layer("ReplicationPad2d", "replicate", 2)
ReplicationPad3d = _pad_layer("ReplicationPad3d", "replicate", 3)


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class Upsample(Module):
    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size, self.mode, self.align_corners = size, mode, align_corners
        self.scale_factor = float(scale_factor) if isinstance(scale_factor, (int, float)) \
            else scale_factor
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.recompute_scale_factor)

    def extra_repr(self):
        info = f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None \
            else f"size={self.size!r}"
        return info + f", mode={self.mode}"


class PixelShuffle(Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"
