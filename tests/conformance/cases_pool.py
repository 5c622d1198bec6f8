"""Pooling and resampling (op names `nn.<name>` for torch.nn.functional calls, ATen names for the
backward ops, whose reference is PyTorch's autograd gradient): max/avg/adaptive pooling,
interpolate (nearest, linear, bilinear, bicubic, trilinear), pad (constant, reflect, replicate,
circular), pixel_shuffle, unfold/fold. Layouts: contiguous, channels-last, strided, batch-less, empty batch; errors."""

import torch
import torch.nn.functional as F

from common import FLOATS, SHORT, make_case, make_tensor, domain_any

LAYOUTS = ["contiguous", "channels_last", "strided"]


def _t(shape, dtype=torch.float32, layout="contiguous"):
    if layout == "channels_last":
        t = make_tensor(shape, dtype, domain_any)
        fmt = torch.channels_last if len(shape) == 4 else torch.channels_last_3d
        return t.contiguous(memory_format=fmt) if len(shape) in (4, 5) else t
    return make_tensor(shape, dtype, domain_any, layout)


def _grad(fwd):
    def fn(x, g, **kw):
        x = x.detach().clone().requires_grad_()
        y = fwd(x, **kw)
        if isinstance(y, tuple):
            y = y[0]
        return torch.autograd.grad(y, x, g)[0]
    return fn


def _out_shape(fwd, x, kw):
    y = fwd(x, **kw)
    return (y[0] if isinstance(y, tuple) else y).shape


def _with_grad(out, name, grad_name, fwd, x, kw, label, k=1.0):
    """A forward case and (for floating dtypes that have a kernel) a backward case."""
    out.append(make_case("nn." + name, label, fwd, [x], kw, k=k))
    if grad_name and x.dtype in (torch.float32, torch.float64):
        try:
            shape = _out_shape(fwd, x, kw)
        except Exception:  # noqa: BLE001 - error cases have no backward case
            return
        g = make_tensor(shape, x.dtype, domain_any)
        out.append(make_case(grad_name, label, _grad(fwd), [x, g], kw, k=k * 4))


def _pool_cases():
    out = []
    for d in FLOATS:
        s = SHORT[d]
        for la in LAYOUTS:
            x4 = _t((2, 3, 7, 6), d, la)
            _with_grad(out, "max_pool2d", "max_pool2d_with_indices_backward", F.max_pool2d, x4,
                       {"kernel_size": [3, 2], "stride": [2, 1], "padding": [1, 1]}, f"{s} {la}")
            _with_grad(out, "avg_pool2d", "avg_pool2d_backward", F.avg_pool2d, x4,
                       {"kernel_size": [3, 3], "stride": [2, 2], "padding": [1, 1]}, f"{s} {la}", k=4)
            _with_grad(out, "adaptive_avg_pool2d", "adaptive_avg_pool2d_backward", F.adaptive_avg_pool2d,
                       x4, {"output_size": [3, 4]}, f"{s} {la}", k=4)
            _with_grad(out, "adaptive_max_pool2d", "adaptive_max_pool2d_backward", F.adaptive_max_pool2d,
                       x4, {"output_size": [4, 3]}, f"{s} {la}")
            x5 = _t((2, 2, 5, 6, 4), d, la)
            _with_grad(out, "max_pool3d", "max_pool3d_with_indices_backward", F.max_pool3d, x5,
                       {"kernel_size": [2, 3, 2], "stride": [2, 2, 1], "padding": [1, 1, 0]}, f"{s} {la}")
            _with_grad(out, "avg_pool3d", "avg_pool3d_backward", F.avg_pool3d, x5,
                       {"kernel_size": [2, 2, 2], "padding": [1, 0, 1]}, f"{s} {la}", k=4)
        x3 = _t((2, 3, 9), d, "strided")
        _with_grad(out, "max_pool1d", "max_pool1d_with_indices_backward", F.max_pool1d, x3,
                   {"kernel_size": [3], "stride": [2], "padding": [1], "dilation": [2]}, f"{s} strided")
        _with_grad(out, "avg_pool1d", "avg_pool1d_backward", F.avg_pool1d, x3,
                   {"kernel_size": [4], "stride": [3], "padding": [2], "ceil_mode": True,
                    "count_include_pad": False}, f"{s} ceil no-pad-count", k=4)
        _with_grad(out, "adaptive_avg_pool1d", "adaptive_avg_pool1d_backward", F.adaptive_avg_pool1d, x3,
                   {"output_size": [4]}, s, k=4)
        _with_grad(out, "adaptive_max_pool1d", "adaptive_max_pool1d_backward", F.adaptive_max_pool1d, x3,
                   {"output_size": [5]}, s)
    x = _t((2, 3, 8, 7))
    for kw in ({"kernel_size": [3, 3], "ceil_mode": True},
               {"kernel_size": [3, 2], "stride": [2, 3], "padding": [1, 1], "ceil_mode": True},
               {"kernel_size": [2, 2], "dilation": [2, 3], "padding": [1, 0]},
               {"kernel_size": [3, 3], "stride": [2, 2], "padding": [1, 1], "dilation": [2, 2], "ceil_mode": True}):
        _with_grad(out, "max_pool2d", "max_pool2d_with_indices_backward", F.max_pool2d, x, kw, f"f32 {kw}")
    for kw in ({"kernel_size": [3, 3], "ceil_mode": True, "padding": [1, 1]},
               {"kernel_size": [3, 3], "stride": [2, 2], "padding": [1, 1], "count_include_pad": False},
               {"kernel_size": [2, 3], "divisor_override": 5},
               {"kernel_size": [3, 2], "stride": [2, 3], "padding": [1, 1], "ceil_mode": True,
                "count_include_pad": True}):
        _with_grad(out, "avg_pool2d", "avg_pool2d_backward", F.avg_pool2d, x, kw, f"f32 {kw}", k=4)
    out.append(make_case("nn.max_pool2d", "return_indices", F.max_pool2d, [x],
                         {"kernel_size": [3, 2], "stride": [2, 2], "padding": [1, 1], "return_indices": True}))
    out.append(make_case("nn.max_pool1d", "return_indices", F.max_pool1d, [_t((2, 3, 9))],
                         {"kernel_size": [3], "return_indices": True}))
    out.append(make_case("nn.max_pool3d", "return_indices", F.max_pool3d, [_t((1, 2, 4, 5, 6))],
                         {"kernel_size": [2, 2, 3], "return_indices": True}))
    out.append(make_case("nn.adaptive_max_pool2d", "return_indices", F.adaptive_max_pool2d, [x],
                         {"output_size": [3, 5], "return_indices": True}))
    nan = _t((1, 2, 4, 4))
    nan[0, 0, 1, 1] = float("nan")
    nan[0, 1, 0, 0] = float("nan")
    nan[0, 1, 0, 1] = float("nan")
    out.append(make_case("nn.max_pool2d", "nan", F.max_pool2d, [nan], {"kernel_size": [2, 2], "return_indices": True}))
    out.append(make_case("nn.adaptive_max_pool2d", "nan", F.adaptive_max_pool2d, [nan],
                         {"output_size": [2, 3], "return_indices": True}))
    # Wide rows: the vector blocks of Note [Max pooling loop] (4 floats or 2 doubles of adjacent
    # outputs, the last block overlapping) next to the per-window edges; domain_any's small integers
    # tie often, so the indices check the first-tap rule.
    wide_kws = ({"kernel_size": [2, 2]},
                {"kernel_size": [3, 3], "stride": [1, 1], "padding": [1, 1]},
                {"kernel_size": [2, 3], "stride": [1, 3], "padding": [1, 1], "dilation": [2, 1],
                 "ceil_mode": True},
                {"kernel_size": [3, 3], "stride": [2, 2], "padding": [1, 1], "ceil_mode": True})
    for d in FLOATS:
        for la in LAYOUTS:
            xw = _t((2, 3, 5, 26), d, la)
            for kw in wide_kws:
                _with_grad(out, "max_pool2d", "max_pool2d_with_indices_backward", F.max_pool2d, xw, kw,
                           f"{SHORT[d]} {la} wide {kw}")
    for kw in wide_kws:
        out.append(make_case("nn.max_pool2d", f"return_indices wide {kw}", F.max_pool2d,
                             [_t((2, 3, 5, 26))], dict(kw, return_indices=True)))
    special = _t((1, 2, 4, 19))  # -inf runs (ties at -inf, with padding) and NaNs, some in one window
    special[0, 0, :, 3:9] = float("-inf")
    special[0, 1, 1, 4:8] = float("-inf")
    special[0, 1, :2, 10] = float("nan")
    special[0, 1, 2, 11:13] = float("nan")
    special[0, 0, 3, 16] = float("nan")
    for kw in wide_kws:
        out.append(make_case("nn.max_pool2d", f"nan -inf wide {kw}", F.max_pool2d, [special],
                             dict(kw, return_indices=True)))
        out.append(make_case("nn.max_pool2d", f"f64 nan -inf wide {kw}", F.max_pool2d, [special.double()],
                             dict(kw, return_indices=True)))
    # batch-less and empty batch
    for name, fwd, grad, kw in (
            ("max_pool2d", F.max_pool2d, "max_pool2d_with_indices_backward", {"kernel_size": [2, 2]}),
            ("avg_pool2d", F.avg_pool2d, "avg_pool2d_backward", {"kernel_size": [2, 2], "padding": [1, 1]}),
            ("adaptive_avg_pool2d", F.adaptive_avg_pool2d, "adaptive_avg_pool2d_backward", {"output_size": [2, 3]}),
            ("adaptive_max_pool2d", F.adaptive_max_pool2d, "adaptive_max_pool2d_backward", {"output_size": [2, 3]})):
        _with_grad(out, name, grad, fwd, _t((3, 5, 6)), kw, "batch-less")
        _with_grad(out, name, grad, fwd, _t((0, 3, 5, 6)), kw, "empty batch")
        _with_grad(out, name, grad, fwd, _t((3, 5, 6), torch.float64, "transposed"), kw, "f64 batch-less transposed")
    for name, fwd, kw in (("max_pool1d", F.max_pool1d, {"kernel_size": [2]}),
                          ("avg_pool1d", F.avg_pool1d, {"kernel_size": [2]}),
                          ("max_pool3d", F.max_pool3d, {"kernel_size": [2, 2, 2]}),
                          ("avg_pool3d", F.avg_pool3d, {"kernel_size": [2, 2, 2]})):
        shape = (3, 6) if "1d" in name else (2, 4, 4, 4)
        out.append(make_case("nn." + name, "batch-less", fwd, [_t(shape)], kw))
    # errors
    bad = [("max_pool2d", F.max_pool2d, _t((2, 3, 5, 5)), {"kernel_size": [2, 2], "padding": [2, 2]}, "pad > k/2"),
           ("max_pool2d", F.max_pool2d, _t((2, 3, 5, 5)), {"kernel_size": [7, 7]}, "kernel > input"),
           ("max_pool2d", F.max_pool2d, _t((5, 5)), {"kernel_size": [2, 2]}, "2-D input"),
           ("max_pool2d", F.max_pool2d, _t((2, 0, 5, 5)), {"kernel_size": [2, 2]}, "zero channels"),
           ("max_pool2d", F.max_pool2d, _t((2, 3, 5, 5)), {"kernel_size": [2, 2], "stride": [0, 1]}, "stride 0"),
           ("max_pool2d", F.max_pool2d, _t((2, 3, 5, 5)), {"kernel_size": [2, 2], "dilation": [0, 1]}, "dilation 0"),
           ("max_pool1d", F.max_pool1d, _t((2, 3, 4, 5)), {"kernel_size": [2]}, "4-D input"),
           ("max_pool3d", F.max_pool3d, _t((2, 3, 4)), {"kernel_size": [2, 2, 2]}, "3-D input"),
           ("avg_pool2d", F.avg_pool2d, _t((2, 3, 5, 5)), {"kernel_size": [2, 2], "padding": [2, 2]}, "pad > k/2"),
           ("avg_pool2d", F.avg_pool2d, _t((2, 3, 5, 5)), {"kernel_size": [2, 2], "divisor_override": 0}, "divisor 0"),
           ("avg_pool2d", F.avg_pool2d, _t((1, 5, 5)).int(), {"kernel_size": [2, 2]}, "int"),
           ("avg_pool1d", F.avg_pool1d, _t((2, 3, 2)), {"kernel_size": [3]}, "kernel > input"),
           ("adaptive_avg_pool2d", F.adaptive_avg_pool2d, _t((5,)), {"output_size": [2, 2]}, "1-D input"),
           ("adaptive_max_pool2d", F.adaptive_max_pool2d, _t((2, 3, 5, 5)), {"output_size": [-1, 2]}, "negative size")]
    for name, fwd, x, kw, label in bad:
        out.append(make_case("nn." + name, "error " + label, fwd, [x], kw))
    return out


def _interp_cases():
    out = []
    for d in FLOATS:
        s = SHORT[d]
        for la in LAYOUTS:
            x = _t((2, 3, 5, 4), d, la)
            for kw in ({"size": [7, 9]}, {"scale_factor": 2.0}, {"size": [3, 2]}, {"scale_factor": 1.7},
                       {"size": [8, 6], "mode": "bilinear", "align_corners": False},
                       {"size": [8, 6], "mode": "bilinear", "align_corners": True},
                       {"size": [3, 3], "mode": "bilinear", "align_corners": False},
                       {"scale_factor": 2.5, "mode": "bilinear", "align_corners": False},
                       {"scale_factor": 0.6, "mode": "bilinear", "align_corners": True},
                       {"size": [1, 1], "mode": "bilinear", "align_corners": True}):
                grad = "upsample_bilinear2d_backward" if kw.get("mode") == "bilinear" else "upsample_nearest2d_backward"
                _with_grad(out, "interpolate", grad, F.interpolate, x, kw, f"{s} {la} {kw}", k=4)
        x1 = _t((2, 3, 6), d, "strided")
        for kw in ({"size": [11]}, {"scale_factor": 3.0}, {"scale_factor": 0.5}):
            _with_grad(out, "interpolate", "upsample_nearest1d_backward", F.interpolate, x1, kw, f"{s} 1d {kw}")
    out.append(make_case("nn.interpolate", "3d nearest", F.interpolate, [_t((1, 2, 3, 4, 2))], {"scale_factor": 2.0}))
    # linear, bicubic and trilinear (brasa's separable composites) in float32/float64, values and
    # gradients; up and down, sizes and scale factors, with and without align_corners.
    for d in (torch.float32, torch.float64):
        s = SHORT[d]
        for mode, shape, kws in (
                ("linear", (2, 3, 6), ({"size": [11]}, {"scale_factor": 0.5}, {"scale_factor": 1.7})),
                ("bicubic", (2, 3, 5, 4), ({"size": [7, 9]}, {"size": [3, 2]}, {"scale_factor": 1.5})),
                ("trilinear", (1, 2, 3, 4, 2), ({"scale_factor": 2.0}, {"size": [2, 5, 3]}))):
            for la in ("contiguous", "strided"):
                for kw in kws:
                    for ac in (False, True):
                        args = dict(kw, mode=mode, align_corners=ac)
                        out.append(make_case("nn.interpolate", f"{s} {la} {args}", F.interpolate,
                                             [_t(shape, d, la)], args))
    out.append(make_case("nn.interpolate", "empty batch", F.interpolate, [_t((0, 2, 3, 4))], {"scale_factor": 2.0}))
    out.append(make_case("nn.interpolate", "empty batch bilinear", F.interpolate, [_t((0, 2, 3, 4))],
                         {"scale_factor": 2.0, "mode": "bilinear", "align_corners": False}))
    out.append(make_case("nn.interpolate", "recompute_scale_factor", F.interpolate, [_t((1, 2, 5, 4))],
                         {"scale_factor": 1.7, "mode": "bilinear", "align_corners": False,
                          "recompute_scale_factor": True}))
    for kw, label in (({"scale_factor": 2.0, "mode": "bilinear", "align_corners": False}, "bilinear on 3-D"),
                      ({"size": [0, 2]}, "zero size"), ({"scale_factor": 0.1}, "scale to zero"),
                      ({"size": [4, 4], "align_corners": True}, "align_corners with nearest"),
                      ({"size": [4, 4], "scale_factor": 2.0}, "size and scale")):
        x = _t((2, 3, 5)) if "3-D" in label else _t((2, 3, 5, 5))
        out.append(make_case("nn.interpolate", "error " + label, F.interpolate, [x], kw))
    out.append(make_case("nn.interpolate", "error zero channels", F.interpolate, [_t((2, 0, 4, 4))], {"scale_factor": 2.0}))
    return out


def _pad_cases():
    out = []
    grads = {"reflect": "reflection_pad{}d_backward", "replicate": "replication_pad{}d_backward",
             "circular": "circular_pad{}d_backward"}
    for d in FLOATS:
        s = SHORT[d]
        for la in LAYOUTS:
            x4 = _t((2, 3, 5, 6), d, la)
            for mode in ("reflect", "replicate", "circular"):
                for p in ([1, 2], [2, 1, 3, 0], [-1, 2, 1, -2]):
                    n = len(p) // 2
                    x = x4 if n == 2 else x4[0]
                    _with_grad(out, "pad", grads[mode].format(n), F.pad, x, {"pad": p, "mode": mode},
                               f"{s} {la} {mode} {p}")
            for p in ([1, 2], [2, 1, 3, 0], [-1, 2, 1, -2], [1, 1, 1, 1, 1, 1, 1, 1], [-2, -3]):
                out.append(make_case("nn.pad", f"{s} {la} constant {p}", F.pad, [x4], {"pad": p, "value": 1.5}))
        x5 = _t((1, 2, 3, 4, 5), d)
        for mode in ("reflect", "replicate", "circular"):
            _with_grad(out, "pad", grads[mode].format(3), F.pad, x5, {"pad": [1, 2, 2, 1, 1, 0], "mode": mode},
                       f"{s} 3d {mode}")
            _with_grad(out, "pad", grads[mode].format(3), F.pad, x5[0], {"pad": [1, 2, 2, 1, 1, 0], "mode": mode},
                       f"{s} 3d batch-less {mode}")
    for d in (torch.int64, torch.bool):
        out.append(make_case("nn.pad", f"{SHORT[d]} constant", F.pad, [make_tensor((2, 3), d)], {"pad": [1, 2, 0, 1]}))
    out.append(make_case("nn.pad", "empty batch reflect", F.pad, [_t((0, 3, 4))], {"pad": [1, 2], "mode": "reflect"}))
    for x, kw, label in ((_t((2, 3, 5)), {"pad": [5, 1], "mode": "reflect"}, "reflect pad >= size"),
                         (_t((2, 3, 5)), {"pad": [1, 1, 1, 1, 1, 1], "mode": "reflect"}, "too many pads"),
                         (_t((5,)), {"pad": [1, 1], "mode": "replicate"}, "1-D input"),
                         (_t((2, 3, 5)), {"pad": [6, 0], "mode": "circular"}, "circular wraps twice"),
                         (_t((2, 3, 5)), {"pad": [1], "value": 0.0}, "odd pad length"),
                         (_t((2, 3, 5)), {"pad": [-3, -3]}, "negative output"),
                         (_t((2, 3)), {"pad": [1, 1, 1, 1, 1, 1]}, "pad longer than dims")):
        out.append(make_case("nn.pad", "error " + label, F.pad, [x], kw))
    return out


def _shuffle_fold_cases():
    out = []
    for d in FLOATS + [torch.int64]:
        s = SHORT[d]
        for la in ("contiguous", "channels_last", "strided"):
            out.append(make_case("nn.pixel_shuffle", f"{s} {la}", F.pixel_shuffle, [_t((2, 8, 3, 4), d, la)],
                                 {"upscale_factor": 2}))
            out.append(make_case("nn.pixel_unshuffle", f"{s} {la}", F.pixel_unshuffle,
                                 [_t((2, 3, 4, 6), d, la)], {"downscale_factor": 2}))
    out.append(make_case("nn.pixel_shuffle", "batch-less", F.pixel_shuffle, [_t((9, 2, 2))], {"upscale_factor": 3}))
    out.append(make_case("nn.pixel_shuffle", "5-D", F.pixel_shuffle, [_t((2, 2, 4, 2, 2))], {"upscale_factor": 2}))
    out.append(make_case("nn.pixel_shuffle", "empty", F.pixel_shuffle, [_t((0, 4, 2, 2))], {"upscale_factor": 2}))
    out.append(make_case("nn.pixel_shuffle", "error channels", F.pixel_shuffle, [_t((2, 7, 2, 2))], {"upscale_factor": 2}))
    out.append(make_case("nn.pixel_shuffle", "error 2-D", F.pixel_shuffle, [_t((4, 2))], {"upscale_factor": 2}))
    out.append(make_case("nn.pixel_unshuffle", "error height", F.pixel_unshuffle, [_t((1, 2, 3, 4))],
                         {"downscale_factor": 2}))
    for d in FLOATS:
        s = SHORT[d]
        for la in LAYOUTS:
            x = _t((2, 3, 6, 5), d, la)
            for kw in ({"kernel_size": [2, 3]},
                       {"kernel_size": [3, 2], "dilation": [2, 1], "padding": [1, 2], "stride": [2, 1]}):
                _with_grad(out, "unfold", "nn.unfold_backward", F.unfold, x, kw, f"{s} {la} {kw}", k=4)
        cols = make_tensor((2, 3 * 4, 12), d, domain_any, "transposed")
        kw = {"output_size": [5, 6], "kernel_size": [2, 2], "stride": [2, 2], "padding": [1, 1]}
        _with_grad(out, "fold", "nn.fold_backward", F.fold, cols, kw, f"{s} transposed", k=4)
        kw = {"output_size": [4, 5], "kernel_size": [2, 3], "dilation": [1, 1]}
        _with_grad(out, "fold", "nn.fold_backward", F.fold, _t((3 * 6, 9), d), kw, f"{s} batch-less", k=4)
    out.append(make_case("nn.unfold", "batch-less", F.unfold, [_t((3, 4, 4))], {"kernel_size": [2, 2]}))
    out.append(make_case("nn.unfold", "empty batch", F.unfold, [_t((0, 3, 4, 4))], {"kernel_size": [2, 2]}))
    out.append(make_case("nn.unfold", "error kernel > input", F.unfold, [_t((2, 3, 4, 4))], {"kernel_size": [5, 5]}))
    out.append(make_case("nn.fold", "error blocks", F.fold, [_t((12, 15))], {"output_size": [5, 5], "kernel_size": [2, 2]}))
    out.append(make_case("nn.fold", "error channels", F.fold, [_t((2, 10, 16))], {"output_size": [5, 5], "kernel_size": [2, 2]}))
    return out


def cases():
    return _pool_cases() + _interp_cases() + _pad_cases() + _shuffle_fold_cases()
