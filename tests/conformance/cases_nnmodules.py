"""torch::nn modules called as modules (issue 15): unpooling, fractional max pooling, padding,
local response normalisation, CrossMapLRN2d, the margin / embedding / Poisson losses, CTC
loss, the activations Softmin, Softmax2d, Hardshrink, Softshrink, Tanhshrink, Threshold, RReLU
(in eval mode: training draws random slopes) and PReLU, LPPool1d/2d, CosineSimilarity,
PairwiseDistance, Fold and Unfold. PyTorch runs torch.nn's modules (or torch.nn.functional where libtorch's module is a thin
wrapper) with the options passed as arguments; ops_nnmodules.cpp builds libtorch's module from
the same arguments. Modules with parameters (AdaptiveLogSoftmaxWithLoss) and recurrent layers
over packed sequences are compared in tests/nn/test_nn_modules_extra.cpp."""

import torch
import torch.nn.functional as F

from common import SHORT, make_case

NN = torch.nn
REAL = [torch.float32, torch.float64]
REDUCTIONS = ["none", "mean", "sum"]


def _detach(t):
    """Targets, weights and samples are not differentiated (libtorch has no gradient for most);
    ops_nnmodules.cpp detaches the same arguments."""
    return None if t is None else t.detach()


def _unpool_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        for dims, shape in ((1, (2, 3, 9)), (2, (2, 3, 6, 7)), (3, (1, 2, 4, 5, 6))):
            pool = getattr(F, f"max_pool{dims}d")
            x = torch.randn(*shape, dtype=d)
            for k, s, p in ((2, 2, 0), (3, 2, 1)):
                v, i = pool(x, k, s, p, return_indices=True)
                fn = lambda v, i, k, s, p, size, dims=dims: getattr(NN, f"MaxUnpool{dims}d")(k, s, p)(v, i, size)
                name = f"MaxUnpool{dims}d"
                out.append(make_case(name, f"{t} k={k} s={s} p={p}", fn, [v, i, k, s, p, None]))
                sizes = list(x.shape[-dims:])
                out.append(make_case(name, f"{t} k={k} output_size", fn, [v, i, k, s, p, sizes]))
                out.append(make_case(name, f"{t} k={k} output_size with N, C", fn,
                                     [v, i, k, s, p, list(x.shape)]))
                out.append(make_case(name, f"{t} k={k} bad output_size", fn,
                                     [v, i, k, s, p, [sz + 3 * s for sz in sizes]]))
            v, i = pool(x, 2, 2, 0, return_indices=True)
            name = f"MaxUnpool{dims}d"
            fn = lambda v, i, k, s, p, size, dims=dims: getattr(NN, f"MaxUnpool{dims}d")(k, s, p)(v, i, size)
            out.append(make_case(name, f"{t} unbatched", fn, [v[0], i[0], 2, 2, 0, None]))
            out.append(make_case(name, f"{t} non-contiguous", fn,
                                 [v.transpose(0, 1).contiguous().transpose(0, 1), i, 2, 2, 0, None]))
            out.append(make_case(name, f"{t} empty batch", fn, [v[:0], i[:0], 2, 2, 0, None]))
            out.append(make_case(name, f"{t} indices shape mismatch", fn, [v, i[:1], 2, 2, 0, None]))
    return out


def _fractional_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        x = torch.randn(2, 3, 9, 8, dtype=d)
        s = torch.rand(2, 3, 2, dtype=d)
        fn = lambda x, k, size, ratio, samples: NN.FractionalMaxPool2d(
            k, output_size=size, output_ratio=ratio, _random_samples=samples.detach(), return_indices=True)(x)
        out.append(make_case("FractionalMaxPool2d", f"{t} output_size", fn, [x, 3, [4, 5], None, s]))
        out.append(make_case("FractionalMaxPool2d", f"{t} output_ratio", fn, [x, 2, None, [0.5, 0.7], s]))
        out.append(make_case("FractionalMaxPool2d", f"{t} unbatched", fn, [x[0], 2, [3, 3], None, s[:1]]))
        out.append(make_case("FractionalMaxPool2d", f"{t} transposed", fn,
                             [x.transpose(2, 3), [2, 3], [4, 4], None, s]))
        out.append(make_case("FractionalMaxPool2d", f"{t} too large", fn, [x, 3, [8, 8], None, s]))
        x3 = torch.randn(1, 2, 6, 7, 5, dtype=d)
        s3 = torch.rand(1, 2, 3, dtype=d)
        fn3 = lambda x, k, size, ratio, samples: NN.FractionalMaxPool3d(
            k, output_size=size, output_ratio=ratio, _random_samples=samples.detach(), return_indices=True)(x)
        out.append(make_case("FractionalMaxPool3d", f"{t} output_size", fn3, [x3, 2, [3, 4, 2], None, s3]))
        out.append(make_case("FractionalMaxPool3d", f"{t} output_ratio", fn3,
                             [x3, [2, 2, 1], None, [0.5, 0.5, 0.6], s3]))
    return out


def _pad_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        inputs = {1: torch.randn(2, 3, 6, dtype=d), 2: torch.randn(2, 3, 5, 6, dtype=d),
                  3: torch.randn(1, 2, 4, 5, 6, dtype=d)}
        pads = {1: [2, 1], 2: [1, 2, 2, 0], 3: [1, 0, 2, 1, 0, 2]}
        for dims in (1, 2, 3):
            x, p = inputs[dims], pads[dims]
            xt = x.transpose(-1, -2).contiguous().transpose(-1, -2)
            for kind in ("Reflection", "Replication"):
                name = f"{kind}Pad{dims}d"
                fn = lambda x, p, name=name: getattr(NN, name)(p)(x)
                out.append(make_case(name, t, fn, [x, p]))
                out.append(make_case(name, f"{t} one value", fn, [x, 1]))
                out.append(make_case(name, f"{t} non-contiguous", fn, [xt, p]))
                out.append(make_case(name, f"{t} unbatched", fn, [x[0], p]))
                out.append(make_case(name, f"{t} empty batch", fn, [x[:0], p]))
            out.append(make_case(f"ReflectionPad{dims}d", f"{t} pad too large", lambda x, p, dims=dims:
                                 getattr(NN, f"ReflectionPad{dims}d")(p)(x), [x, [7] * (2 * dims)]))
            name = f"ConstantPad{dims}d"
            fn = lambda x, p, v, name=name: getattr(NN, name)(p, v)(x)
            out.append(make_case(name, t, fn, [x, p, 3.5]))
            out.append(make_case(name, f"{t} negative pads crop", fn, [x, [-1] * (2 * dims), 0.0]))
            out.append(make_case(name, f"{t} non-contiguous", fn, [xt, p, -1.0]))
            out.append(make_case(name, f"{t} empty batch", fn, [x[:0], p, 1.0]))
        fn = lambda x, p: NN.ZeroPad2d(p)(x)
        out.append(make_case("ZeroPad2d", t, fn, [inputs[2], pads[2]]))
        out.append(make_case("ZeroPad2d", f"{t} one value", fn, [inputs[2], 2]))
        out.append(make_case("ZeroPad2d", f"{t} negative", fn, [inputs[2], [-1, 0, 1, -2]]))
    return out


def _cross_map_lrn2d(x, size, alpha, beta, k):
    if x.dim() != 4:  # PyTorch asserts without a message
        raise RuntimeError("CrossMapLRN2d: expected a 4-D input")
    return NN.CrossMapLRN2d(size, alpha, beta, k)(x)


def _norm_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        x = torch.randn(2, 5, 3, 4, dtype=d)
        fn = lambda x, size, alpha, beta, k: NN.LocalResponseNorm(size, alpha, beta, k)(x)
        out.append(make_case("LocalResponseNorm", t, fn, [x, 3, 1e-4, 0.75, 1.0], k=8))
        out.append(make_case("LocalResponseNorm", f"{t} options", fn, [x * 3, 2, 0.3, 0.6, 2.0], k=8))
        out.append(make_case("LocalResponseNorm", f"{t} 3-d non-contiguous", fn,
                             [torch.randn(2, 7, 5, dtype=d).transpose(0, 1).contiguous().transpose(0, 1),
                              4, 0.1, 0.75, 1.0], k=8))
        out.append(make_case("LocalResponseNorm", f"{t} 2-d input", fn, [x[0, 0], 3, 1e-4, 0.75, 1.0]))
        # odd sizes: PyTorch's Python CrossMapLRN2d backward equals libtorch's C++ one only for them
        fn = _cross_map_lrn2d
        for size in (1, 3, 5):
            out.append(make_case("CrossMapLRN2d", f"{t} size={size}", fn, [x * 4, size, 0.2, 0.75, 1], k=8))
        out.append(make_case("CrossMapLRN2d", f"{t} size=3 k=2", fn, [x * 4, 3, 0.05, 0.6, 2], k=8))
        out.append(make_case("CrossMapLRN2d", f"{t} non-contiguous", fn,
                             [(x * 4).transpose(2, 3), 3, 0.2, 0.75, 1], k=8))
        out.append(make_case("CrossMapLRN2d", f"{t} 3-d input", fn, [x[0], 3, 0.2, 0.75, 1]))
    return out


def _loss_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        x, xt = torch.randn(3, 4, dtype=d), torch.randn(4, 3, dtype=d).t()
        pm = (torch.randint(0, 2, (3, 4)) * 2 - 1).to(d)
        ml = torch.tensor([[1, 3, -1, 0], [2, -1, 0, 0], [0, 1, 2, 3]])
        soft = torch.rand(3, 4, dtype=d).round()
        w = torch.rand(4, dtype=d) + 0.5
        cls = torch.tensor([0, 3, 1])
        a, p, n = torch.randn(5, 6, dtype=d), torch.randn(5, 6, dtype=d), torch.randn(6, 5, dtype=d).t()
        for r in REDUCTIONS:
            tr = f"{t} reduction={r}"
            out.append(make_case("SoftMarginLoss", tr, lambda x, y, r: NN.SoftMarginLoss(reduction=r)(x, y.detach()),
                                 [xt, pm, r], k=8))
            out.append(make_case("MultiLabelMarginLoss", tr,
                                 lambda x, y, r: NN.MultiLabelMarginLoss(reduction=r)(x, y), [xt, ml, r], k=8))
            fn = lambda x, y, w, r: NN.MultiLabelSoftMarginLoss(weight=_detach(w), reduction=r)(x, y.detach())
            out.append(make_case("MultiLabelSoftMarginLoss", tr, fn, [xt, soft, None, r], k=8))
            out.append(make_case("MultiLabelSoftMarginLoss", f"{tr} weight", fn, [x, soft, w, r], k=8))
            out.append(make_case("HingeEmbeddingLoss", tr,
                                 lambda x, y, m, r: NN.HingeEmbeddingLoss(m, reduction=r)(x, y.detach()), [x, pm, 0.7, r], k=8))
            fn = lambda x, y, p, m, w, r: NN.MultiMarginLoss(p, m, _detach(w), reduction=r)(x, y)
            out.append(make_case("MultiMarginLoss", tr, fn, [xt, cls, 1, 0.8, None, r], k=8))
            out.append(make_case("MultiMarginLoss", f"{tr} p=2 weight", fn, [x, cls, 2, 1.0, w, r], k=8))
            fn = lambda x, y, li, full, eps, r: NN.PoissonNLLLoss(li, full, eps=eps, reduction=r)(x, y.detach())
            tgt = (torch.rand(3, 4, dtype=d) * 4).floor()
            out.append(make_case("PoissonNLLLoss", tr, fn, [x, tgt, True, False, 1e-8, r], k=8))
            out.append(make_case("PoissonNLLLoss", f"{tr} full", fn, [x.abs() + 0.1, tgt, False, True, 1e-8, r], k=8))
            fn = lambda a, p, n, m, pn, sw, r: NN.TripletMarginLoss(m, pn, swap=sw, reduction=r)(a, p, n)
            out.append(make_case("TripletMarginLoss", tr, fn, [a, p, n, 0.5, 2.0, True, r], k=8))
            fn = lambda a, p, n, dist, m, sw, r: NN.TripletMarginWithDistanceLoss(
                distance_function=_DISTANCES[dist], margin=m, swap=sw, reduction=r)(a, p, n)
            for dist in _DISTANCES:
                for sw in (False, True):
                    out.append(make_case("TripletMarginWithDistanceLoss", f"{tr} {dist} swap={sw}", fn,
                                         [a, p, n, dist, 0.7, sw, r], k=8))
        fn = lambda x, y, r: NN.SoftMarginLoss(reduction=r)(x, y.detach())
        out.append(make_case("SoftMarginLoss", f"{t} empty", fn, [x[:0], pm[:0], "sum"]))
        out.append(make_case("SoftMarginLoss", f"{t} shape mismatch", fn, [x, pm[:2], "mean"]))
        fn = lambda x, y, w, r: NN.MultiLabelSoftMarginLoss(weight=_detach(w), reduction=r)(x, y.detach())
        out.append(make_case("MultiLabelSoftMarginLoss", f"{t} empty batch", fn, [x[:0], soft[:0], None, "sum"]))
        out.append(make_case("MultiLabelSoftMarginLoss", f"{t} 1-d", fn, [x[0], soft[0], w, "none"], k=8))
        out.append(make_case("MultiLabelSoftMarginLoss", f"{t} shape mismatch", fn, [x, soft[:, :3], None, "mean"]))
        fn = lambda x, y, r: NN.MultiLabelMarginLoss(reduction=r)(x, y)
        out.append(make_case("MultiLabelMarginLoss", f"{t} bad target", fn, [x, ml[:, :2], "mean"]))
        fn = lambda x, y, p, m, w, r: NN.MultiMarginLoss(p, m, _detach(w), reduction=r)(x, y)
        out.append(make_case("MultiMarginLoss", f"{t} target out of range", fn,
                             [x, torch.tensor([0, 4, 1]), 1, 1.0, None, "mean"]))
        fn = lambda a, p, n, dist, m, sw, r: NN.TripletMarginWithDistanceLoss(
            distance_function=_DISTANCES[dist], margin=m, swap=sw, reduction=r)(a, p, n)
        out.append(make_case("TripletMarginWithDistanceLoss", f"{t} ranks differ", fn,
                             [a, p[0], n, "pairwise", 1.0, False, "mean"]))
        out.append(make_case("TripletMarginWithDistanceLoss", f"{t} empty batch", fn,
                             [a[:0], p[:0], n[:0], "pairwise", 1.0, False, "sum"]))
    return out


# Distance functions by name (ops_nnmodules.cpp has the same ones); None is pairwise_distance.
_DISTANCES = {
    "pairwise": None,
    "cosine": lambda x, y: 1.0 - F.cosine_similarity(x, y),
    "l1": lambda x, y: (x - y).abs().sum(-1),
}


def _ctc_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        T, N, C = 12, 3, 5
        lp = torch.randn(T, N, C, dtype=d).log_softmax(2)
        il, tl = [12, 10, 7], [4, 3, 2]
        padded = torch.tensor([[1, 2, 2, 3], [4, 1, 4, 0], [2, 2, 0, 0]])
        concat = torch.tensor([1, 2, 2, 3, 4, 1, 4, 2, 2])
        fn = lambda lp, tg, il, tl, blank, r, zi: NN.CTCLoss(blank, r, zi)(lp, tg, il, tl)
        for r in REDUCTIONS:
            tr = f"{t} reduction={r}"
            out.append(make_case("CTCLoss", f"{tr} padded", fn,
                                 [lp, padded, torch.tensor(il), torch.tensor(tl), 0, r, False], k=16))
            out.append(make_case("CTCLoss", f"{tr} concatenated", fn,
                                 [lp, concat, torch.tensor(il), torch.tensor(tl), 0, r, False], k=16))
        out.append(make_case("CTCLoss", f"{t} blank=4", fn,
                             [lp, padded.clamp(max=3), torch.tensor(il), torch.tensor(tl), 4, "mean", False], k=16))
        out.append(make_case("CTCLoss", f"{t} int32 targets and lengths", fn,
                             [lp, padded.int(), torch.tensor(il).int(), torch.tensor(tl).int(), 0, "sum", False],
                             k=16))
        out.append(make_case("CTCLoss", f"{t} empty target", fn,
                             [lp, padded, torch.tensor(il), torch.tensor([4, 0, 2]), 0, "none", False], k=16))
        # input too short for its target (2 repeated labels need 3 steps): inf, or 0 with zero_infinity
        short = torch.tensor([12, 2, 7])
        for zi in (False, True):
            out.append(make_case("CTCLoss", f"{t} impossible zero_infinity={zi}", fn,
                                 [lp, padded, short, torch.tensor([4, 3, 2]), 0, "none", zi], k=16))
        out.append(make_case("CTCLoss", f"{t} impossible mean zero_infinity", fn,
                             [lp, padded, short, torch.tensor([4, 3, 2]), 0, "mean", True], k=16))
        out.append(make_case("CTCLoss", f"{t} non-contiguous", fn,
                             [torch.randn(N, T, C, dtype=d).log_softmax(2).transpose(0, 1), padded,
                              torch.tensor(il), torch.tensor(tl), 0, "mean", False], k=16))
        out.append(make_case("CTCLoss", f"{t} unbatched", fn,
                             [lp[:, 0], padded[0], torch.tensor(12), torch.tensor(4), 0, "mean", False], k=16))
        for r in ("none", "sum"):
            out.append(make_case("CTCLoss", f"{t} empty batch {r}", fn,
                                 [lp[:, :0], padded[:0], torch.tensor([], dtype=torch.long),
                                  torch.tensor([], dtype=torch.long), 0, r, False]))
        out.append(make_case("CTCLoss", f"{t} input_lengths too long", fn,
                             [lp, padded, torch.tensor([13, 10, 7]), torch.tensor(tl), 0, "mean", False]))
        out.append(make_case("CTCLoss", f"{t} wrong number of lengths", fn,
                             [lp, padded, torch.tensor([12, 10]), torch.tensor(tl), 0, "mean", False]))
        out.append(make_case("CTCLoss", f"{t} blank out of range", fn,
                             [lp, padded, torch.tensor(il), torch.tensor(tl), 5, "mean", False]))
        out.append(make_case("CTCLoss", f"{t} targets too short", fn,
                             [lp, padded[:, :2], torch.tensor(il), torch.tensor(tl), 0, "mean", False]))
    return out


def _activation_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        x = torch.randn(2, 3, 4, 5, dtype=d) * 2
        xt = x.transpose(1, 3)
        for name, fn, args in (
                ("Softmin", lambda x, dim: NN.Softmin(dim)(x), [1]),
                ("Softmin", lambda x, dim: NN.Softmin(dim)(x), [-1]),
                ("Softmax2d", lambda x: NN.Softmax2d()(x), []),
                ("Hardshrink", lambda x, l: NN.Hardshrink(l)(x), [0.5]),
                ("Hardshrink", lambda x, l: NN.Hardshrink(l)(x), [1.3]),
                ("Softshrink", lambda x, l: NN.Softshrink(l)(x), [0.5]),
                ("Softshrink", lambda x, l: NN.Softshrink(l)(x), [1.3]),
                ("Tanhshrink", lambda x: NN.Tanhshrink()(x), []),
                ("Threshold", lambda x, th, v: NN.Threshold(th, v)(x), [0.1, 20.0]),
                ("RReLU", lambda x, lo, up: NN.RReLU(lo, up).eval()(x), [0.125, 1 / 3]),
                ("RReLU", lambda x, lo, up: NN.RReLU(lo, up).eval()(x), [0.2, 0.6]),
                ("PReLU", lambda x, n, init: NN.PReLU(n, init).to(x.dtype)(x), [1, 0.25]),
                ("PReLU", lambda x, n, init: NN.PReLU(n, init).to(x.dtype)(x), [3, -0.3])):
            label = f"{t} {args}"
            out.append(make_case(name, label, fn, [x] + args, k=4))
            if name == "PReLU" and args[0] == 3:
                continue  # xt has 5 channels
            out.append(make_case(name, f"{label} non-contiguous", fn, [xt] + args, k=4))
            out.append(make_case(name, f"{label} 3-d", fn, [x[0]] + args, k=4))
            out.append(make_case(name, f"{label} empty batch", fn, [x[:0]] + args, k=4))
        out.append(make_case("Softmax2d", f"{t} 2-d input", lambda x: NN.Softmax2d()(x), [x[0, 0]]))
        out.append(make_case("Softmax2d", f"{t} 5-d input", lambda x: NN.Softmax2d()(x), [x[None]]))
        out.append(make_case("Softshrink", f"{t} negative lambda", lambda x, l: NN.Softshrink(l)(x), [x, -1.0]))
        out.append(make_case("RReLU", f"{t} lower > upper", lambda x, lo, up: NN.RReLU(lo, up).eval()(x),
                             [x, 0.5, 0.1]))
        out.append(make_case("PReLU", f"{t} channel mismatch",
                             lambda x, n, init: NN.PReLU(n, init).to(x.dtype)(x), [x, 4, 0.25]))
    xi = torch.arange(-4, 5).reshape(3, 3)
    out.append(make_case("Threshold", "i64", lambda x, th, v: NN.Threshold(th, v)(x), [xi, 1.0, -7.0]))
    out.append(make_case("Threshold", "bool", lambda x, th, v: NN.Threshold(th, v)(x), [xi > 0, 0.0, 1.0]))
    for name in ("Hardshrink", "Softshrink"):
        out.append(make_case(name, "i64", lambda x, name=name: getattr(NN, name)()(x), [xi]))
    out.append(make_case("Tanhshrink", "i64", lambda x: NN.Tanhshrink()(x), [xi]))
    return out


def _lp_pool_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        x1 = torch.rand(2, 3, 11, dtype=d) + 0.1
        x2 = torch.rand(2, 3, 7, 8, dtype=d) + 0.1
        fn1 = lambda x, p, k, s, c: NN.LPPool1d(p, k, s, c)(x)
        fn2 = lambda x, p, k, s, c: NN.LPPool2d(p, k, s, c)(x)
        for p in (1.0, 2.0, 3.0):
            out.append(make_case("LPPool1d", f"{t} p={p}", fn1, [x1, p, 3, None, False], k=8))
            out.append(make_case("LPPool2d", f"{t} p={p}", fn2, [x2, p, 2, None, False], k=8))
        out.append(make_case("LPPool1d", f"{t} stride ceil_mode", fn1, [x1, 2.0, 4, 3, True], k=8))
        out.append(make_case("LPPool1d", f"{t} signed input", fn1, [x1 - 0.6, 1.0, 2, 1, False], k=8))
        out.append(make_case("LPPool1d", f"{t} 2-d input", fn1, [x1[0], 2.0, 3, 2, False], k=8))
        out.append(make_case("LPPool1d", f"{t} non-contiguous", fn1,
                             [x1.transpose(0, 1).contiguous().transpose(0, 1), 2.0, 3, None, False], k=8))
        out.append(make_case("LPPool2d", f"{t} kernel [2, 3] stride [1, 2] ceil_mode", fn2,
                             [x2, 2.0, [2, 3], [1, 2], True], k=8))
        out.append(make_case("LPPool2d", f"{t} 3-d input", fn2, [x2[0], 1.5, 3, 2, False], k=8))
        out.append(make_case("LPPool2d", f"{t} non-contiguous", fn2, [x2.transpose(2, 3), 2.0, 2, None, False], k=8))
        out.append(make_case("LPPool2d", f"{t} empty batch", fn2, [x2[:0], 2.0, 2, None, False], k=8))
        out.append(make_case("LPPool2d", f"{t} kernel larger than input", fn2, [x2, 2.0, 9, None, False]))
        out.append(make_case("LPPool1d", f"{t} 4-d input", fn1, [x2, 2.0, 2, None, False]))
    return out


def _distance_fold_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        a, b = torch.randn(4, 5, dtype=d), torch.randn(4, 5, dtype=d)
        bt = torch.randn(5, 4, dtype=d).t()
        fn = lambda x, y, dim, eps: NN.CosineSimilarity(dim, eps)(x, y)
        out.append(make_case("CosineSimilarity", f"{t} dim=1", fn, [a, b, 1, 1e-8], k=8))
        out.append(make_case("CosineSimilarity", f"{t} dim=0 eps", fn, [a, bt, 0, 1e-3], k=8))
        out.append(make_case("CosineSimilarity", f"{t} broadcast", fn, [a, b[:1], 1, 1e-8], k=8))
        out.append(make_case("CosineSimilarity", f"{t} 1-d dim=0", fn, [a[0], b[0], 0, 1e-8], k=8))
        out.append(make_case("CosineSimilarity", f"{t} shape mismatch", fn, [a, b[:, :3], 1, 1e-8]))
        fn = lambda x, y, p, eps, keep: NN.PairwiseDistance(p, eps, keep)(x, y)
        out.append(make_case("PairwiseDistance", f"{t} p=2", fn, [a, b, 2.0, 1e-6, False], k=8))
        out.append(make_case("PairwiseDistance", f"{t} p=1 keepdim", fn, [a, bt, 1.0, 1e-6, True], k=8))
        out.append(make_case("PairwiseDistance", f"{t} p=3 broadcast", fn, [a, b[:1], 3.0, 1e-4, False], k=8))
        out.append(make_case("PairwiseDistance", f"{t} shape mismatch", fn, [a, b[:, :3], 2.0, 1e-6, False]))
        x = torch.randn(2, 3, 5, 6, dtype=d)
        fn = lambda x, k, dil, pad, st: NN.Unfold(k, dil, pad, st)(x)
        out.append(make_case("Unfold", f"{t} k=2", fn, [x, 2, 1, 0, 1]))
        out.append(make_case("Unfold", f"{t} k=[2,3] dilation padding stride", fn, [x, [2, 3], [2, 1], [1, 0], [2, 1]]))
        out.append(make_case("Unfold", f"{t} non-contiguous", fn, [x.transpose(2, 3), 3, 1, 1, 2]))
        out.append(make_case("Unfold", f"{t} kernel too large", fn, [x, 7, 1, 0, 1]))
        cols = torch.randn(2, 3 * 4, 12, dtype=d)
        fn = lambda x, o, k, dil, pad, st: NN.Fold(o, k, dil, pad, st)(x)
        out.append(make_case("Fold", f"{t} overlapping", fn, [cols, [4, 5], 2, 1, 0, 1]))
        out.append(make_case("Fold", f"{t} dilation padding stride", fn, [cols, [6, 7], 2, 2, 1, 2]))
        out.append(make_case("Fold", f"{t} unbatched", fn, [cols[0], [4, 5], 2, 1, 0, 1]))
        out.append(make_case("Fold", f"{t} non-contiguous", fn,
                             [cols.transpose(1, 2).contiguous().transpose(1, 2), [4, 5], 2, 1, 0, 1]))
        out.append(make_case("Fold", f"{t} wrong block count", fn, [cols[:, :, :10], [4, 5], 2, 1, 0, 1]))
        out.append(make_case("Fold", f"{t} wrong channel multiple", fn, [cols[:, :10], [4, 5], 2, 1, 0, 1]))
    return out


def cases():
    return (_unpool_cases() + _fractional_cases() + _pad_cases() + _norm_cases() + _loss_cases() + _ctc_cases()
            + _activation_cases() + _lp_pool_cases() + _distance_fold_cases())
