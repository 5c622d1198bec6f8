"""torch.nn.functional: activations, normalisation, distances and losses (op names `nn.<name>`).
Dropout is random and is tested by property in tests/nn/test_functional.cpp instead."""

import torch
import torch.nn.functional as F

from common import FLOATS, SHORT, make_case, make_tensor

SHAPES = [((3, 4), "contiguous"), ((4, 6), "transposed"), ((2, 3, 4), "strided"), ((), "contiguous"),
          ((0, 4), "contiguous")]
SPECIALS = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 0.5, -0.5, 3.0, -3.0, 25.0, -25.0]

ACTIVATIONS = [
    ("relu", F.relu, {}), ("relu6", F.relu6, {}), ("leaky_relu", F.leaky_relu, {"negative_slope": 0.2}),
    ("elu", F.elu, {"alpha": 1.5}), ("selu", F.selu, {}), ("celu", F.celu, {"alpha": 0.7}),
    ("gelu", F.gelu, {}), ("gelu", F.gelu, {"approximate": "tanh"}), ("silu", F.silu, {}),
    ("mish", F.mish, {}), ("softplus", F.softplus, {}), ("softplus", F.softplus, {"beta": 2.0, "threshold": 5.0}),
    ("softsign", F.softsign, {}), ("hardtanh", F.hardtanh, {"min_val": -0.5, "max_val": 2.0}),
    ("hardsigmoid", F.hardsigmoid, {}), ("hardswish", F.hardswish, {}), ("logsigmoid", F.logsigmoid, {}),
    ("glu", F.glu, {"dim": -1}), ("softmax", F.softmax, {"dim": -1}), ("log_softmax", F.log_softmax, {"dim": 0}),
    ("softmin", F.softmin, {"dim": -1}), ("hardshrink", F.hardshrink, {}), ("hardshrink", F.hardshrink, {"lambd": 1.2}),
    ("softshrink", F.softshrink, {}), ("softshrink", F.softshrink, {"lambd": 1.2}), ("tanhshrink", F.tanhshrink, {}),
    ("threshold", F.threshold, {"threshold": 0.3, "value": -2.0}), ("rrelu", F.rrelu, {}),
    ("rrelu", F.rrelu, {"lower": 0.2, "upper": 0.5}),
]


def domain_wide(dtype, n):
    if dtype.is_floating_point:
        return (torch.randn(n, dtype=torch.float64) * 4).to(dtype)
    return torch.randint(-5, 6, (n,)).to(dtype)


def _activation_cases():
    out = []
    for d in FLOATS + [torch.int64]:
        for shape, layout in SHAPES:
            t = make_tensor(shape, d, domain_wide, layout)
            for name, fn, kw in ACTIVATIONS:
                out.append(make_case("nn." + name, f"{SHORT[d]} {list(shape)} {layout} {kw}", fn, [t], kw, k=4))
    for d in (torch.float32, torch.float64):
        s = torch.tensor(SPECIALS, dtype=d)
        for name, fn, kw in ACTIVATIONS:
            if name not in ("glu", "softmax", "log_softmax", "softmin"):
                out.append(make_case("nn." + name, f"{SHORT[d]} specials {kw}", fn, [s], kw, k=4))
    out.append(make_case("nn.hardtanh", "min > max", F.hardtanh, [torch.randn(3)], {"min_val": 1.0, "max_val": 0.0}))
    out.append(make_case("nn.softshrink", "negative lambda", F.softshrink, [torch.randn(3)], {"lambd": -0.5}))
    out.append(make_case("nn.rrelu", "lower > upper", F.rrelu, [torch.randn(3)], {"lower": 0.5, "upper": 0.1}))
    out.append(make_case("nn.softmin", "f32 dtype=f64", F.softmin, [torch.randn(3, 4)], {"dim": 1, "dtype": torch.float64}))
    for d in (torch.float32, torch.float64):
        x, xt = torch.randn(2, 3, 4, dtype=d), torch.randn(4, 3, 2, dtype=d).transpose(0, 2)
        for w in (torch.rand(3, dtype=d), torch.rand(1, dtype=d) - 0.5, torch.tensor(0.2, dtype=d)):
            out.append(make_case("nn.prelu", f"{SHORT[d]} weight {list(w.shape)}", F.prelu, [x, w], k=2))
            out.append(make_case("nn.prelu", f"{SHORT[d]} transposed weight {list(w.shape)}", F.prelu, [xt, w], k=2))
        out.append(make_case("nn.prelu", f"{SHORT[d]} 1-d input", F.prelu, [x[0, 0], torch.rand(1, dtype=d)], k=2))
        out.append(make_case("nn.prelu", f"{SHORT[d]} empty", F.prelu, [x[:0], torch.rand(3, dtype=d)], k=2))
        out.append(make_case("nn.prelu", f"{SHORT[d]} weight size mismatch", F.prelu, [x, torch.rand(4, dtype=d)]))
        out.append(make_case("nn.prelu", f"{SHORT[d]} 2-d weight", F.prelu, [x, torch.rand(1, 3, dtype=d)]))
    out.append(make_case("nn.prelu", "i64", F.prelu, [torch.arange(6).reshape(2, 3), torch.tensor([1, 2, 3])]))
    return out


def _norm_cases():
    out = []
    for d in FLOATS:
        tag = SHORT[d]
        x3 = torch.randn(2, 6, 5, dtype=d)
        xt = torch.randn(2, 5, 6, dtype=d).transpose(1, 2)
        w, b = torch.randn(6, dtype=d), torch.randn(6, dtype=d)
        for x, lay in ((x3, "contiguous"), (xt, "transposed")):
            t = f"{tag} {lay}"
            out.append(make_case("nn.layer_norm", f"{t} [5]", F.layer_norm, [x, [5]], {}, k=16))
            out.append(make_case("nn.layer_norm", f"{t} [6,5] affine", F.layer_norm, [x, [6, 5]],
                                 {"weight": torch.randn(6, 5, dtype=d), "bias": torch.randn(6, 5, dtype=d),
                                  "eps": 1e-3}, k=16))
            out.append(make_case("nn.group_norm", f"{t} 3 groups", F.group_norm, [x, 3],
                                 {"weight": w, "bias": b}, k=16))
            out.append(make_case("nn.group_norm", f"{t} 1 group", F.group_norm, [x, 1], {}, k=16))
            rm, rv = torch.randn(6, dtype=d), torch.rand(6, dtype=d) + 0.5
            out.append(make_case("nn.batch_norm", f"{t} eval", F.batch_norm, [x, rm, rv],
                                 {"weight": w, "bias": b, "training": False}, k=16))
            out.append(make_case("nn.batch_norm", f"{t} train", F.batch_norm, [x, rm, rv],
                                 {"weight": w, "bias": b, "training": True, "momentum": 0.3}, k=16))
            out.append(make_case("nn.batch_norm", f"{t} train no stats", F.batch_norm, [x, None, None],
                                 {"training": True}, k=16))
            out.append(make_case("nn.instance_norm", f"{t}", F.instance_norm, [x], {"weight": w, "bias": b}, k=16))
            out.append(make_case("nn.normalize", f"{t} p2 dim1", F.normalize, [x], {}, k=8))
            out.append(make_case("nn.normalize", f"{t} p1 dim-1", F.normalize, [x], {"p": 1.0, "dim": -1}, k=8))
            for size in (1, 2, 3, 4):
                out.append(make_case("nn.local_response_norm", f"{t} size {size}", F.local_response_norm,
                                     [x, size], {"alpha": 0.1, "beta": 0.75, "k": 2.0}, k=8))
        out.append(make_case("nn.layer_norm", f"{tag} bad shape", F.layer_norm, [x3, [6]], {}))
        out.append(make_case("nn.group_norm", f"{tag} bad groups", F.group_norm, [x3, 4], {}))
        out.append(make_case("nn.batch_norm", f"{tag} train 1 value", F.batch_norm,
                             [torch.randn(1, 3, dtype=d), None, None], {"training": True}))
        a, c = torch.randn(4, 5, dtype=d), torch.randn(4, 5, dtype=d)
        out.append(make_case("nn.cosine_similarity", f"{tag} dim1", F.cosine_similarity, [a, c], {}, k=8))
        out.append(make_case("nn.cosine_similarity", f"{tag} dim0 bcast", F.cosine_similarity,
                             [a, c[:1]], {"dim": 0}, k=8))
        out.append(make_case("nn.cosine_similarity", f"{tag} zeros", F.cosine_similarity,
                             [torch.zeros(2, 3, dtype=d), a[:2, :3]], {}, k=8))
        for p in (2.0, 1.0, 3.0):
            out.append(make_case("nn.pairwise_distance", f"{tag} p{p}", F.pairwise_distance, [a, c], {"p": p}, k=8))
        out.append(make_case("nn.pairwise_distance", f"{tag} keepdim", F.pairwise_distance, [a, c.t().t()],
                             {"keepdim": True}, k=8))
    return out


REDUCTIONS = ["none", "mean", "sum"]


def _loss_cases():
    out = []
    for d in FLOATS:
        tag = SHORT[d]
        x, y = torch.randn(3, 4, dtype=d), torch.randn(4, 3, dtype=d).t()
        logp = torch.log_softmax(torch.randn(5, 4, dtype=torch.float64), 1).to(d)
        logits = torch.randn(5, 4, dtype=d)
        tgt = torch.tensor([0, 3, -100, 1, 3])
        w = torch.rand(4, dtype=d) + 0.5
        x3, t3 = torch.randn(2, 4, 3, dtype=d), torch.randint(0, 4, (2, 3))
        probs = torch.softmax(torch.randn(5, 4, dtype=torch.float64), 1).to(d)
        for r in REDUCTIONS:
            t = f"{tag} {r}"
            kw = {"reduction": r}
            out.append(make_case("nn.mse_loss", t, F.mse_loss, [x, y], kw, k=8))
            out.append(make_case("nn.l1_loss", t, F.l1_loss, [x, y], kw, k=8))
            out.append(make_case("nn.smooth_l1_loss", t, F.smooth_l1_loss, [x, y], {**kw, "beta": 0.5}, k=8))
            out.append(make_case("nn.smooth_l1_loss", t + " beta0", F.smooth_l1_loss, [x, y], {**kw, "beta": 0.0}, k=8))
            out.append(make_case("nn.huber_loss", t, F.huber_loss, [x, y], {**kw, "delta": 0.7}, k=8))
            out.append(make_case("nn.nll_loss", t, F.nll_loss, [logp, tgt], kw, k=8))
            out.append(make_case("nn.nll_loss", t + " weight", F.nll_loss, [logp, tgt], {**kw, "weight": w}, k=8))
            out.append(make_case("nn.nll_loss", t + " ignore 3", F.nll_loss, [logp, tgt.clamp(min=0)],
                                 {**kw, "ignore_index": 3, "weight": w}, k=8))
            out.append(make_case("nn.nll_loss", t + " 3d", F.nll_loss, [x3, t3], kw, k=8))
            out.append(make_case("nn.nll_loss", t + " unbatched", F.nll_loss, [logp[0], torch.tensor(2)], kw, k=8))
            for ls in (0.0, 0.2):
                tl = f"{t} ls={ls}"
                lkw = {**kw, "label_smoothing": ls}
                out.append(make_case("nn.cross_entropy", tl, F.cross_entropy, [logits, tgt], lkw, k=8))
                out.append(make_case("nn.cross_entropy", tl + " weight", F.cross_entropy, [logits, tgt],
                                     {**lkw, "weight": w}, k=8))
                out.append(make_case("nn.cross_entropy", tl + " 3d", F.cross_entropy, [x3, t3], lkw, k=8))
                out.append(make_case("nn.cross_entropy", tl + " probs", F.cross_entropy, [logits, probs], lkw, k=8))
                out.append(make_case("nn.cross_entropy", tl + " probs weight", F.cross_entropy, [logits, probs],
                                     {**lkw, "weight": w}, k=8))
            pin, ptg = torch.sigmoid(x.double()).to(d), torch.rand(3, 4, dtype=d)
            out.append(make_case("nn.binary_cross_entropy", t, F.binary_cross_entropy, [pin, ptg], kw, k=8))
            out.append(make_case("nn.binary_cross_entropy", t + " weight", F.binary_cross_entropy, [pin, ptg],
                                 {**kw, "weight": w}, k=8))
            out.append(make_case("nn.binary_cross_entropy_with_logits", t, F.binary_cross_entropy_with_logits,
                                 [x * 10, ptg], kw, k=8))
            out.append(make_case("nn.binary_cross_entropy_with_logits", t + " weights",
                                 F.binary_cross_entropy_with_logits, [x, ptg],
                                 {**kw, "weight": w, "pos_weight": w + 1}, k=8))
            out.append(make_case("nn.margin_ranking_loss", t, F.margin_ranking_loss,
                                 [x[0], y[0], torch.tensor([1.0, -1.0, 1.0, -1.0], dtype=d)],
                                 {**kw, "margin": 0.3}, k=8))
            out.append(make_case("nn.cosine_embedding_loss", t, F.cosine_embedding_loss,
                                 [x, y, torch.tensor([1.0, -1.0, -1.0], dtype=d)], {**kw, "margin": 0.2}, k=8))
        for r in REDUCTIONS + ["batchmean"]:
            for lt in (False, True):
                tt = probs.double().log().to(d) if lt else torch.cat([probs[:, :3], torch.zeros(5, 1, dtype=d)], 1)
                out.append(make_case("nn.kl_div", f"{tag} {r} log_target={lt}", F.kl_div, [logp, tt],
                                     {"reduction": r, "log_target": lt}, k=8))
        out.append(make_case("nn.nll_loss", f"{tag} class out of range", F.nll_loss,
                             [logp, torch.tensor([0, 4, 1, 1, 1])], {}))
        out.append(make_case("nn.cross_entropy", f"{tag} negative class", F.cross_entropy,
                             [logits, torch.tensor([0, -1, 1, 1, 1])], {}))
        out.append(make_case("nn.nll_loss", f"{tag} batch mismatch", F.nll_loss, [logp, tgt[:3]], {}))
        out.append(make_case("nn.binary_cross_entropy", f"{tag} input > 1", F.binary_cross_entropy,
                             [x.abs() + 1, x.abs()], {}))
        for r in REDUCTIONS:
            e, et = torch.zeros(0, 4, dtype=d), torch.zeros(0, dtype=torch.long)
            out.append(make_case("nn.nll_loss", f"{tag} {r} empty batch", F.nll_loss, [e, et], {"reduction": r}))
            out.append(make_case("nn.cross_entropy", f"{tag} {r} empty batch", F.cross_entropy, [e, et],
                                 {"reduction": r}))
            out.append(make_case("nn.cross_entropy", f"{tag} {r} empty probs", F.cross_entropy, [e, e],
                                 {"reduction": r}))
            out.append(make_case("nn.mse_loss", f"{tag} {r} 0-d", F.mse_loss, [x[0, 0], y[0, 0]], {"reduction": r}))
            out.append(make_case("nn.l1_loss", f"{tag} {r} broadcast", F.l1_loss, [x, y[0]], {"reduction": r}))
            out.append(make_case("nn.nll_loss", f"{tag} {r} no classes", F.nll_loss,
                                 [torch.zeros(2, 0, dtype=d), torch.zeros(2, dtype=torch.long)], {"reduction": r}))
        out.append(make_case("nn.mse_loss", f"{tag} not broadcastable", F.mse_loss, [x, torch.randn(5, dtype=d)], {}))
    return out


def cases():
    return _activation_cases() + _norm_cases() + _loss_cases()
