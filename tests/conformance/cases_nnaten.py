"""The at:: spellings of the nn functionals (op names as libtorch spells them: `mse_loss`,
`nll_loss`, `dropout`, ...): the loss functions with an int reduction (0 none, 1 mean, 2 sum) and
positional weights, and dropout with (p, train). PyTorch runs its own aten functions
(torch._C._nn.*, torch.*), so the positional signature and the defaults are libtorch's."""

import torch

from common import SHORT, make_case

NN = torch._C._nn
DTYPES = [torch.float32, torch.float64]


def _kl_div(x, target, reduction, log_target):
    return torch.kl_div(x, target, reduction, log_target=log_target)  # keyword-only in Python


def _loss_cases():
    out = []
    for d in DTYPES:
        x, y = torch.randn(3, 4, dtype=d), torch.randn(4, 3, dtype=d).t()
        logp = torch.log_softmax(torch.randn(5, 4, dtype=d), 1)
        logits = torch.randn(5, 4, dtype=d)
        tgt = torch.tensor([0, 3, -100, 1, 3])
        w = torch.rand(4, dtype=d) + 0.5
        x4, t4 = torch.log_softmax(torch.randn(2, 4, 3, 2, dtype=d), 1), torch.randint(0, 4, (2, 3, 2))
        pin, ptg = torch.sigmoid(x), torch.rand(3, 4, dtype=d)
        pm = torch.tensor([1.0, -1.0, 1.0, -1.0], dtype=d)
        for r in (0, 1, 2):
            t = f"{SHORT[d]} reduction={r}"
            out.append(make_case("mse_loss", t, NN.mse_loss, [x, y, r]))
            out.append(make_case("l1_loss", t, NN.l1_loss, [x, y, r]))
            out.append(make_case("smooth_l1_loss", t, NN.smooth_l1_loss, [x, y, r, 0.5], k=8))
            out.append(make_case("huber_loss", t, NN.huber_loss, [x, y, r, 0.7], k=8))
            out.append(make_case("nll_loss", t, NN.nll_loss, [logp, tgt, None, r, -100], k=8))
            out.append(make_case("nll_loss", t + " weight ignore 3", NN.nll_loss,
                                 [logp, tgt.clamp(min=0), w, r, 3], k=8))
            out.append(make_case("nll_loss2d", t, NN.nll_loss2d, [x4, t4, w, r, -100], k=8))
            out.append(make_case("cross_entropy_loss", t, NN.cross_entropy_loss,
                                 [logits, tgt, w, r, -100, 0.2], k=8))
            out.append(make_case("binary_cross_entropy", t, NN.binary_cross_entropy, [pin, ptg, w, r], k=8))
            out.append(make_case("binary_cross_entropy_with_logits", t, torch.binary_cross_entropy_with_logits,
                                 [x, ptg, w, w + 1, r], k=8))
            for lt in (False, True):
                tt = torch.softmax(y, 1).log() if lt else torch.softmax(y, 1)
                out.append(make_case("kl_div", f"{t} log_target={lt}", _kl_div, [x, tt, r, lt], k=8))
            out.append(make_case("margin_ranking_loss", t, torch.margin_ranking_loss, [x[0], y[0], pm, 0.3, r], k=8))
            out.append(make_case("cosine_embedding_loss", t, torch.cosine_embedding_loss,
                                 [x, y, pm[:3], 0.2, r], k=8))
        t = SHORT[d]
        out.append(make_case("mse_loss", t + " reduction=5", NN.mse_loss, [x, y, 5]))
        out.append(make_case("nll_loss2d", t + " 2-d input", NN.nll_loss2d, [logp, tgt.clamp(min=0), None, 1, -100]))
        out.append(make_case("nll_loss", t + " float target", NN.nll_loss, [logp, logp, None, 1, -100]))
    return out


def _dropout_cases():
    """Random masks are tested by property (tests/nn/test_functional.cpp); here the deterministic
    corners: not training, p = 0, p = 1, and p out of range."""
    out = []
    x = torch.randn(2, 3, 4)
    for name, fn in (("dropout", torch.dropout), ("feature_dropout", torch.feature_dropout),
                     ("alpha_dropout", torch.alpha_dropout)):
        out.append(make_case(name, "eval", fn, [x, 0.5, False]))
        out.append(make_case(name, "p=0", fn, [x, 0.0, True]))
        out.append(make_case(name, "p=1.5", fn, [x, 1.5, True]))
        if name != "alpha_dropout":  # PyTorch's alpha_dropout at p = 1 divides by zero (nan)
            out.append(make_case(name, "p=1", fn, [x, 1.0, True]))
    return out


def cases():
    return _loss_cases() + _dropout_cases()
