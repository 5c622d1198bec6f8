"""Convolutions: conv1d/2d/3d (stride, padding, dilation, groups incl. depthwise, 'same'/'valid'),
conv_transpose1d/2d/3d (output_padding), non-contiguous and channels-last inputs, batch 1, empty
batch, unbatched input, float32/float64/bfloat16, bad input, and convolution_backward (gradients
from PyTorch's autograd)."""

import torch
import torch.nn.functional as F

from common import make_case, make_tensor, domain_small, SHORT

K = 16


def _ints_domain(dtype, n):
    # Small integer values: every product and sum is exact in float32, so results compare exactly.
    return torch.randint(-3, 4, (n,)).to(dtype)


def _t(shape, dtype, layout="contiguous"):
    domain = domain_small if dtype == torch.float64 else _ints_domain
    return make_tensor(shape, dtype, domain, layout)


def _channels_last(t):
    perm = [0] + list(range(2, t.dim())) + [1]
    inv = [0, t.dim() - 1] + list(range(1, t.dim() - 1))
    return t.permute(perm).contiguous().permute(inv)


def _backward(go, x, w, *, stride, padding, dilation, transposed, output_padding, groups):
    x = x.detach().clone().requires_grad_()
    w = w.detach().clone().requires_grad_()
    b = torch.zeros(go.shape[1], dtype=x.dtype, requires_grad=True)
    y = torch.convolution(x, w, b, stride, padding, dilation, transposed, output_padding, groups)
    y.backward(go)
    return [x.grad, w.grad, b.grad]


FWD = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
TR = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}


def _conv(out, nd, label, x, w, b, k=K, **kw):
    out.append(make_case(f"conv{nd}d", label, FWD[nd], [x, w, b], kw, k=k))


def _tconv(out, nd, label, x, w, b, k=K, **kw):
    out.append(make_case(f"conv_transpose{nd}d", label, TR[nd], [x, w, b], kw, k=k))


def cases():
    out = []
    for d in (torch.float32, torch.float64, torch.bfloat16):
        s = SHORT[d]
        sp = {1: (9,), 2: (7, 6), 3: (5, 4, 6)}
        ks = {1: (3,), 2: (3, 2), 3: (2, 3, 2)}
        for nd in (1, 2, 3):
            x = _t((2, 4) + sp[nd], d)
            w = _t((6, 4) + ks[nd], d)
            b = _t((6,), d)
            _conv(out, nd, f"{s} plain", x, w, b)
            _conv(out, nd, f"{s} no bias", x, w, None)
            _conv(out, nd, f"{s} stride 2 pad 1", x, w, b, stride=2, padding=1)
            _conv(out, nd, f"{s} dilation 2 pad 2", x, w, b, padding=2, dilation=2)
            _conv(out, nd, f"{s} groups 2", x, _t((6, 2) + ks[nd], d), b, groups=2)
            _conv(out, nd, f"{s} depthwise", x, _t((8, 1) + ks[nd], d), _t((8,), d), groups=4)
            _conv(out, nd, f"{s} same", x, w, b, padding="same")
            _conv(out, nd, f"{s} same dilated", x, w, b, padding="same", dilation=2)
            _conv(out, nd, f"{s} valid", x, w, b, padding="valid")
            _conv(out, nd, f"{s} per-dim stride", x, w, b, stride=list(range(1, nd + 1)),
                  padding=list(range(nd)))
            _conv(out, nd, f"{s} batch 1", _t((1, 4) + sp[nd], d), w, b)
            _conv(out, nd, f"{s} empty batch", _t((0, 4) + sp[nd], d), w, b)
            _conv(out, nd, f"{s} unbatched", _t((4,) + sp[nd], d), w, b, padding=1)
            _conv(out, nd, f"{s} strided input", _t((2, 4) + sp[nd], d, "strided"), w, b)
            _conv(out, nd, f"{s} transposed weight", x, _t((6, 4) + ks[nd], d, "transposed"), b)
            if nd >= 2:
                _conv(out, nd, f"{s} channels-last", _channels_last(x), _channels_last(w), b,
                      padding=1)
            if d == torch.bfloat16:
                continue  # PyTorch 1.13's BFloat16 transposed convolution checks the wrong channels
            wt = _t((4, 3) + ks[nd], d)
            _tconv(out, nd, f"{s} plain", x, wt, _t((3,), d))
            _tconv(out, nd, f"{s} stride 2 pad 1 out_pad 1", x, wt, _t((3,), d), stride=2,
                   padding=1, output_padding=1)
            _tconv(out, nd, f"{s} groups 2 dilation 2", x, _t((4, 2) + ks[nd], d), None, groups=2,
                   dilation=2)
            _tconv(out, nd, f"{s} out_pad 1 < dilation 2", x, wt, None, output_padding=1,
                   dilation=2)
            _tconv(out, nd, f"{s} empty batch", _t((0, 4) + sp[nd], d), wt, None)
            if nd >= 2:
                _tconv(out, nd, f"{s} channels-last", _channels_last(x), wt, None, stride=2)
    # The benchmark geometry and a larger channel count (oneDNN picks blocked formats).
    f = torch.float32
    _conv(out, 2, "f32 bench 28", _t((2, 32, 28, 28), f), _t((64, 32, 3, 3), f), _t((64,), f),
          padding=1)
    _conv(out, 2, "f32 64ch stride 2", _t((2, 64, 14, 14), f), _t((64, 64, 3, 3), f), None,
          stride=2, padding=1)
    _tconv(out, 2, "f32 32ch stride 2", _t((2, 32, 7, 7), f), _t((32, 16, 4, 4), f), None,
           stride=2, padding=1)
    # Gradients (convolution_backward) against autograd.
    for d in (torch.float32, torch.float64):
        s = SHORT[d]
        geos = [
            ("2d plain", (2, 4, 7, 6), (6, 4, 3, 2), dict(stride=[1, 1], padding=[0, 0], dilation=[1, 1],
                                                         transposed=False, output_padding=[0, 0], groups=1)),
            ("2d stride 2 pad 1 groups 2", (2, 4, 7, 6), (6, 2, 3, 3),
             dict(stride=[2, 2], padding=[1, 1], dilation=[1, 1], transposed=False,
                  output_padding=[0, 0], groups=2)),
            ("1d dilation 2", (3, 2, 11), (4, 2, 3), dict(stride=[1], padding=[2], dilation=[2],
                                                          transposed=False, output_padding=[0], groups=1)),
            ("3d stride 2", (1, 2, 5, 4, 5), (3, 2, 2, 2, 2),
             dict(stride=[2, 1, 2], padding=[1, 0, 1], dilation=[1, 1, 1], transposed=False,
                  output_padding=[0, 0, 0], groups=1)),
            ("2d transposed stride 2 out_pad 1", (2, 4, 5, 4), (4, 3, 3, 3),
             dict(stride=[2, 2], padding=[1, 1], dilation=[1, 1], transposed=True,
                  output_padding=[1, 1], groups=1)),
            ("1d transposed out_pad >= stride", (2, 2, 6), (2, 3, 3),
             dict(stride=[1], padding=[0], dilation=[2], transposed=True, output_padding=[1], groups=1)),
            ("2d transposed groups 2", (2, 4, 5, 5), (4, 2, 2, 3),
             dict(stride=[1, 2], padding=[0, 1], dilation=[1, 1], transposed=True,
                  output_padding=[0, 1], groups=2)),
            ("2d empty batch", (0, 4, 7, 6), (6, 4, 3, 2), dict(stride=[1, 1], padding=[0, 0], dilation=[1, 1],
                                                               transposed=False, output_padding=[0, 0], groups=1)),
        ]
        for label, xs, ws, kw in geos:
            x, w = _t(xs, d), _t(ws, d)
            y = torch.convolution(x, w, None, **kw)
            go = _t(tuple(y.shape), d, "strided")
            out.append(make_case("convolution_backward", f"{s} {label}", _backward, [go, x, w], kw, k=K))
    # Bad input: PyTorch raises, brasa must throw.
    x, w = _t((2, 4, 7, 6), f), _t((6, 4, 3, 3), f)
    _conv(out, 2, "error weight rank", x, _t((6, 4, 3), f), None)
    _conv(out, 2, "error input rank", _t((2, 1, 4, 7, 6), f), w, None)
    _conv(out, 2, "error channels", _t((2, 5, 7, 6), f), w, None)
    _conv(out, 2, "error groups", x, _t((6, 2, 3, 3), f), None, groups=3)
    _conv(out, 2, "error groups don't divide out channels", x, _t((5, 2, 3, 3), f), None, groups=2)
    _conv(out, 2, "error kernel too large", _t((2, 4, 2, 6), f), w, None)
    _conv(out, 2, "error stride 0", x, w, None, stride=0)
    _conv(out, 2, "error negative padding", x, w, None, padding=-1)
    _conv(out, 2, "error bias size", x, w, _t((5,), f))
    _conv(out, 2, "error dtype", x, _t((6, 4, 3, 3), torch.float64), None)
    _conv(out, 2, "error same with stride", x, w, None, padding="same", stride=2)
    for d in (torch.int64, torch.int32, torch.uint8):
        _conv(out, 2, f"{SHORT[d]} integral", x.to(d), w.to(d), None, padding=1)
        _tconv(out, 2, f"{SHORT[d]} integral", x.to(d), w.to(d).transpose(0, 1), None)
    _conv(out, 2, "f16", x.half(), w.half(), _t((6,), torch.float16), padding=1)
    _conv(out, 2, "error bool", x.bool(), w.bool(), None)
    _tconv(out, 2, "error output_padding", x, _t((4, 3, 3, 3), f), None, stride=2,
           output_padding=2)
    return out
