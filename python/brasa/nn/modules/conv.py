"""Conv1d/2d/3d and ConvTranspose1d/2d/3d (torch's parameters, initialisation and repr)."""

from ... import empty
from .. import functional as F, init
from ..parameter import Parameter
from .module import Module


def _tuple(x, n):
    return tuple(x) if isinstance(x, (list, tuple)) else (x,) * n


class _ConvNd(Module):
    _n = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", output_padding=0, device=None,
                 dtype=None):
        super().__init__()
        n = self._n
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                                 "{'valid', 'same'}")
            if padding == "same" and any(s != 1 for s in _tuple(stride, n)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode != "zeros":
            raise ValueError(f"brasa's Conv{n}d supports padding_mode='zeros' only, got "
                             f"{padding_mode!r}")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _tuple(kernel_size, n)
        self.stride = _tuple(stride, n)
        self.padding = padding if isinstance(padding, str) else _tuple(padding, n)
        self.dilation = _tuple(dilation, n)
        self.transposed = self._transposed
        self.output_padding = _tuple(output_padding, n)
        self.groups, self.padding_mode = groups, padding_mode
        shape = ((in_channels, out_channels // groups) if self._transposed
                 else (out_channels, in_channels // groups)) + self.kernel_size
        self.weight = Parameter(empty(*shape, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init._reset_affine_(self.weight, self.bias, bias_without_fan_in=False)

    def extra_repr(self):
        n = self._n
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * n:
            s += ", padding={padding}"
        if self.dilation != (1,) * n:
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * n:
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        return s.format(**self.__dict__)


class Conv1d(_ConvNd):
    _n = 1

    def forward(self, input):
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                        self.groups)


class Conv2d(_ConvNd):
    _n = 2

    def forward(self, input):
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                        self.groups)


class Conv3d(_ConvNd):
    _n = 3

    def forward(self, input):
        return F.conv3d(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                        self.groups)


def _transpose(n):
    fn = getattr(F, f"conv_transpose{n}d")

    class ConvTranspose(_ConvNd):
        _n = n
        _transposed = True

        def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                     output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                     device=None, dtype=None):
            super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                             groups, bias, padding_mode, output_padding, device, dtype)

        def forward(self, input):
            return fn(input, self.weight, self.bias, self.stride, self.padding,
                      self.output_padding, self.groups, self.dilation)
    ConvTranspose.__name__ = ConvTranspose.__qualname__ = f"ConvTranspose{n}d"
    return ConvTranspose


ConvTranspose1d, ConvTranspose2d, ConvTranspose3d = _transpose(1), _transpose(2), _transpose(3)
