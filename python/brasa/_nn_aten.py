"""torch's top-level nn functions, with aten's positional signatures (reduction as an int: 0 none,
1 mean, 2 sum; the cudnn flags accepted and ignored), over brasa.nn.functional and brasa._C._nn:
torch.layer_norm, torch.batch_norm, torch.triplet_margin_loss, ... (the public spellings of
nn.functional's kernels)."""
from . import _C

_nn = _C._nn


def _F():
    from .nn import functional  # brasa.nn imports this package
    return functional


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return _F().layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return _F().group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled):
    return _F().batch_norm(input, running_mean, running_var, weight, bias, training, momentum,
                           eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                  cudnn_enabled):
    return _F().instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                              momentum, eps)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False,
                        reduction=1):
    return _nn.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction)


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return _nn.poisson_nll_loss(input, target, log_input, full, eps, reduction)


def hinge_embedding_loss(input, target, margin=1.0, reduction=1):
    return _nn.hinge_embedding_loss(input, target, margin, reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=1):
    return _nn.margin_ranking_loss(input1, input2, target, margin, reduction)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1):
    return _nn.cosine_embedding_loss(input1, input2, target, margin, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=1):
    return _nn.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


# The in-place activations torch has at the top level; each returns its input.
def selu_(input):
    _nn.selu_(input)
    return input


def celu_(input, alpha=1.0):
    _nn.celu_(input, alpha)
    return input


def threshold_(input, threshold, value):
    _nn.threshold_(input, threshold, value)
    return input


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return input.copy_(_nn.rrelu(input, lower, upper, training))


def logit_(input, eps=None):
    _C._aten.logit_(input, eps)
    return input


FUNCTIONS = {f.__name__: f for f in (
    layer_norm, group_norm, batch_norm, instance_norm, triplet_margin_loss, poisson_nll_loss,
    hinge_embedding_loss, margin_ranking_loss, cosine_embedding_loss,
    binary_cross_entropy_with_logits, selu_, celu_, threshold_, rrelu_, logit_)}
# torch's top-level spellings of aten functions, bound with aten's signatures (Note [aten functions
# in Python]): the normalisation kernels, the recurrent cells and sequences, the dropouts, ...
FUNCTIONS.update({n: getattr(_C._aten, n) for n in (
    "native_batch_norm", "native_layer_norm", "native_group_norm", "batch_norm_update_stats",
    "conv_tbc", "native_channel_shuffle", "lu_solve", "symeig")})
FUNCTIONS.update({n: getattr(_nn, n) for n in (
    "lstm_cell", "gru_cell", "rnn_tanh_cell", "rnn_relu_cell", "lstm", "gru", "rnn_tanh",
    "rnn_relu", "dropout", "alpha_dropout", "feature_dropout", "affine_grid_generator",
    "grid_sampler")})
