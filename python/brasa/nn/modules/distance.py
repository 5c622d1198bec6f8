"""CosineSimilarity, PairwiseDistance, ChannelShuffle, LocalResponseNorm, LPPool, RReLU,
Softmax2d, the Upsampling aliases and GaussianNLLLoss."""
from .. import functional as F
from .module import Module
from .rearrange import Upsample


class CosineSimilarity(Module):
    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class ChannelShuffle(Module):
    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self):
        return f"groups={self.groups}"


class LocalResponseNorm(Module):
    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class CrossMapLRN2d(Module):
    """The Lua-era cross-channel normalisation of [N, C, H, W] inputs, with libtorch's own
    backward (Note [CrossMapLRN2d] in src/nn/modules/local_response_norm.cpp)."""

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return F._nn._cross_map_lrn2d(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


def _lp_pool(name, fn):
    class LPPool(Module):
        def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
            super().__init__()
            self.norm_type, self.kernel_size = norm_type, kernel_size
            self.stride, self.ceil_mode = stride, ceil_mode

        def forward(self, input):
            return fn(input, float(self.norm_type), self.kernel_size, self.stride,
                      self.ceil_mode)

        def extra_repr(self):
            return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                    f"stride={self.stride}, ceil_mode={self.ceil_mode}")
    LPPool.__name__ = LPPool.__qualname__ = name
    return LPPool


LPPool1d = _lp_pool("LPPool1d", F.lp_pool1d)
LPPool2d = _lp_pool("LPPool2d", F.lp_pool2d)


class RReLU(Module):
    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}" + (", inplace=True" if self.inplace
                                                              else "")


class Softmax2d(Module):
    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D "
                             "instead")
        return F.softmax(input, -3)


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class GaussianNLLLoss(Module):
    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__()
        self.full, self.eps, self.reduction = full, eps, reduction

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(input, target, var, self.full, self.eps, self.reduction)
