"""The at:: nn-level ops (issue 15): activations, normalisations, distances, losses, padding,
channel shuffle and window functions, called as libtorch spells them (`torch::elu(x, 1, 1, 1)`,
`at::layer_norm(x, {5})`). PyTorch runs its aten functions (torch.*, torch._C._nn.*,
torch.ops.aten.*), so positional signatures and defaults are libtorch's. Random ops (rrelu in
training, native_dropout, feature_alpha_dropout) are checked where they are deterministic here and
by property in tests/nn/test_nn_ops.cpp."""

import torch

from common import FLOATS, SHORT, make_case, make_tensor

NN = torch._C._nn
ATEN = torch.ops.aten
REAL = [torch.float32, torch.float64]
LAYOUTS = [((3, 4), "contiguous"), ((4, 6), "transposed"), ((2, 3, 4), "strided"), ((), "contiguous"),
           ((0, 4), "contiguous")]
SPECIALS = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 0.5, -0.5, 3.0, -3.0, 25.0, -25.0]


def wide(dtype, n):
    if dtype.is_floating_point:
        return (torch.randn(n, dtype=torch.float64) * 4).to(dtype)
    return torch.randint(-5, 6, (n,)).to(dtype)


def unit(dtype, n):
    return (torch.rand(n, dtype=torch.float64) * 0.98 + 0.01).to(dtype)


# (name, PyTorch function, extra positional arguments after the input, value domain)
ACTIVATIONS = [
    ("relu6", torch._C._nn.relu6 if hasattr(NN, "relu6") else ATEN.relu6, [], wide),
    ("elu", NN.elu, [], wide), ("elu", NN.elu, [1.5, 0.7, 2.0], wide),
    ("selu", torch.selu, [], wide), ("celu", torch.celu, [], wide), ("celu", torch.celu, [0.6], wide),
    ("silu", NN.silu, [], wide), ("mish", NN.mish, [], wide),
    ("gelu", NN.gelu, [], wide), ("gelu", lambda x, a: NN.gelu(x, approximate=a), ["tanh"], wide),
    ("hardshrink", torch.hardshrink, [], wide), ("hardshrink", torch.hardshrink, [1.5], wide),
    ("softshrink", NN.softshrink, [], wide), ("softshrink", NN.softshrink, [2.0], wide),
    ("hardsigmoid", NN.hardsigmoid, [], wide), ("hardswish", NN.hardswish, [], wide),
    ("hardtanh", NN.hardtanh, [], wide), ("hardtanh", NN.hardtanh, [-2.0, 3.0], wide),
    ("leaky_relu", NN.leaky_relu, [], wide), ("leaky_relu", NN.leaky_relu, [0.3], wide),
    ("log_sigmoid", NN.log_sigmoid, [], wide),
    # the cases of logit are in cases_mathops.py (brasa/ops/special.h)
    ("rrelu", torch.rrelu, [], wide), ("rrelu", torch.rrelu, [0.2, 0.5, False], wide),
    ("softplus", NN.softplus, [], wide), ("softplus", NN.softplus, [2.0, 5.0], wide),
    ("threshold", torch.threshold, [0.5, -2.0], wide),
    ("glu", NN.glu, [], wide), ("glu", NN.glu, [0], wide),
]
INPLACE = [("relu6_", ATEN.relu6_, []), ("elu_", torch._C._nn.elu_, [1.2]), ("selu_", torch.selu_, []),
           ("celu_", torch.celu_, [0.8]), ("silu_", NN.silu_, []), ("mish_", NN.mish_, []),
           ("gelu_", lambda x, a: ATEN.gelu_(x, approximate=a), ["tanh"]), ("hardsigmoid_", NN.hardsigmoid_, []),
           ("hardswish_", NN.hardswish_, []), ("hardtanh_", NN.hardtanh_, [-0.5, 0.5]),
           ("leaky_relu_", NN.leaky_relu_, [0.1]), ("logit_", torch.logit_, [0.1]),
           ("rrelu_", torch.rrelu_, []), ("threshold_", torch.threshold_, [0.0, 7.0])]


def _activation_cases():
    out = []
    for d in FLOATS:
        for shape, layout in LAYOUTS:
            for name, fn, extra, domain in ACTIVATIONS:
                if name == "glu" and (shape == () or (extra == [] and shape[-1] % 2)):
                    continue
                t = make_tensor(shape, d, domain, layout)
                out.append(make_case(name, f"{SHORT[d]} {list(shape)} {layout} {extra}", fn, [t] + extra, k=4))
    for d in REAL:
        s = torch.tensor(SPECIALS, dtype=d)
        for name, fn, extra, _ in ACTIVATIONS:
            if name not in ("glu", "logit"):
                out.append(make_case(name, f"{SHORT[d]} specials {extra}", fn, [s] + extra, k=4))
        for name, fn, extra in INPLACE:
            domain = unit if name == "logit_" else wide
            out.append(make_case(name, f"{SHORT[d]} {extra}", fn, [make_tensor((3, 4), d, domain, "transposed")] + extra,
                                 k=4))
    x = torch.randn(4, 3, 5)
    for w, tag in ((torch.tensor([0.25]), "one weight"), (torch.rand(3), "per channel"),
                   (torch.tensor(0.3), "0-d weight")):
        out.append(make_case("prelu", tag, torch.prelu, [x, w], k=4))
        out.append(make_case("prelu", tag + " transposed", torch.prelu, [x.transpose(0, 2).contiguous().transpose(0, 2), w], k=4))
    out.append(make_case("prelu", "1-d input", torch.prelu, [torch.randn(5), torch.tensor([0.1])], k=4))
    out.append(make_case("prelu", "0-d input", torch.prelu, [torch.tensor(-2.0), torch.tensor([0.1])], k=4))
    out.append(make_case("prelu", "empty", torch.prelu, [torch.randn(0, 3), torch.rand(3)], k=4))
    out.append(make_case("prelu", "wrong channels", torch.prelu, [x, torch.rand(2)]))
    out.append(make_case("prelu", "2-d weight", torch.prelu, [x, torch.rand(3, 1)]))
    # gelu's fused derivative as an op of its own (its gradients are gelu's second derivative)
    for d in FLOATS:
        for shape, layout in LAYOUTS:
            g, x = make_tensor(shape, d, wide, layout), make_tensor(shape, d, wide, "contiguous")
            for a in ("none", "tanh"):
                out.append(make_case("gelu_backward", f"{SHORT[d]} {list(shape)} {layout} {a}",
                                     lambda g, x, a: ATEN.gelu_backward(g, x, approximate=a), [g, x, a], k=4))
    for d in REAL:
        s = torch.tensor(SPECIALS, dtype=d)
        out.append(make_case("gelu_backward", f"{SHORT[d]} specials", lambda g, x: ATEN.gelu_backward(g, x),
                             [torch.ones_like(s), s], k=4))
    out.append(make_case("gelu_backward", "mixed dtypes", lambda g, x: ATEN.gelu_backward(g, x),
                         [torch.randn(3, dtype=torch.float64), torch.randn(3)]))
    out.append(make_case("gelu_backward", "integral", lambda g, x: ATEN.gelu_backward(g, x),
                         [torch.arange(3), torch.arange(3)]))
    # errors
    out.append(make_case("gelu", "bad approximate", lambda x, a: NN.gelu(x, approximate=a), [torch.randn(3), "fast"]))
    out.append(make_case("glu", "odd dim", NN.glu, [torch.randn(3, 5)]))
    out.append(make_case("glu", "0-d", NN.glu, [torch.tensor(1.0)]))
    out.append(make_case("celu", "alpha 0", torch.celu, [torch.randn(3), 0.0]))
    out.append(make_case("softshrink", "negative lambda", NN.softshrink, [torch.randn(3), -1.0]))
    out.append(make_case("elu", "integral", NN.elu, [torch.arange(4)]))
    out.append(make_case("hardtanh", "integral", NN.hardtanh, [torch.arange(-3, 4), -2, 2]))
    out.append(make_case("threshold", "integral", torch.threshold, [torch.arange(-3, 4), 1, 9]))
    for d in REAL:
        for dim, shape in ((1, (3, 4)), (0, (6, 2)), (-1, (2, 3, 4))):
            x, dx = torch.randn(*shape, dtype=d), torch.randn(*shape, dtype=d)
            g = NN.glu(x, dim)
            out.append(make_case("glu_jvp", f"{SHORT[d]} {list(shape)} dim={dim}", ATEN.glu_jvp, [g, x, dx, dim], k=4))
        x = torch.randn(4, 6, dtype=d).t()
        out.append(make_case("glu_jvp", f"{SHORT[d]} transposed", ATEN.glu_jvp, [NN.glu(x, 0), x, x * 2, 0], k=4))
    out.append(make_case("glu_jvp", "odd dim", ATEN.glu_jvp, [torch.randn(3, 2), torch.randn(3, 5), torch.randn(3, 5), 1]))
    out.append(make_case("log_sigmoid_forward", "f32", ATEN.log_sigmoid_forward, [torch.randn(3, 4)], k=4))
    out.append(make_case("log_sigmoid_forward", "f64 transposed", ATEN.log_sigmoid_forward,
                         [torch.randn(4, 3, dtype=torch.float64).t()], k=4))
    return out


def _norm_cases():
    out = []
    for d in REAL + [torch.bfloat16]:
        tag = SHORT[d]
        x = torch.randn(2, 6, 5, dtype=d)
        xt = torch.randn(2, 5, 6, dtype=d).transpose(1, 2)
        w, b = torch.randn(6, dtype=d), torch.randn(6, dtype=d)
        w5, b5 = torch.randn(5, dtype=d), torch.randn(5, dtype=d)
        rm, rv = torch.randn(6, dtype=d), torch.rand(6, dtype=d) + 0.5
        for inp, lay in ((x, "contiguous"), (xt, "transposed")):
            t = f"{tag} {lay}"
            out.append(make_case("layer_norm", t, torch.layer_norm, [inp, [5]], k=16))
            out.append(make_case("layer_norm", t + " affine", torch.layer_norm, [inp, [5], w5, b5, 1e-3], k=16))
            out.append(make_case("layer_norm", t + " [6,5] weight", torch.layer_norm,
                                 [inp, [6, 5], torch.randn(6, 5, dtype=d)], k=16))
            out.append(make_case("native_layer_norm", t, torch.native_layer_norm, [inp, [5], w5, b5, 1e-5], k=16))
            out.append(make_case("group_norm", t, torch.group_norm, [inp, 3], k=16))
            out.append(make_case("group_norm", t + " affine", torch.group_norm, [inp, 2, w, b, 1e-4], k=16))
            out.append(make_case("batch_norm", t + " eval", torch.batch_norm,
                                 [inp, w, b, rm, rv, False, 0.1, 1e-5, True], k=16))
            out.append(make_case("batch_norm", t + " train", torch.batch_norm,
                                 [inp, w, b, rm, rv, True, 0.3, 1e-5, True], k=16))
            out.append(make_case("batch_norm", t + " train no stats", torch.batch_norm,
                                 [inp, None, None, None, None, True, 0.1, 1e-5, False], k=16))
            out.append(make_case("native_batch_norm", t + " train", torch.native_batch_norm,
                                 [inp, w, b, rm, rv, True, 0.1, 1e-5], k=16))
            out.append(make_case("native_batch_norm", t + " eval", torch.native_batch_norm,
                                 [inp, w, b, rm, rv, False, 0.1, 1e-5], k=16))
            out.append(make_case("instance_norm", t, torch.instance_norm,
                                 [inp, w, b, None, None, True, 0.1, 1e-5, False], k=16))
            out.append(make_case("instance_norm", t + " running stats", torch.instance_norm,
                                 [inp, w, b, rm, rv, True, 0.2, 1e-5, False], k=16))
            out.append(make_case("instance_norm", t + " eval", torch.instance_norm,
                                 [inp, None, None, rm, rv, False, 0.2, 1e-5, False], k=16))
        # PyTorch's kernel requires a contiguous input here; brasa takes any layout
        out.append(make_case("native_group_norm", tag, torch.native_group_norm, [x, w, b, 2, 6, 5, 3, 1e-5], k=16))
        out.append(make_case("native_group_norm", f"{tag} bad N", torch.native_group_norm,
                             [x, w, b, 3, 6, 5, 3, 1e-5]))
        out.append(make_case("batch_norm_update_stats", tag, torch.batch_norm_update_stats, [x, rm, rv, 0.2],
                             k=16))
        out.append(make_case("batch_norm_update_stats", f"{tag} transposed no stats", torch.batch_norm_update_stats,
                             [xt, None, None, 0.1], k=16))
        for p, dim, mx in ((2.0, 1, 1.0), (1.0, 0, 3.0), (3.0, -1, 0.5), (2.0, 2, 100.0)):
            out.append(make_case("renorm", f"{tag} p={p} dim={dim} maxnorm={mx}", torch.renorm, [xt, p, dim, mx], k=16))
        out.append(make_case("renorm", f"{tag} p=0", torch.renorm, [x, 0.0, 1, 1.0]))
        out.append(make_case("renorm", f"{tag} 1-d", torch.renorm, [x[0, 0], 2.0, 0, 1.0]))
        out.append(make_case("layer_norm", f"{tag} empty", torch.layer_norm, [torch.randn(0, 5, dtype=d), [5]]))
        out.append(make_case("batch_norm", f"{tag} empty eval", torch.batch_norm,
                             [torch.randn(0, 6, dtype=d), w, b, rm, rv, False, 0.1, 1e-5, True]))
        out.append(make_case("layer_norm", f"{tag} bad shape", torch.layer_norm, [x, [6]]))
        out.append(make_case("layer_norm", f"{tag} bad weight", torch.layer_norm, [x, [5], w]))
        out.append(make_case("group_norm", f"{tag} bad groups", torch.group_norm, [x, 4]))
        out.append(make_case("batch_norm", f"{tag} train 1 value", torch.batch_norm,
                             [torch.randn(1, 6, dtype=d), None, None, None, None, True, 0.1, 1e-5, True]))
        out.append(make_case("batch_norm", f"{tag} bad running_mean", torch.batch_norm,
                             [x, w, b, rm[:4], rv, False, 0.1, 1e-5, True]))
    out.append(make_case("layer_norm", "integral", torch.layer_norm, [torch.arange(6).reshape(2, 3), [3]]))
    return out


def _distance_cases():
    out = []
    for d in REAL:
        tag = SHORT[d]
        a, c = torch.randn(4, 5, dtype=d), torch.randn(5, 4, dtype=d).t()
        for p in (2.0, 1.0, 3.0):
            out.append(make_case("pairwise_distance", f"{tag} p{p}", torch.pairwise_distance, [a, c, p], k=8))
        out.append(make_case("pairwise_distance", f"{tag} keepdim bcast", torch.pairwise_distance,
                             [a, c[:1], 2.0, 1e-6, True], k=8))
        out.append(make_case("pairwise_distance", f"{tag} 0-d", torch.pairwise_distance,
                             [torch.tensor(1.5, dtype=d), torch.tensor(-0.5, dtype=d)], k=8))
        out.append(make_case("cosine_similarity", f"{tag}", torch.cosine_similarity, [a, c], k=8))
        out.append(make_case("cosine_similarity", f"{tag} dim0 bcast eps", torch.cosine_similarity,
                             [a, c[:1], 0, 1e-3], k=8))
        for p in (2.0, 1.0, 0.5, float("inf"), 0.0):
            out.append(make_case("pdist", f"{tag} p{p}", torch.pdist, [a, p], k=8))
        out.append(make_case("pdist", f"{tag} transposed", torch.pdist, [c], k=8))
        out.append(make_case("pdist", f"{tag} one row", torch.pdist, [a[:1]], k=8))
        out.append(make_case("pdist", f"{tag} 3-d", torch.pdist, [torch.randn(2, 3, 4, dtype=d)]))
        out.append(make_case("pdist", f"{tag} p<0", torch.pdist, [a, -1.0]))
        for p in (2, 1, 3.5, float("inf")):
            out.append(make_case("dist", f"{tag} p{p}", torch.dist, [a, c, p], k=8))
        out.append(make_case("dist", f"{tag} bcast", torch.dist, [a, c[0]], k=8))
        out.append(make_case("dist", f"{tag} 0-d", torch.dist, [torch.tensor(2.0, dtype=d), torch.tensor(-1.0, dtype=d)],
                             k=8))
        out.append(make_case("dist", f"{tag} empty", torch.dist, [torch.randn(0, 3, dtype=d), torch.randn(0, 3, dtype=d)]))
        out.append(make_case("dist", f"{tag} bad shapes", torch.dist, [a, torch.randn(3, dtype=d)]))
    return out


def _loss_cases():
    out = []
    for d in REAL:
        tag = SHORT[d]
        x, y = torch.randn(3, 4, dtype=d), torch.randn(4, 3, dtype=d).t()
        pm = (torch.randint(0, 2, (3, 4)) * 2 - 1).to(d)
        cls = torch.tensor([0, 3, 1])
        w = torch.rand(4, dtype=d) + 0.5
        ml = torch.tensor([[1, 3, -1, 0], [2, -1, 0, 0], [0, 1, 2, 3]])
        a, p, n = torch.randn(5, 6, dtype=d), torch.randn(5, 6, dtype=d), torch.randn(6, 5, dtype=d).t()
        for r in (0, 1, 2):
            t = f"{tag} reduction={r}"
            out.append(make_case("hinge_embedding_loss", t, torch.hinge_embedding_loss, [x, pm, 0.7, r], k=8))
            out.append(make_case("hinge_embedding_loss", t + " other targets", torch.hinge_embedding_loss,
                                 [y, torch.randn(3, 4, dtype=d), 1.0, r], k=8))
            out.append(make_case("soft_margin_loss", t, NN.soft_margin_loss, [y, pm, r], k=8))
            for pw in (1, 2):
                out.append(make_case("multi_margin_loss", f"{t} p={pw}", NN.multi_margin_loss,
                                     [y, cls, pw, 0.8, None, r], k=8))
                out.append(make_case("multi_margin_loss", f"{t} p={pw} weight", NN.multi_margin_loss,
                                     [x, cls, pw, 1.0, w, r], k=8))
            out.append(make_case("multi_margin_loss", f"{t} 1-d", NN.multi_margin_loss,
                                 [x[0], torch.tensor([2]), 1, 1.0, None, r], k=8))
            out.append(make_case("multi_margin_loss", f"{t} 1-d 0-d target", NN.multi_margin_loss,
                                 [x[0], torch.tensor(2), 1, 1.0, None, r], k=8))
            out.append(make_case("multilabel_margin_loss", t, NN.multilabel_margin_loss, [y, ml, r], k=8))
            out.append(make_case("multilabel_margin_loss", t + " 1-d", NN.multilabel_margin_loss, [x[1], ml[0], r], k=8))
            out.append(make_case("multilabel_margin_loss_forward", t, ATEN.multilabel_margin_loss_forward,
                                 [x, ml, r], k=8))
            for sw in (False, True):
                out.append(make_case("triplet_margin_loss", f"{t} swap={sw}", torch.triplet_margin_loss,
                                     [a, p, n, 0.5, 2.0, 1e-6, sw, r], k=8))
            out.append(make_case("triplet_margin_loss", f"{t} p1", torch.triplet_margin_loss,
                                 [a, p, n, 1.0, 1.0, 1e-6, False, r], k=8))
            tgt = (torch.rand(3, 4, dtype=d) * 4).floor()
            for log_input in (True, False):
                for full in (False, True):
                    inp = x if log_input else x.abs() + 0.1
                    out.append(make_case("poisson_nll_loss", f"{t} log_input={log_input} full={full}",
                                         torch.poisson_nll_loss, [inp, tgt, log_input, full, 1e-8, r], k=8))
        lp = torch.log_softmax(torch.randn(5, 4, dtype=d), 1)
        tg = torch.tensor([0, 3, -100, 1, 3])
        lp4, tg4 = torch.log_softmax(torch.randn(2, 4, 3, 2, dtype=d), 1), torch.randint(0, 4, (2, 3, 2))
        for r in (0, 1, 2):
            for wt in (None, w):
                lab = f"{tag} reduction={r} weight={wt is not None}"
                out.append(make_case("nll_loss_forward", lab, ATEN.nll_loss_forward, [lp, tg, wt, r, -100], k=8))
                out.append(make_case("nll_loss2d_forward", lab, ATEN.nll_loss2d_forward, [lp4, tg4, wt, r, 2], k=8))
                out.append(make_case("nll_loss_nd", lab, ATEN.nll_loss_nd, [lp4, tg4, wt, r, 1], k=8))
        out.append(make_case("nll_loss_forward", f"{tag} 1-d", ATEN.nll_loss_forward, [lp[0], tg[1], None, 1, -100], k=8))
        out.append(make_case("nll_loss_forward", f"{tag} 3-d", ATEN.nll_loss_forward, [lp4[0], tg4[0], None, 1, -100]))
        out.append(make_case("nll_loss_nd", f"{tag} 1-d", ATEN.nll_loss_nd, [lp[0], tg[1]], k=8))
        out.append(make_case("hinge_embedding_loss", f"{tag} bcast 0-d", torch.hinge_embedding_loss,
                             [x, torch.tensor(-1.0, dtype=d), 1.0, 1], k=8))
        out.append(make_case("hinge_embedding_loss", f"{tag} empty mean", torch.hinge_embedding_loss,
                             [torch.randn(0, dtype=d), torch.randn(0, dtype=d), 1.0, 1]))
        out.append(make_case("soft_margin_loss", f"{tag} empty sum", NN.soft_margin_loss,
                             [torch.randn(0, 2, dtype=d), torch.randn(0, 2, dtype=d), 2]))
        out.append(make_case("multi_margin_loss", f"{tag} bad p", NN.multi_margin_loss, [x, cls, 3, 1.0, None, 1]))
        out.append(make_case("multi_margin_loss", f"{tag} target out of range", NN.multi_margin_loss,
                             [x, torch.tensor([0, 4, 1]), 1, 1.0, None, 1]))
        out.append(make_case("multi_margin_loss", f"{tag} 3-d", NN.multi_margin_loss,
                             [torch.randn(2, 3, 4, dtype=d), cls[:2], 1, 1.0, None, 1]))
        out.append(make_case("multilabel_margin_loss", f"{tag} bad target shape", NN.multilabel_margin_loss,
                             [x, ml[:, :3], 1]))
        out.append(make_case("triplet_margin_loss", f"{tag} ranks differ", torch.triplet_margin_loss,
                             [a, p[0], n, 1.0, 2.0, 1e-6, False, 1]))
        out.append(make_case("soft_margin_loss", f"{tag} bad reduction", NN.soft_margin_loss, [y, pm, 5]))
    return out


def _pad_cases():
    out = []
    for d in REAL:
        tag = SHORT[d]
        x = torch.randn(2, 3, 5, dtype=d)
        xt = torch.randn(2, 5, 3, dtype=d).transpose(1, 2)
        x4 = torch.randn(1, 2, 4, 5, dtype=d)
        for inp, lay in ((x, "contiguous"), (xt, "transposed")):
            t = f"{tag} {lay}"
            out.append(make_case("pad", t + " constant", ATEN.pad, [inp, [1, 2]]))
            out.append(make_case("pad", t + " constant value", ATEN.pad, [inp, [1, 2, 0, 1], "constant", 2.5]))
            out.append(make_case("pad", t + " crop", ATEN.pad, [inp, [-1, 1]]))
            for mode in ("reflect", "replicate", "circular"):
                out.append(make_case("pad", f"{t} {mode}", ATEN.pad, [inp, [2, 1], mode]))
        for mode in ("reflect", "replicate", "circular"):
            out.append(make_case("pad", f"{tag} 2-d {mode}", ATEN.pad, [x4, [1, 2, 2, 1], mode]))
        out.append(make_case("pad", f"{tag} 0-d", ATEN.pad, [torch.tensor(1.0, dtype=d), []]))
        out.append(make_case("pad", f"{tag} empty", ATEN.pad, [torch.randn(0, 3, dtype=d), [1, 1]]))
        out.append(make_case("pad", f"{tag} reflect value", ATEN.pad, [x, [1, 1], "reflect", 1.0]))
        out.append(make_case("pad", f"{tag} bad mode", ATEN.pad, [x, [1, 1], "mirror"]))
        out.append(make_case("pad", f"{tag} reflect too wide", ATEN.pad, [x, [5, 5], "reflect"]))
        c = torch.randn(2, 6, 3, dtype=d)
        for g in (1, 2, 3, 6):
            out.append(make_case("channel_shuffle", f"{tag} groups={g}", torch.channel_shuffle, [c, g]))
        out.append(make_case("native_channel_shuffle", f"{tag}", torch.native_channel_shuffle, [c, 3]))
        out.append(make_case("channel_shuffle", f"{tag} transposed 4-d", torch.channel_shuffle,
                             [torch.randn(1, 6, 2, 3, dtype=d).transpose(2, 3), 2]))
        out.append(make_case("channel_shuffle", f"{tag} 2-d", torch.channel_shuffle, [c[0], 2]))
        out.append(make_case("channel_shuffle", f"{tag} groups 4", torch.channel_shuffle, [c, 4]))
        out.append(make_case("channel_shuffle", f"{tag} groups 0", torch.channel_shuffle, [c, 0]))
    for d in REAL:
        seqs = [torch.randn(3, 2, dtype=d), torch.randn(5, 2, dtype=d).t().contiguous().t(), torch.randn(0, 2, dtype=d)]
        for bf in (False, True):
            out.append(make_case("pad_sequence", f"{SHORT[d]} batch_first={bf}", torch._C._nn.pad_sequence,
                                 [seqs, bf, -1.5]))
        out.append(make_case("pad_sequence", f"{SHORT[d]} 1-d", torch._C._nn.pad_sequence,
                             [[torch.randn(2, dtype=d), torch.randn(4, dtype=d)]]))
        out.append(make_case("pad_sequence", f"{SHORT[d]} trailing sizes differ", torch._C._nn.pad_sequence,
                             [[torch.randn(2, 3, dtype=d), torch.randn(4, 2, dtype=d)]]))
    out.append(make_case("channel_shuffle", "int64", torch.channel_shuffle, [torch.arange(12).reshape(1, 6, 2), 3]))
    return out


def _window_cases():
    """Case args: [window_length, *the overload's further positional args]; kwarg dtype."""
    out = []
    fns = [("hann_window", torch.hann_window, []), ("hamming_window", torch.hamming_window, []),
           ("hamming_window", torch.hamming_window, [True, 0.6]),
           ("hamming_window", torch.hamming_window, [False, 0.6, 0.3]),
           ("blackman_window", torch.blackman_window, []), ("bartlett_window", torch.bartlett_window, []),
           ("kaiser_window", torch.kaiser_window, []), ("kaiser_window", torch.kaiser_window, [False, 5.0])]
    for name, fn, extra in fns:
        def call(n, *rest, dtype=None, fn=fn):
            return fn(n, *rest, dtype=dtype)
        for n in (0, 1, 2, 5, 16):
            for tail in ([extra] if extra else [[], [False], [True]]):
                for d in (torch.float32, torch.float64):
                    out.append(make_case(name, f"n={n} {tail} {SHORT[d]}", call, [n] + tail, {"dtype": d}, k=4))
        out.append(make_case(name, f"{extra} default dtype", call, [7] + extra, k=4))
        out.append(make_case(name, "negative length", call, [-1]))
        out.append(make_case(name, "int64", call, [4], {"dtype": torch.int64}))
    return out


def cases():
    return _activation_cases() + _norm_cases() + _distance_cases() + _loss_cases() + _pad_cases() + _window_cases()
