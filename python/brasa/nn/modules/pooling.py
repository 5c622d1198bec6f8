"""Max, average and adaptive pooling layers."""
from .. import functional as F
from .module import Module


class _MaxPoolNd(Module):
    _fn = None

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return type(self)._fn(input, self.kernel_size, self.stride, self.padding, self.dilation,
                              ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    _fn = staticmethod(F.max_pool1d)


class MaxPool2d(_MaxPoolNd):
    _fn = staticmethod(F.max_pool2d)


class MaxPool3d(_MaxPoolNd):
    _fn = staticmethod(F.max_pool3d)


class AvgPool1d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__()
        def one(v):
            return tuple(v) if isinstance(v, (list, tuple)) else (v,)
        self.kernel_size = one(kernel_size)
        self.stride = one(stride if stride is not None else kernel_size)
        self.padding = one(padding)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AvgPoolNd(Module):
    _fn = None

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        return type(self)._fn(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                              self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool2d(_AvgPoolNd):
    _fn = staticmethod(F.avg_pool2d)


class AvgPool3d(_AvgPoolNd):
    _fn = staticmethod(F.avg_pool3d)


def _adaptive(name, fn, max_pool):
    class Adaptive(Module):
        def __init__(self, output_size, return_indices=False):
            super().__init__()
            self.output_size = output_size
            if max_pool:
                self.return_indices = return_indices

        def forward(self, input):
            if max_pool:
                return fn(input, self.output_size, self.return_indices)
            return fn(input, self.output_size)

        def extra_repr(self):
            return f"output_size={self.output_size}"
    Adaptive.__name__ = Adaptive.__qualname__ = name
    return Adaptive


AdaptiveAvgPool1d = _adaptive("AdaptiveAvgPool1d", F.adaptive_avg_pool1d, False)
AdaptiveAvgPool2d = _adaptive("AdaptiveAvgPool2d", F.adaptive_avg_pool2d, False)
AdaptiveAvgPool3d = _adaptive("AdaptiveAvgPool3d", F.adaptive_avg_pool3d, False)
AdaptiveMaxPool1d = _adaptive("AdaptiveMaxPool1d", F.adaptive_max_pool1d, True)
AdaptiveMaxPool2d = _adaptive("AdaptiveMaxPool2d", F.adaptive_max_pool2d, True)
AdaptiveMaxPool3d = _adaptive("AdaptiveMaxPool3d", F.adaptive_max_pool3d, True)


def _unpool(name, fn, n):
    class MaxUnpool(Module):
        def __init__(self, kernel_size, stride=None, padding=0):
            super().__init__()
            def tup(v):
                return tuple(v) if isinstance(v, (list, tuple)) else (v,) * n
            self.kernel_size = tup(kernel_size)
            self.stride = tup(stride if stride is not None else kernel_size)
            self.padding = tup(padding)

        def forward(self, input, indices, output_size=None):
            return fn(input, indices, self.kernel_size, self.stride, self.padding, output_size)

        def extra_repr(self):
            return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"
    MaxUnpool.__name__ = MaxUnpool.__qualname__ = name
    return MaxUnpool


MaxUnpool1d = _unpool("MaxUnpool1d", F.max_unpool1d, 1)
MaxUnpool2d = _unpool("MaxUnpool2d", F.max_unpool2d, 2)
MaxUnpool3d = _unpool("MaxUnpool3d", F.max_unpool3d, 3)


def _fractional(name, fn):
    class FractionalMaxPool(Module):
        def __init__(self, kernel_size, output_size=None, output_ratio=None,
                     return_indices=False, _random_samples=None):
            super().__init__()
            if (output_size is None) == (output_ratio is None):
                raise ValueError(f"{name} requires exactly one of output_size and output_ratio")
            if output_ratio is not None:
                ratios = output_ratio if isinstance(output_ratio, (list, tuple)) else [output_ratio]
                if not all(0 < r < 1 for r in ratios):
                    raise ValueError(f"{name}: output_ratio must be between 0 and 1, got "
                                     f"{output_ratio}")
            self.kernel_size, self.output_size, self.output_ratio = (kernel_size, output_size,
                                                                     output_ratio)
            self.return_indices = return_indices
            self.register_buffer("_random_samples", _random_samples)

        def forward(self, input):
            return fn(input, self.kernel_size, self.output_size, self.output_ratio,
                      self.return_indices, _random_samples=self._random_samples)
    FractionalMaxPool.__name__ = FractionalMaxPool.__qualname__ = name
    return FractionalMaxPool


FractionalMaxPool2d = _fractional("FractionalMaxPool2d", F.fractional_max_pool2d)
FractionalMaxPool3d = _fractional("FractionalMaxPool3d", F.fractional_max_pool3d)
