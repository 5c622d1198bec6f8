"""brasa.nn layers and nn.functional against torch 1.13: the same weights (copied through
state_dict), the same input; forward, input gradient and parameter gradients."""
import numpy as np
import pytest
import torch

import brasa
import brasa.nn as nn
import brasa.nn.functional as F
from nn_support import assert_close, copy_state

R = np.random.RandomState(0)
X4 = R.randn(2, 3, 8, 8).astype(np.float32)
X2 = R.randn(4, 6).astype(np.float32)
X3 = R.randn(2, 3, 10).astype(np.float32)

LAYERS = [
    ("Linear(6, 4)", X2), ("Linear(6, 4, bias=False)", X2), ("Conv1d(3, 4, 3, padding=1)", X3),
    ("Conv2d(3, 4, 3, padding=1)", X4), ("Conv2d(3, 4, (3, 2), stride=2, bias=False)", X4),
    ("Conv2d(3, 6, 3, groups=3, dilation=2)", X4), ("Conv2d(3, 4, 3, padding='same')", X4),
    ("ConvTranspose2d(3, 4, 3, stride=2, output_padding=1)", X4),
    ("MaxPool2d(2)", X4), ("MaxPool2d(3, stride=2, padding=1, ceil_mode=True)", X4),
    ("MaxPool1d(2)", X3), ("AvgPool2d(3, 2, 1)", X4), ("AvgPool1d(2)", X3),
    ("AdaptiveAvgPool2d((1, 1))", X4), ("AdaptiveMaxPool2d(3)", X4),
    ("BatchNorm2d(3)", X4), ("BatchNorm1d(6)", X2), ("BatchNorm1d(3, affine=False)", X3),
    ("LayerNorm(8)", X4), ("LayerNorm([8, 8], elementwise_affine=False)", X4),
    ("GroupNorm(1, 3)", X4), ("InstanceNorm2d(3)", X4),
    ("ReLU()", X4), ("ReLU6()", X4), ("LeakyReLU(0.2)", X4), ("ELU()", X4), ("SELU()", X4),
    ("CELU(0.5)", X4), ("GELU()", X4), ("GELU('tanh')", X4), ("SiLU()", X4), ("Mish()", X4),
    ("Sigmoid()", X4), ("Tanh()", X4), ("Hardtanh(-0.5, 0.5)", X4), ("Hardswish()", X4),
    ("Hardsigmoid()", X4), ("Softplus(2)", X4), ("Softshrink()", X4), ("Hardshrink()", X4),
    ("LogSigmoid()", X4), ("Softsign()", X4), ("Tanhshrink()", X4), ("PReLU()", X4),
    ("GLU()", X4), ("Softmax(1)", X4), ("LogSoftmax(-1)", X4), ("Flatten()", X4),
    ("Unflatten(1, (2, 3))", X2), ("Identity()", X2), ("Dropout(0.3)", X4),
    ("Sequential(Conv2d(3, 2, 3), ReLU(), Flatten(), Linear(72, 5))", X4),
    ("ZeroPad2d((1, 2, 0, 1))", X4), ("ConstantPad1d(2, 0.5)", X3), ("ReflectionPad2d(2)", X4),
    ("ReplicationPad1d((1, 3))", X3), ("Upsample(scale_factor=2)", X4),
    ("Upsample(size=(5, 11), mode='bilinear')", X4),
    ("Upsample(scale_factor=1.5, mode='bilinear', align_corners=True)", X4),
    ("Upsample(size=17)", X3), ("PixelUnshuffle(2)", X4),
    ("Sequential(PixelUnshuffle(2), PixelShuffle(2))", X4),
    ("Unfold(3, padding=1)", X4), ("Unfold((2, 3), dilation=2, stride=(1, 2))", X4),
    ("Sequential(Unfold(2, stride=2), Fold((8, 8), 2, stride=2))", X4),
    ("LocalResponseNorm(3)", X4), ("LocalResponseNorm(2, alpha=0.1, k=2.0)", X3),
    ("LPPool2d(2, 2)", X4), ("LPPool1d(2, 3, stride=2)", X3), ("Softmax2d()", X4),
    ("UpsamplingNearest2d(scale_factor=2)", X4),
    ("UpsamplingBilinear2d(size=(5, 7))", X4), ("RReLU()", X4),
]


def build(m, spec):
    return eval(spec, {**{k: getattr(m, k) for k in dir(m) if k[0].isupper()}})


@pytest.mark.parametrize("spec,x", LAYERS, ids=[s for s, _ in LAYERS])
@pytest.mark.parametrize("training", [True, False])
def test_layer_matches_torch(spec, x, training):
    bm, tm = build(nn, spec), build(torch.nn, spec)
    assert repr(bm) == repr(tm)
    copy_state(bm, tm)
    bm.train(training)
    tm.train(training)
    if ("Dropout" in spec or "RReLU" in spec) and training:
        return  # random: tested below
    xb = brasa.from_numpy(x.copy()).requires_grad_()
    xt = torch.from_numpy(x.copy()).requires_grad_()
    yb, yt = bm(xb), tm(xt)
    assert_close(yb, yt)
    wb = brasa.from_numpy(np.cos(np.arange(yt.numel(), dtype=np.float32)).reshape(yt.shape))
    (yb * wb).sum().backward()
    (yt * torch.from_numpy(wb.numpy())).sum().backward()
    assert_close(xb.grad, xt.grad, rtol=1e-4, atol=1e-5)
    for (name, pb), pt in zip(bm.named_parameters(), tm.parameters()):
        assert_close(pb.grad, pt.grad, rtol=1e-4, atol=1e-4)
    for (name, bb), bt in zip(bm.named_buffers(), tm.buffers()):
        assert_close(bb, bt)  # running statistics updated alike


def test_embedding_matches_torch():
    bm, tm = nn.Embedding(10, 3, padding_idx=2), torch.nn.Embedding(10, 3, padding_idx=2)
    copy_state(bm, tm)
    idx = np.array([[1, 2], [2, 9]])
    yb, yt = bm(brasa.from_numpy(idx)), tm(torch.from_numpy(idx))
    assert_close(yb, yt)
    yb.sum().backward()
    yt.sum().backward()
    assert_close(bm.weight.grad, tm.weight.grad)
    assert bm.weight.grad[2].abs().sum().item() == 0


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_matches_torch(mode):
    bm = nn.EmbeddingBag(10, 3, mode=mode)
    tm = torch.nn.EmbeddingBag(10, 3, mode=mode)
    assert repr(bm) == repr(tm)
    copy_state(bm, tm)
    idx, off = np.array([1, 2, 4, 5, 4, 3, 2, 9]), np.array([0, 3, 5])
    yb = bm(brasa.from_numpy(idx), brasa.from_numpy(off))
    yt = tm(torch.from_numpy(idx), torch.from_numpy(off))
    assert_close(yb, yt)
    yb.pow(2).sum().backward()
    yt.pow(2).sum().backward()
    assert_close(bm.weight.grad, tm.weight.grad)
    two_d = np.array([[1, 2], [3, 3]])
    assert_close(bm(brasa.from_numpy(two_d)), tm(torch.from_numpy(two_d)))


def test_initialisation_matches_torch_for_a_seed():
    for spec in ("Linear(5, 4)", "Conv2d(3, 4, 3)", "Embedding(6, 3)", "BatchNorm2d(3)"):
        brasa.manual_seed(7)
        torch.manual_seed(7)
        bm, tm = build(nn, spec), build(torch.nn, spec)
        for pb, pt in zip(bm.parameters(), tm.parameters()):
            assert_close(pb, pt, rtol=0, atol=0)


def test_dropout_training_scales_and_zeroes():
    x = brasa.ones(1000)
    y = nn.Dropout(0.25)(x)
    kept = (y != 0).sum().item()
    assert 650 < kept < 850
    assert np.all((y.numpy() == 0) | np.isclose(y.numpy(), 1 / 0.75))
    z = brasa.ones(10)
    assert F.dropout(z, 0.5, training=True, inplace=True) is z
    with pytest.raises(ValueError):
        nn.Dropout(1.5)


LOSSES = [
    ("cross_entropy", {}, "logits", "classes"), ("cross_entropy", {"reduction": "sum"}, "logits",
                                                  "classes"),
    ("cross_entropy", {"label_smoothing": 0.1}, "logits", "classes"),
    ("cross_entropy", {"ignore_index": 1}, "logits", "classes"),
    ("cross_entropy", {"reduction": "none"}, "logits", "probs"),
    ("nll_loss", {}, "logprobs", "classes"), ("mse_loss", {}, "logits", "same"),
    ("l1_loss", {"reduction": "sum"}, "logits", "same"), ("smooth_l1_loss", {"beta": 0.5},
                                                          "logits", "same"),
    ("huber_loss", {"delta": 0.5}, "logits", "same"),
    ("binary_cross_entropy", {}, "probs", "probs"),
    ("binary_cross_entropy_with_logits", {}, "logits", "probs"),
    ("kl_div", {"reduction": "batchmean"}, "logprobs", "probs"),
    ("hinge_embedding_loss", {"margin": 0.5}, "logits", "pm1"),
    ("soft_margin_loss", {}, "logits", "pm1"),
    ("multi_margin_loss", {}, "logits", "classes"),
    ("multi_margin_loss", {"p": 2, "margin": 0.7, "reduction": "sum"}, "logits", "classes"),
    ("multilabel_margin_loss", {}, "logits", "multilabel"),
    ("multilabel_soft_margin_loss", {}, "logits", "binary"),
    ("poisson_nll_loss", {}, "logits", "counts"),
    ("poisson_nll_loss", {"log_input": False, "full": True}, "probs", "counts"),
]


@pytest.mark.parametrize("name,kwargs,inp,target", LOSSES,
                         ids=[f"{n}-{k}" for n, k, _, _ in LOSSES])
def test_loss_matches_torch(name, kwargs, inp, target):
    logits = R.randn(5, 4).astype(np.float32)
    probs = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    data = {"logits": logits, "probs": probs.astype(np.float32),
            "logprobs": np.log(probs).astype(np.float32),
            "classes": np.array([0, 1, 3, 2, 1]), "same": R.randn(5, 4).astype(np.float32),
            "pm1": np.sign(R.randn(5, 4)).astype(np.float32),
            "binary": (R.rand(5, 4) > 0.5).astype(np.float32),
            "counts": R.poisson(2.0, (5, 4)).astype(np.float32),
            "multilabel": np.array([[3, 0, -1, 1], [1, -1, 0, 0], [0, 1, 2, 3], [2, -1, 3, 3],
                                    [-1, 0, 0, 0]])}
    x, y = data[inp], data[target]
    xb = brasa.from_numpy(x.copy()).requires_grad_()
    xt = torch.from_numpy(x.copy()).requires_grad_()
    lb = getattr(F, name)(xb, brasa.from_numpy(y.copy()), **kwargs)
    lt = getattr(torch.nn.functional, name)(xt, torch.from_numpy(y.copy()), **kwargs)
    assert_close(lb, lt)
    lb.sum().backward()
    lt.sum().backward()
    assert_close(xb.grad, xt.grad)


def test_loss_modules():
    x = R.randn(3, 4).astype(np.float32)
    y = np.array([1, 0, 3])
    for b, t in ((nn.CrossEntropyLoss(), torch.nn.CrossEntropyLoss()),
                 (nn.NLLLoss(reduction="sum"), torch.nn.NLLLoss(reduction="sum"))):
        assert_close(b(brasa.from_numpy(x), brasa.from_numpy(y)),
                     t(torch.from_numpy(x), torch.from_numpy(y)))
    assert_close(nn.MSELoss()(brasa.from_numpy(x), brasa.zeros(3, 4)),
                 torch.nn.MSELoss()(torch.from_numpy(x), torch.zeros(3, 4)))


def test_functional_misc_matches_torch():
    x = R.randn(2, 3, 4, 4).astype(np.float32)
    xb, xt = brasa.from_numpy(x), torch.from_numpy(x)
    tf = torch.nn.functional
    assert_close(F.pad(xb, (1, 2)), tf.pad(xt, (1, 2)))
    assert_close(F.pad(xb, (1, 1, 2, 0), mode="reflect"), tf.pad(xt, (1, 1, 2, 0), mode="reflect"))
    assert_close(F.normalize(xb, dim=1), tf.normalize(xt, dim=1))
    assert_close(F.softmax(xb, dim=-1), tf.softmax(xt, dim=-1))
    assert_close(F.one_hot(brasa.tensor([0, 2]), 3), tf.one_hot(torch.tensor([0, 2]), 3))
    assert_close(F.cosine_similarity(xb, xb * 2), tf.cosine_similarity(xt, xt * 2))
    v, i = F.max_pool2d(xb, 2, return_indices=True)
    vt, it = tf.max_pool2d(xt, 2, return_indices=True)
    assert_close(v, vt)
    assert i.tolist() == it.tolist()
    out = F.relu(xb.clone(), inplace=True)
    assert out.min().item() >= 0
    with pytest.raises(ValueError, match="reduction"):
        F.mse_loss(xb, xb, reduction="avg")


def test_errors_are_python_exceptions():
    with pytest.raises(RuntimeError):
        nn.Linear(3, 2)(brasa.ones(2, 5))  # wrong in_features
    with pytest.raises(ValueError, match="expected 4D input"):
        nn.BatchNorm2d(3)(brasa.ones(2, 3))
    with pytest.raises(TypeError):
        F.conv2d(brasa.ones(1, 1, 3, 3), "weight")


def test_nn_functions_release_the_gil():
    # The main thread must run Python *during* one convolution: with the GIL held for the whole
    # call, no tick could fall between the call's start and end. The input grows until one call
    # takes 30 ms, so the test does not depend on how fast the machine is.
    import threading
    import time
    w = brasa.randn(32, 16, 3, 3)
    for batch in (8, 32, 128, 512):
        x = brasa.randn(batch, 16, 64, 64)
        span = []

        def work():
            start = time.perf_counter()
            F.conv2d(x, w, padding=1)
            span.extend([start, time.perf_counter()])
        ticks = []
        worker = threading.Thread(target=work)
        worker.start()
        while worker.is_alive():
            ticks.append(time.perf_counter())
            time.sleep(0.001)
        worker.join()
        if span[1] - span[0] >= 0.03:
            break
    inside = [t for t in ticks if span[0] < t < span[1]]
    assert len(inside) >= 3, (span[1] - span[0], len(inside))


@pytest.mark.parametrize("mode,n,kw", [
    ("linear", 1, {}), ("linear", 1, {"align_corners": True}), ("bicubic", 2, {}),
    ("bicubic", 2, {"align_corners": True}), ("trilinear", 3, {}), ("nearest", 3, {})])
def test_interpolate_modes_match_torch(mode, n, kw):
    x = R.randn(*([1, 2] + [4] * n)).astype(np.float32)
    xb = brasa.from_numpy(x.copy()).requires_grad_()
    xt = torch.from_numpy(x.copy()).requires_grad_()
    yb = F.interpolate(xb, scale_factor=2, mode=mode, **kw)
    yt = torch.nn.functional.interpolate(xt, scale_factor=2, mode=mode, **kw)
    assert_close(yb, yt)
    yb.pow(2).sum().backward()
    yt.pow(2).sum().backward()
    assert_close(xb.grad, xt.grad, rtol=1e-4, atol=1e-4)


def test_interpolate_antialias_is_not_implemented():
    x = brasa.from_numpy(R.randn(1, 1, 8, 8).astype(np.float32))
    with pytest.raises(NotImplementedError):
        F.interpolate(x, size=(3, 3), mode="bilinear", antialias=True)


def test_max_unpool_grid_sample_pad_sequence_match_torch():
    x = R.randn(1, 2, 6, 6).astype(np.float32)
    vb, ib = F.max_pool2d(brasa.from_numpy(x), 2, return_indices=True)
    vt, it = torch.nn.functional.max_pool2d(torch.from_numpy(x), 2, return_indices=True)
    assert_close(nn.MaxUnpool2d(2)(vb, ib), torch.nn.MaxUnpool2d(2)(vt, it))
    x1 = R.randn(1, 2, 8).astype(np.float32)
    vb, ib = F.max_pool1d(brasa.from_numpy(x1), 2, return_indices=True)
    vt, it = torch.nn.functional.max_pool1d(torch.from_numpy(x1), 2, return_indices=True)
    assert_close(F.max_unpool1d(vb, ib, 2), torch.nn.functional.max_unpool1d(vt, it, 2))
    theta = np.array([[[0.9, 0.1, 0.05], [-0.1, 1.1, 0.0]]], dtype=np.float32)
    gb = F.affine_grid(brasa.from_numpy(theta), (1, 2, 5, 5), align_corners=False)
    gt = torch.nn.functional.affine_grid(torch.from_numpy(theta), (1, 2, 5, 5),
                                         align_corners=False)
    assert_close(gb, gt)
    for mode in ("bilinear", "nearest", "bicubic"):
        for pad in ("zeros", "border", "reflection"):
            assert_close(F.grid_sample(brasa.from_numpy(x), gb, mode, pad, False),
                         torch.nn.functional.grid_sample(torch.from_numpy(x), gt, mode, pad,
                                                         False))
    seqs = [R.randn(n, 3).astype(np.float32) for n in (4, 2, 5)]
    for bf in (False, True):
        assert_close(nn.utils.rnn.pad_sequence([brasa.from_numpy(s) for s in seqs], bf, -1.0),
                     torch.nn.utils.rnn.pad_sequence([torch.from_numpy(s) for s in seqs], bf,
                                                     -1.0))


def test_triplet_and_ctc_losses_match_torch():
    a, p, n = (R.randn(4, 6).astype(np.float32) for _ in range(3))
    for kw in ({}, {"margin": 0.5, "p": 1, "swap": True, "reduction": "sum"}):
        ins_b = [brasa.from_numpy(x.copy()).requires_grad_() for x in (a, p, n)]
        ins_t = [torch.from_numpy(x.copy()).requires_grad_() for x in (a, p, n)]
        lb, lt = nn.TripletMarginLoss(**kw)(*ins_b), torch.nn.TripletMarginLoss(**kw)(*ins_t)
        assert_close(lb, lt)
        lb.backward()
        lt.backward()
        for xb, xt in zip(ins_b, ins_t):
            assert_close(xb.grad, xt.grad)
    T, N, C = 12, 2, 5
    logits = R.randn(T, N, C).astype(np.float32)
    lp_t = torch.from_numpy(logits).log_softmax(2).detach().requires_grad_()
    lp_b = brasa.from_numpy(lp_t.detach().numpy().copy()).requires_grad_()
    targets = np.array([[1, 2, 2, 3], [4, 1, 0, 0]])
    for lengths in (([12, 10], [4, 2]), "tensors"):
        il, tl = ([12, 10], [4, 2]) if lengths != "tensors" else (None, None)
        if lengths == "tensors":
            ib, tb = brasa.tensor([12, 10]), brasa.tensor([4, 2])
            it, tt = torch.tensor([12, 10]), torch.tensor([4, 2])
        else:
            ib, tb, it, tt = il, tl, il, tl
        lb = nn.CTCLoss()(lp_b, brasa.from_numpy(targets), ib, tb)
        lt = torch.nn.CTCLoss()(lp_t, torch.from_numpy(targets), it, tt)
        assert_close(lb, lt)
    lb.backward()
    lt.backward()
    assert_close(lp_b.grad, lp_t.grad)


def test_two_input_modules_match_torch():
    a, b = R.randn(3, 4).astype(np.float32), R.randn(3, 5).astype(np.float32)
    bm, tm = nn.Bilinear(4, 5, 2), torch.nn.Bilinear(4, 5, 2)
    assert repr(bm) == repr(tm)
    copy_state(bm, tm)
    ab, bb = brasa.from_numpy(a).requires_grad_(), brasa.from_numpy(b).requires_grad_()
    at, bt = torch.from_numpy(a).requires_grad_(), torch.from_numpy(b).requires_grad_()
    yb, yt = bm(ab, bb), tm(at, bt)
    assert_close(yb, yt)
    yb.sum().backward()
    yt.sum().backward()
    assert_close(ab.grad, at.grad)
    assert_close(bm.weight.grad, tm.weight.grad)
    c = R.randn(3, 4).astype(np.float32)
    for bmod, tmod in ((nn.CosineSimilarity(), torch.nn.CosineSimilarity()),
                       (nn.PairwiseDistance(p=1.5, keepdim=True),
                        torch.nn.PairwiseDistance(p=1.5, keepdim=True))):
        assert_close(bmod(brasa.from_numpy(a), brasa.from_numpy(c)),
                     tmod(torch.from_numpy(a), torch.from_numpy(c)))
    x = R.randn(2, 6, 3, 3).astype(np.float32)  # torch 1.13 has no channel_shuffle derivative
    assert_close(nn.ChannelShuffle(3)(brasa.from_numpy(x)),
                 torch.nn.ChannelShuffle(3)(torch.from_numpy(x)))
    assert repr(nn.ChannelShuffle(3)) == repr(torch.nn.ChannelShuffle(3))
    var = np.abs(R.randn(3, 4)).astype(np.float32)
    for kw in ({}, {"full": True, "reduction": "sum"}):
        assert_close(nn.GaussianNLLLoss(**kw)(brasa.from_numpy(a), brasa.from_numpy(c),
                                              brasa.from_numpy(var)),
                     torch.nn.GaussianNLLLoss(**kw)(torch.from_numpy(a), torch.from_numpy(c),
                                                    torch.from_numpy(var)))
