"""brasa.nn.init: torch.nn.init's initialisers (in place, without recording history) over the
registry's random ops (uniform_, normal_), so a seed gives the same numbers as torch's."""
import math
import warnings

from .. import _C


def _no_grad(fn):
    def wrapper(*args, **kwargs):
        prev = _C.is_grad_enabled()
        _C._set_grad_enabled(False)
        try:
            return fn(*args, **kwargs)
        finally:
            _C._set_grad_enabled(prev)
    wrapper.__name__, wrapper.__doc__ = fn.__name__, fn.__doc__
    return wrapper


def calculate_gain(nonlinearity, param=None):
    linear = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d"]
    if nonlinearity in linear or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive = 1
    for s in tensor.shape[2:]:
        receptive *= s
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


@_no_grad
def uniform_(tensor, a=0.0, b=1.0):
    return tensor.uniform_(a, b)


@_no_grad
def normal_(tensor, mean=0.0, std=1.0):
    return tensor.normal_(mean, std)


@_no_grad
def constant_(tensor, val):
    return tensor.fill_(val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    return constant_(tensor, 0.0)


@_no_grad
def eye_(tensor):
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    from .. import eye
    return tensor.copy_(eye(*tensor.shape, dtype=tensor.dtype))


@_no_grad
def dirac_(tensor, groups=1):
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_per_group = sizes[0] // groups
    min_dim = min(out_per_group, sizes[1])
    tensor.zero_()
    for g in range(groups):
        for d in range(min_dim):
            idx = (g * out_per_group + d, d) + tuple(s // 2 for s in sizes[2:])
            tensor[idx] = 1
    return tensor


def xavier_uniform_(tensor, gain=1.0):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    a = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -a, a)


def xavier_normal_(tensor, gain=1.0):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)))


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op")
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op")
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    return normal_(tensor, 0, std)


@_no_grad
def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0):
    def cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0
    lo, hi = cdf((a - mean) / std), cdf((b - mean) / std)
    tensor.uniform_(2 * lo - 1, 2 * hi - 1)
    tensor.erfinv_()
    tensor.mul_(std * math.sqrt(2.0))
    tensor.add_(mean)
    tensor.clamp_(a, b)
    return tensor


@_no_grad
def orthogonal_(tensor, gain=1):
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    from .. import diagonal, linalg_qr, randn
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flat = randn(rows, cols, dtype=tensor.dtype)
    if rows < cols:
        flat = flat.t()
    q, r = linalg_qr(flat)
    q = q * diagonal(r, 0).sign()
    if rows < cols:
        q = q.t()
    tensor.view_as(q).copy_(q)
    tensor.mul_(gain)
    return tensor


# torch's deprecated spellings
uniform, normal, constant = uniform_, normal_, constant_
xavier_uniform, xavier_normal = xavier_uniform_, xavier_normal_
kaiming_uniform, kaiming_normal = kaiming_uniform_, kaiming_normal_


def _reset_affine_(weight, bias, bias_without_fan_in):
    """torch's default for Linear and the convolutions: weight kaiming_uniform_(a=sqrt(5)), bias
    U(-1/sqrt(fan_in), 1/sqrt(fan_in)). With fan_in 0, Linear zeroes the bias
    (bias_without_fan_in=True) and the convolutions leave it as it is, as torch 1.13 does."""
    kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is None:
        return
    fan_in, _ = _calculate_fan_in_and_fan_out(weight)
    if fan_in > 0:
        bound = 1 / math.sqrt(fan_in)
        uniform_(bias, -bound, bound)
    elif bias_without_fan_in:
        uniform_(bias, 0, 0)
