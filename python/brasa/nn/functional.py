"""brasa.nn.functional: torch.nn.functional's signatures over brasa's C++ nn functions
(Note [nn functions in Python] in python/src/nn_functions.h) and the registry's ops."""
import math
import warnings

from .. import _C, _ops

_nn = _C._nn
Tensor = _C.Tensor

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduction(reduction, size_average=None, reduce=None):
    if size_average is not None or reduce is not None:  # torch's legacy arguments
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "none" if not reduce else ("mean" if size_average else "sum")
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _REDUCTIONS[reduction]


def _ntuple(x, n):
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x] * n


# ---- linear and convolutions -------------------------------------------------------------------
def linear(input, weight, bias=None):
    return _nn.linear(input, weight, bias)


def _conv(n):
    fn = getattr(_nn, f"conv{n}d")

    def conv(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        pad = padding if isinstance(padding, str) else _ntuple(padding, n)
        return fn(input, weight, bias, _ntuple(stride, n), pad, _ntuple(dilation, n), groups)
    conv.__name__ = f"conv{n}d"
    return conv


conv1d, conv2d, conv3d = _conv(1), _conv(2), _conv(3)


def _conv_transpose(n):
    fn = getattr(_nn, f"conv_transpose{n}d")

    def conv_transpose(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                       dilation=1):
        return fn(input, weight, bias, _ntuple(stride, n), _ntuple(padding, n),
                  _ntuple(output_padding, n), groups, _ntuple(dilation, n))
    conv_transpose.__name__ = f"conv_transpose{n}d"
    return conv_transpose


conv_transpose1d, conv_transpose2d, conv_transpose3d = (_conv_transpose(1), _conv_transpose(2),
                                                        _conv_transpose(3))


# ---- pooling ----------------------------------------------------------------------------------
def _max_pool(n):
    plain = getattr(_nn, f"max_pool{n}d")
    with_indices = getattr(_nn, f"max_pool{n}d_with_indices")

    def max_pool(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                 return_indices=False):
        k = _ntuple(kernel_size, n)
        s = k if stride is None or (isinstance(stride, (list, tuple)) and not stride) \
            else _ntuple(stride, n)
        args = (input, k, s, _ntuple(padding, n), _ntuple(dilation, n), ceil_mode)
        return with_indices(*args) if return_indices else plain(*args)
    max_pool.__name__ = f"max_pool{n}d"
    return max_pool


max_pool1d, max_pool2d, max_pool3d = _max_pool(1), _max_pool(2), _max_pool(3)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    k = _ntuple(kernel_size, 1)
    return _nn.avg_pool1d(input, k, k if stride is None else _ntuple(stride, 1),
                          _ntuple(padding, 1), ceil_mode, count_include_pad)


def _avg_pool(n):
    fn = getattr(_nn, f"avg_pool{n}d")

    def avg_pool(input, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        k = _ntuple(kernel_size, n)
        return fn(input, k, k if stride is None else _ntuple(stride, n), _ntuple(padding, n),
                  ceil_mode, count_include_pad, divisor_override)
    avg_pool.__name__ = f"avg_pool{n}d"
    return avg_pool


avg_pool2d, avg_pool3d = _avg_pool(2), _avg_pool(3)


def _adaptive(kind, n):
    fn = getattr(_nn, f"adaptive_{kind}_pool{n}d")

    def sizes(input, size):
        size = _ntuple(size, n)
        return [input.shape[-n + i] if s is None else s for i, s in enumerate(size)]

    if kind == "avg":
        def pool(input, output_size):
            return fn(input, sizes(input, output_size))
    else:
        def pool(input, output_size, return_indices=False):
            out = fn(input, sizes(input, output_size))
            return out if return_indices else out[0]
    pool.__name__ = f"adaptive_{kind}_pool{n}d"
    return pool


adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d = (
    _adaptive("avg", 1), _adaptive("avg", 2), _adaptive("avg", 3))
adaptive_max_pool1d, adaptive_max_pool2d, adaptive_max_pool3d = (
    _adaptive("max", 1), _adaptive("max", 2), _adaptive("max", 3))


def pixel_shuffle(input, upscale_factor):
    return _nn.pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    return _nn.pixel_unshuffle(input, downscale_factor)


def pad(input, pad, mode="constant", value=None):
    return _nn.pad(input, list(pad), mode, value)


# ---- normalisation and dropout ------------------------------------------------------------------
def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-05):
    return _nn.batch_norm(input, running_mean, running_var, weight, bias, training,
                          0.0 if momentum is None else momentum, eps)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                  use_input_stats=True, momentum=0.1, eps=1e-05):
    return _nn.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                             momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    return _nn.layer_norm(input, _ntuple(normalized_shape, 1), weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    return _nn.group_norm(input, num_groups, weight, bias, eps)


def _dropout_fn(name):
    plain, inplace_fn = getattr(_nn, name), getattr(_nn, name + "_")

    def dropout(input, p=0.5, training=True, inplace=False):
        if p < 0.0 or p > 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        if inplace:
            inplace_fn(input, p, training)
            return input
        return plain(input, p, training)
    return dropout


dropout = _dropout_fn("dropout")
alpha_dropout = _dropout_fn("alpha_dropout")
_feature_dropout = _dropout_fn("feature_dropout")


def dropout1d(input, p=0.5, training=True, inplace=False):
    return _feature_dropout(input, p, training, inplace)


dropout2d = dropout3d = dropout1d
feature_alpha_dropout = alpha_dropout


# ---- sparse -----------------------------------------------------------------------------------
def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    if padding_idx is not None:
        if padding_idx < 0:
            padding_idx += weight.shape[0]
        if not 0 <= padding_idx < weight.shape[0]:
            raise AssertionError("Padding_idx must be within num_embeddings")
    else:
        padding_idx = -1
    if max_norm is not None:
        from .. import no_grad
        with no_grad():
            _ops.embedding_renorm_(weight, input.contiguous(), max_norm, norm_type)
    return _ops.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def one_hot(tensor, num_classes=-1):
    return _ops.one_hot(tensor, num_classes)


# ---- activations --------------------------------------------------------------------------------
def relu(input, inplace=False):
    return _ops.relu_(input) if inplace else _ops.relu(input)


def relu_(input):
    return _ops.relu_(input)


def _with_inplace(name, *defaults):
    plain, inplace_fn = getattr(_nn, name), getattr(_nn, name + "_", None)

    def fn(input, *args, inplace=False):
        args = args + defaults[len(args):]
        if inplace:
            inplace_fn(input, *args)
            return input
        return plain(input, *args)
    fn.__name__ = name
    return fn


relu6 = _with_inplace("relu6")
selu = _with_inplace("selu")
silu = _with_inplace("silu")
mish = _with_inplace("mish")
hardsigmoid = _with_inplace("hardsigmoid")
hardswish = _with_inplace("hardswish")


def elu(input, alpha=1.0, inplace=False):
    return _with_inplace("elu")(input, alpha, inplace=inplace)


def celu(input, alpha=1.0, inplace=False):
    return _with_inplace("celu")(input, alpha, inplace=inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _with_inplace("leaky_relu")(input, negative_slope, inplace=inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return _with_inplace("hardtanh")(input, min_val, max_val, inplace=inplace)


def threshold(input, threshold, value, inplace=False):
    return _with_inplace("threshold")(input, threshold, value, inplace=inplace)


_threshold = threshold  # torch's own name for F.threshold (F.threshold is F._threshold)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


def celu_(input, alpha=1.0):
    return celu(input, alpha, inplace=True)


def selu_(input):
    return selu(input, inplace=True)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, inplace=True)


def threshold_(input, threshold, value):
    return _with_inplace("threshold")(input, threshold, value, inplace=True)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, inplace=True)


def hardshrink(input, lambd=0.5):
    return _nn.hardshrink(input, lambd)


def softshrink(input, lambd=0.5):
    return _nn.softshrink(input, lambd)


def tanhshrink(input):
    return input - input.tanh()


def softsign(input):
    return input / (input.abs() + 1)


def softplus(input, beta=1, threshold=20):
    return _nn.softplus(input, beta, threshold)


def logsigmoid(input):
    return _nn.log_sigmoid(input)


def glu(input, dim=-1):
    return _nn.glu(input, dim)


def prelu(input, weight):
    return _nn.prelu(input, weight)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    out = _nn.rrelu(input, lower, upper, training)
    return input.copy_(out) if inplace else out


def gelu(input, approximate="none"):
    return _ops.gelu(input, approximate)


def sigmoid(input):
    return _ops.sigmoid(input)


def tanh(input):
    return _ops.tanh(input)


def _softmax_dim(ndim):
    warnings.warn("Implicit dimension choice for softmax has been deprecated. Change the call to "
                  "include dim=X as an argument.", stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dtype is None and input.numel() == 0:  # any dtype, as C++'s F::softmax and PyTorch
        return input.clone()
    return _ops.softmax(input, _softmax_dim(input.dim()) if dim is None else dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dtype is None and input.numel() == 0:
        return input.clone()
    return _ops.log_softmax(input, _softmax_dim(input.dim()) if dim is None else dim, dtype)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    return softmax(-input, dim, dtype=dtype)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    denom = input.norm(p, dim, True).clamp_min(eps).expand_as(input)
    return input / denom


# ---- losses -----------------------------------------------------------------------------------
def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    return _nn.cross_entropy(input, target, weight, _reduction(reduction, size_average, reduce),
                             ignore_index, label_smoothing)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
             reduction="mean"):
    return _nn.nll_loss(input, target, weight, _reduction(reduction, size_average, reduce),
                        ignore_index)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _nn.mse_loss(input, target, _reduction(reduction, size_average, reduce))


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _nn.l1_loss(input, target, _reduction(reduction, size_average, reduce))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    return _nn.smooth_l1_loss(input, target, _reduction(reduction, size_average, reduce), beta)


def huber_loss(input, target, reduction="mean", delta=1.0):
    return _nn.huber_loss(input, target, _reduction(reduction), delta)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None,
                         reduction="mean"):
    return _nn.binary_cross_entropy(input, target, weight,
                                    _reduction(reduction, size_average, reduce))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    return _nn.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                                _reduction(reduction, size_average, reduce))


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if reduction == "batchmean":
        loss = _nn.kl_div(input, target, _REDUCTIONS["sum"], log_target)
        return loss / input.shape[0] if input.dim() != 0 else loss
    return _nn.kl_div(input, target, _reduction(reduction, size_average, reduce), log_target)


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                        reduction="mean"):
    return _nn.margin_ranking_loss(input1, input2, target, margin,
                                   _reduction(reduction, size_average, reduce))


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                          reduction="mean"):
    return _nn.cosine_embedding_loss(input1, input2, target, margin,
                                     _reduction(reduction, size_average, reduce))


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return _nn.pairwise_distance(x1, x2, p, eps, keepdim)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    return _nn.cosine_similarity(x1, x2, dim, eps)


def pdist(input, p=2):
    return _nn.pdist(input, p)





def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resizes the spatial dims of [N, C, *]: mode "nearest" (1-3 spatial dims), "linear" (1),
    "bilinear" and "bicubic" (2), "trilinear" (3)."""
    n = input.dim() - 2
    if n < 1:
        raise ValueError(f"interpolate: expected an input with at least 3 dims, got {input.dim()}")
    if (size is None) == (scale_factor is None):
        raise ValueError("only one of size or scale_factor should be defined")
    if antialias:  # brasa has no antialiased kernel; ignoring the flag would change the result
        raise NotImplementedError("interpolate: antialias=True is not implemented in brasa")
    if mode in ("nearest", "area", "nearest-exact") and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    spatial = input.shape[2:]
    if size is not None:
        out = _ntuple(size, n)
        scales = [None] * n
    else:
        factors = [float(f) for f in _ntuple(scale_factor, n)]
        out = [int(math.floor(s * f)) for s, f in zip(spatial, factors)]
        scales = [None] * n if recompute_scale_factor else factors
    if mode == "nearest":
        return getattr(_ops, f"upsample_nearest{n}d")(input, out, *scales)
    linear = {(1, "linear"): _nn.upsample_linear1d, (2, "bilinear"): _ops.upsample_bilinear2d,
              (2, "bicubic"): _nn.upsample_bicubic2d, (3, "trilinear"): _nn.upsample_trilinear3d}
    fn = linear.get((n, mode))
    if fn is None:
        raise NotImplementedError(f"interpolate: mode {mode!r} is not available for {n} spatial "
                                  "dims (brasa has nearest (1-3), linear (1), bilinear and bicubic "
                                  "(2), trilinear (3))")
    return fn(input, out, bool(align_corners), *scales)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    return interpolate(input, size, scale_factor, mode, align_corners)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks of [N, C, H, W] as columns [N, C * kH * kW, L] (im2col)."""
    return _ops.im2col(input, _ntuple(kernel_size, 2), _ntuple(dilation, 2), _ntuple(padding, 2),
                       _ntuple(stride, 2))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sums columns [N, C * kH * kW, L] back into [N, C, *output_size] (col2im)."""
    return _ops.col2im(input, _ntuple(output_size, 2), _ntuple(kernel_size, 2),
                       _ntuple(dilation, 2), _ntuple(padding, 2), _ntuple(stride, 2))


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False,
                  mode="mean", sparse=False, per_sample_weights=None, include_last_offset=False,
                  padding_idx=None):
    """Per-bag sums, means or maxima of embedding rows (2-D input: one bag per row)."""
    return _nn.embedding_bag(input, weight, offsets, max_norm, norm_type, scale_grad_by_freq, mode,
                             sparse, per_sample_weights, include_last_offset, padding_idx)


def _unpool_size(input, n, kernel_size, stride, padding, output_size):
    k = _ntuple(kernel_size, n)
    st = k if stride is None else _ntuple(stride, n)
    p = _ntuple(padding, n)
    spatial = input.shape[-n:]
    default = [(spatial[i] - 1) * st[i] - 2 * p[i] + k[i] for i in range(n)]
    if output_size is None:
        return default, st, p
    size = list(output_size)
    if len(size) == n + 2:  # [N, C, *spatial]
        size = size[2:]
    if len(size) != n:
        raise ValueError(f"output_size should be a sequence containing {n} or {n + 2} elements, "
                         f"but it has a length of '{len(output_size)}'")
    for d in range(n):  # the sizes max_pool could have come from, strictly inside the stride
        lo, hi = default[d] - st[d], default[d] + st[d]
        if not lo < size[d] < hi:
            raise ValueError(f'invalid output_size "{size}" (dim {d} must be between {lo} and {hi})')
    return size, st, p


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    size, _, _ = _unpool_size(input, 1, kernel_size, stride, padding, output_size)
    return _nn.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), size + [1]).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    size, _, _ = _unpool_size(input, 2, kernel_size, stride, padding, output_size)
    return _nn.max_unpool2d(input, indices, size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    size, st, p = _unpool_size(input, 3, kernel_size, stride, padding, output_size)
    return _nn.max_unpool3d(input, indices, size, st, p)


_GRID_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_GRID_PADDING = {"zeros": 0, "border": 1, "reflection": 2}


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    if mode not in _GRID_MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in _GRID_PADDING:
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    return _nn.grid_sampler(input, grid, _GRID_MODES[mode], _GRID_PADDING[padding_mode],
                            bool(align_corners))


def affine_grid(theta, size, align_corners=None):
    return _nn.affine_grid(theta, list(size), bool(align_corners))


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None,
                         reduction="mean"):
    return _nn.hinge_embedding_loss(input, target, margin,
                                    _reduction(reduction, size_average, reduce))


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _nn.soft_margin_loss(input, target, _reduction(reduction, size_average, reduce))


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None,
                      reduce=None, reduction="mean"):
    return _nn.multi_margin_loss(input, target, p, margin, weight,
                                 _reduction(reduction, size_average, reduce))


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _nn.multilabel_margin_loss(input, target, _reduction(reduction, size_average, reduce))


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None,
                                reduction="mean"):
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    loss = loss.sum(dim=input.dim() - 1) / input.shape[-1]
    r = _reduction(reduction, size_average, reduce)
    return loss if r == 0 else (loss.mean() if r == 1 else loss.sum())


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        size_average=None, reduce=None, reduction="mean"):
    return _nn.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                   _reduction(reduction, size_average, reduce))


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True):
    """torch's signature over the computation nn.MultiheadAttention runs."""
    from .modules.activation_attention import multi_head_attention_forward as mha
    embed = query.shape[-1]
    if embed != embed_dim_to_check:
        raise RuntimeError(f"multi_head_attention_forward: was expecting embedding dimension of "
                           f"{embed_dim_to_check}, but got {embed}")
    if (bias_k is not None or bias_v is not None) and (static_k is not None or
                                                        static_v is not None):
        raise RuntimeError("multi_head_attention_forward: bias_k / bias_v cannot be added to "
                           "static keys / values")
    if not use_separate_proj_weight:
        q_proj_weight = k_proj_weight = v_proj_weight = None
    elif q_proj_weight is None or k_proj_weight is None or v_proj_weight is None:
        raise RuntimeError("multi_head_attention_forward: use_separate_proj_weight is True but "
                           "q_proj_weight, k_proj_weight or v_proj_weight is None")
    return mha(query, key, value, num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v,
               add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training=training,
               key_padding_mask=key_padding_mask, need_weights=need_weights,
               attn_mask=attn_mask, q_proj_weight=q_proj_weight, k_proj_weight=k_proj_weight,
               v_proj_weight=v_proj_weight, average_attn_weights=average_attn_weights,
               static_k=static_k, static_v=static_v)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
                                      margin=1.0, swap=False, reduction="mean"):
    """triplet_margin_loss with any distance (a Python callable; pairwise_distance by default)."""
    dist = pairwise_distance if distance_function is None else distance_function
    d_pos, d_neg = dist(anchor, positive), dist(anchor, negative)
    if swap:
        d_neg = _ops.minimum(d_neg, dist(positive, negative))
    loss = (d_pos - d_neg + margin).clamp(min=0.0)
    r = _reduction(reduction)
    return loss if r == 0 else (loss.mean() if r == 1 else loss.sum())


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
                     reduce=None, reduction="mean"):
    return _nn.poisson_nll_loss(input, target, log_input, full, eps,
                                _reduction(reduction, size_average, reduce))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    lengths = (input_lengths, target_lengths)
    if not all(isinstance(t, Tensor) for t in lengths):
        lengths = tuple(list(t.tolist() if isinstance(t, Tensor) else t) for t in lengths)
    return _nn.ctc_loss(log_probs, targets, *lengths, blank, _reduction(reduction),
                        zero_infinity)


def bilinear(input1, input2, weight, bias=None):
    return _nn.bilinear(input1, input2, weight, bias)


def channel_shuffle(input, groups):
    return _nn.channel_shuffle(input, groups)


native_channel_shuffle = _C._aten.native_channel_shuffle


def _fractional_max_pool(n):
    kernel = getattr(_nn, f"fractional_max_pool{n}d")

    def fn(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
           _random_samples=None):
        """Max over n-d windows of kernel_size at pseudo-random places (_random_samples, [N, C, n]
        in [0, 1), drawn when None), to output_size or the input's size times output_ratio."""
        if output_size is None and output_ratio is None:
            raise ValueError(f"fractional_max_pool{n}d requires specifying either an "
                             "output_size or an output_ratio")
        if output_size is None:
            ratio = _ntuple(output_ratio, n)
            output_size = [int(input.size(i - n) * ratio[i]) for i in range(n)]
        if _random_samples is None:
            batch = 1 if input.dim() == n + 1 else input.size(0)
            _random_samples = _sample_windows(batch, input.size(-n - 1), n, input)
        out, indices = kernel(input, _ntuple(kernel_size, n), _ntuple(output_size, n),
                              _random_samples)
        return (out, indices) if return_indices else out
    fn.__name__ = f"fractional_max_pool{n}d"
    return fn


def _sample_windows(batch, channels, n, like):
    from .. import rand
    return rand(batch, channels, n, dtype=like.dtype, device=like.device)


fractional_max_pool2d = _fractional_max_pool(2)
fractional_max_pool3d = _fractional_max_pool(3)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return fractional_max_pool2d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return fractional_max_pool3d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


def _lp_pool(n):
    fn = getattr(_nn, f"lp_pool{n}d")

    def lp_pool(input, norm_type, kernel_size, stride=None, ceil_mode=False):
        k = _ntuple(kernel_size, n)
        return fn(input, float(norm_type), k, k if stride is None else _ntuple(stride, n),
                  ceil_mode)
    lp_pool.__name__ = f"lp_pool{n}d"
    return lp_pool


lp_pool1d, lp_pool2d = _lp_pool(1), _lp_pool(2)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """x / (k + alpha / size * sum of x^2 over `size` neighbouring channels)^beta."""
    return _nn.local_response_norm(input, size, alpha, beta, k)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """0.5 * (log(max(var, eps)) + (input - target)^2 / max(var, eps)) (+ 0.5 log(2 pi) if full)."""
    if var.dim() == input.dim() - 1 and var.shape == input.shape[:-1]:
        var = var.unsqueeze(-1)
    if (var < 0).any().item():
        raise ValueError("var has negative entry/entries")
    from .. import no_grad
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    r = _reduction(reduction)
    return loss if r == 0 else (loss.mean() if r == 1 else loss.sum())
