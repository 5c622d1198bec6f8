"""The at:: layer-level ops (issue 15): libtorch's named convolution kernels (thnn_conv2d,
slow_conv3d, slow_conv_dilated*, slow_conv_transpose*, conv_tbc), the recurrent cells, the
interpolating upsamplers, max unpooling and the affine grid generator, called as libtorch spells
them. PyTorch runs torch.ops.aten.*, so positional signatures and defaults are libtorch's."""

import torch

from common import SHORT, make_case

A = torch.ops.aten
REAL = [torch.float32, torch.float64]


def _conv_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        x2, w2, b = torch.randn(2, 3, 6, 5, dtype=d), torch.randn(4, 3, 3, 2, dtype=d), torch.randn(4, dtype=d)
        x2t = torch.randn(2, 3, 5, 6, dtype=d).transpose(2, 3)
        x3, w3 = torch.randn(1, 2, 4, 5, 4, dtype=d), torch.randn(3, 2, 2, 3, 2, dtype=d)
        out.append(make_case("thnn_conv2d", t, A.thnn_conv2d, [x2, w2, [3, 2]], k=8))
        out.append(make_case("thnn_conv2d", t + " bias stride pad transposed", A.thnn_conv2d,
                             [x2t, w2, [3, 2], b, [2, 1], [1, 0]], k=8))
        out.append(make_case("thnn_conv2d", t + " kernel mismatch", A.thnn_conv2d, [x2, w2, [2, 2]]))
        out.append(make_case("slow_conv3d", t, A.slow_conv3d, [x3, w3, [2, 3, 2], b[:3], [1, 2, 1], [1, 0, 1]], k=8))
        out.append(make_case("slow_conv3d_forward", t, A.slow_conv3d_forward,
                             [x3, w3, [2, 3, 2], None, [1, 1, 1], [0, 0, 0]], k=8))
        out.append(make_case("slow_conv_dilated2d", t, A.slow_conv_dilated2d,
                             [x2, w2, [3, 2], b, [1, 1], [1, 1], [2, 2]], k=8))
        out.append(make_case("slow_conv_dilated3d", t, A.slow_conv_dilated3d,
                             [x3, w3, [2, 3, 2], None, [1, 1, 1], [0, 1, 0], [2, 1, 1]], k=8))
        wt2, wt3 = torch.randn(3, 4, 3, 2, dtype=d), torch.randn(2, 3, 2, 2, 3, dtype=d)
        out.append(make_case("slow_conv_transpose2d", t, A.slow_conv_transpose2d, [x2, wt2, [3, 2]], k=8))
        out.append(make_case("slow_conv_transpose2d", t + " all args", A.slow_conv_transpose2d,
                             [x2t, wt2, [3, 2], b, [2, 2], [1, 0], [1, 0], [1, 2]], k=8))
        out.append(make_case("slow_conv_transpose3d", t, A.slow_conv_transpose3d,
                             [x3, wt3, [2, 2, 3], b[:3], [2, 1, 1], [0, 1, 0], [1, 0, 0], [1, 1, 1]], k=8))
        xt, wt, bt = torch.randn(7, 2, 3, dtype=d), torch.randn(3, 3, 4, dtype=d), torch.randn(4, dtype=d)
        for pad in (0, 1, 2):
            out.append(make_case("conv_tbc", f"{t} pad={pad}", A.conv_tbc, [xt, wt, bt, pad], k=8))
        out.append(make_case("conv_tbc", t + " transposed input", A.conv_tbc,
                             [torch.randn(2, 7, 3, dtype=d).transpose(0, 1), wt, bt], k=8))
        out.append(make_case("conv_tbc", t + " channel mismatch", A.conv_tbc, [xt, wt[:, :2], bt]))
    return out


def _rnn_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        x, h, c = torch.randn(3, 4, dtype=d), torch.randn(3, 5, dtype=d), torch.randn(3, 5, dtype=d)
        for name, gates in (("lstm_cell", 4), ("gru_cell", 3), ("rnn_tanh_cell", 1), ("rnn_relu_cell", 1)):
            w_ih, w_hh = torch.randn(gates * 5, 4, dtype=d) * 0.5, torch.randn(gates * 5, 5, dtype=d) * 0.5
            b_ih, b_hh = torch.randn(gates * 5, dtype=d), torch.randn(gates * 5, dtype=d)
            hx = [h, c] if name == "lstm_cell" else h
            fn = getattr(A, name)
            out.append(make_case(name, t, fn, [x, hx, w_ih, w_hh, b_ih, b_hh], k=8))
            out.append(make_case(name, t + " no bias", fn, [x, hx, w_ih, w_hh], k=8))
            out.append(make_case(name, t + " transposed weights", fn,
                                 [x, hx, w_ih.t().contiguous().t(), w_hh.t().contiguous().t(), b_ih], k=8))
            out.append(make_case(name, t + " empty batch", fn,
                                 [x[:0], [h[:0], c[:0]] if name == "lstm_cell" else h[:0], w_ih, w_hh], k=8))
            bad_h = [h[:, :4], c] if name == "lstm_cell" else h[:, :4]
            out.append(make_case(name, t + " bad hidden", fn, [x, bad_h, w_ih, w_hh]))
            out.append(make_case(name, t + " bad input", fn, [x[:, :3], hx, w_ih, w_hh]))
    return out


def _resample_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        x1, x2, x3 = torch.randn(2, 3, 5, dtype=d), torch.randn(1, 2, 4, 5, dtype=d), torch.randn(1, 2, 3, 4, 3, dtype=d)
        x2t = torch.randn(1, 2, 5, 4, dtype=d).transpose(2, 3)
        for ac in (False, True):
            tt = f"{t} align_corners={ac}"
            out.append(make_case("upsample_linear1d", tt, A.upsample_linear1d, [x1, [8], ac], k=8))
            out.append(make_case("upsample_linear1d", tt + " down", A.upsample_linear1d, [x1, [3], ac], k=8))
            out.append(make_case("upsample_bicubic2d", tt, A.upsample_bicubic2d, [x2, [7, 9], ac], k=16))
            out.append(make_case("upsample_bicubic2d", tt + " transposed", A.upsample_bicubic2d, [x2t, [6, 3], ac],
                                 k=16))
            out.append(make_case("upsample_trilinear3d", tt, A.upsample_trilinear3d, [x3, [5, 6, 4], ac], k=8))
        out.append(make_case("upsample_linear1d", t + " scale", A.upsample_linear1d, [x1, [8], False, 1.7], k=8))
        out.append(make_case("upsample_linear1d.vec", t, A.upsample_linear1d.vec, [x1, None, False, [1.5]], k=8))
        out.append(make_case("upsample_bicubic2d.vec", t, A.upsample_bicubic2d.vec, [x2, None, False, [2.0, 1.5]],
                             k=16))
        out.append(make_case("upsample_trilinear3d.vec", t, A.upsample_trilinear3d.vec,
                             [x3, [4, 4, 4], True, None], k=8))
        out.append(make_case("upsample_linear1d", t + " 4-d input", A.upsample_linear1d, [x2, [8], False]))
        out.append(make_case("upsample_bicubic2d", t + " empty batch", A.upsample_bicubic2d,
                             [torch.randn(0, 2, 3, 3, dtype=d), [5, 5], False]))
        # max unpooling of a max pool's own indices
        p2, i2 = torch.nn.functional.max_pool2d(torch.randn(2, 3, 6, 7, dtype=d), 2, return_indices=True)
        out.append(make_case("max_unpool2d", t, A.max_unpool2d, [p2, i2, [6, 7]]))
        out.append(make_case("max_unpool2d", t + " unbatched", A.max_unpool2d, [p2[0], i2[0], [6, 7]]))
        out.append(make_case("max_unpool2d", t + " bad index", A.max_unpool2d, [p2, i2 + 100, [6, 7]]))
        out.append(make_case("max_unpool2d", t + " bad indices shape", A.max_unpool2d, [p2, i2[:1], [6, 7]]))
        p3, i3 = torch.nn.functional.max_pool3d(torch.randn(1, 2, 4, 4, 6, dtype=d), 2, return_indices=True)
        out.append(make_case("max_unpool3d", t, A.max_unpool3d, [p3, i3, [4, 4, 6], [2, 2, 2], [0, 0, 0]]))
        for ac in (False, True):
            out.append(make_case("affine_grid_generator", f"{t} 2-d {ac}", A.affine_grid_generator,
                                 [torch.randn(2, 2, 3, dtype=d), [2, 1, 3, 4], ac], k=8))
            out.append(make_case("affine_grid_generator", f"{t} 3-d {ac}", A.affine_grid_generator,
                                 [torch.randn(1, 3, 4, dtype=d), [1, 2, 2, 3, 4], ac], k=8))
        out.append(make_case("affine_grid_generator", f"{t} size 1", A.affine_grid_generator,
                             [torch.randn(1, 2, 3, dtype=d), [1, 1, 1, 4], False], k=8))
        out.append(make_case("affine_grid_generator", f"{t} bad theta", A.affine_grid_generator,
                             [torch.randn(2, 3, 3, dtype=d), [2, 1, 3, 4], False]))
    return out


def _sequence_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        for name, gates in (("lstm", 4), ("gru", 3), ("rnn_tanh", 1), ("rnn_relu", 1)):
            fn = getattr(A, name).input
            for layers, bidir, bias, bf in ((1, False, True, False), (2, True, True, False), (2, False, False, True)):
                dirs = 2 if bidir else 1
                params = []
                for layer in range(layers):
                    for _ in range(dirs):
                        insz = 3 if layer == 0 else 4 * dirs
                        params += [torch.randn(gates * 4, insz, dtype=d) * 0.4, torch.randn(gates * 4, 4, dtype=d) * 0.4]
                        if bias:
                            params += [torch.randn(gates * 4, dtype=d) * 0.3, torch.randn(gates * 4, dtype=d) * 0.3]
                x = torch.randn(2, 5, 3, dtype=d) if bf else torch.randn(5, 2, 3, dtype=d)
                h0 = torch.randn(layers * dirs, 2, 4, dtype=d)
                hx = [h0, torch.randn(layers * dirs, 2, 4, dtype=d)] if name == "lstm" else h0
                lab = f"{t} layers={layers} bidirectional={bidir} bias={bias} batch_first={bf}"
                out.append(make_case(name, lab, fn, [x, hx, params, bias, layers, 0.0, False, bidir, bf], k=16))
            bad = [torch.randn(gates * 4, 3, dtype=d), torch.randn(gates * 4, 4, dtype=d)]
            h0 = torch.randn(1, 2, 4, dtype=d)
            hx = [h0, h0] if name == "lstm" else h0
            out.append(make_case(name, f"{t} missing params", fn, [torch.randn(5, 2, 3, dtype=d), hx, bad[:1], False, 1,
                                                                    0.0, False, False, False]))
            out.append(make_case(name, f"{t} bad hidden", fn, [torch.randn(5, 2, 3, dtype=d),
                                                                [h0[:, :1], h0] if name == "lstm" else h0[:, :1],
                                                                bad, False, 1, 0.0, False, False, False]))
    return out


def _grid_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        x = torch.randn(2, 3, 5, 6, dtype=d)
        g = torch.rand(2, 4, 3, 2, dtype=d) * 2.4 - 1.2  # some points outside [-1, 1]
        for mode in (0, 1, 2):
            for pad in (0, 1, 2):
                for ac in (False, True):
                    out.append(make_case("grid_sampler_2d", f"{t} mode={mode} padding={pad} align={ac}",
                                         A.grid_sampler_2d, [x, g, mode, pad, ac], k=16))
        x3 = torch.randn(1, 2, 3, 4, 5, dtype=d)
        g3 = torch.rand(1, 2, 3, 2, 3, dtype=d) * 2.4 - 1.2
        for mode in (0, 1):
            for pad in (0, 1, 2):
                out.append(make_case("grid_sampler_3d", f"{t} mode={mode} padding={pad}", A.grid_sampler_3d,
                                     [x3, g3, mode, pad, False], k=16))
        out.append(make_case("grid_sampler", f"{t} 4-d", A.grid_sampler, [x, g, 0, 1, True], k=16))
        out.append(make_case("grid_sampler", f"{t} 5-d", A.grid_sampler, [x3, g3, 0, 0, False], k=16))
        out.append(make_case("grid_sampler_2d", f"{t} transposed input", A.grid_sampler_2d,
                             [torch.randn(2, 3, 6, 5, dtype=d).transpose(2, 3), g, 0, 0, False], k=16))
        out.append(make_case("grid_sampler_2d", f"{t} batch mismatch", A.grid_sampler_2d, [x, g[:1], 0, 0, False]))
        out.append(make_case("grid_sampler_3d", f"{t} bicubic", A.grid_sampler_3d, [x3, g3, 2, 0, False]))
    return out


def _fractional_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        x = torch.randn(2, 3, 7, 8, dtype=d)
        s = torch.rand(2, 3, 2, dtype=d)
        for k, o in (([2, 2], [3, 4]), ([3, 2], [4, 5]), ([2, 3], [1, 1]), ([1, 1], [7, 8])):
            out.append(make_case("fractional_max_pool2d", f"{t} k={k} out={o}", A.fractional_max_pool2d, [x, k, o, s]))
        out.append(make_case("fractional_max_pool2d", f"{t} unbatched", A.fractional_max_pool2d,
                             [x[0], [2, 2], [3, 3], s[:1]]))
        out.append(make_case("fractional_max_pool2d", f"{t} too large", A.fractional_max_pool2d, [x, [3, 3], [6, 6], s]))
        x3 = torch.randn(1, 2, 5, 6, 7, dtype=d)
        s3 = torch.rand(1, 2, 3, dtype=d)
        out.append(make_case("fractional_max_pool3d", t, A.fractional_max_pool3d, [x3, [2, 2, 3], [3, 4, 4], s3]))
        # (PyTorch 1.13 reads random_samples of too few planes out of bounds; brasa checks the shape)
        out.append(make_case("fractional_max_pool3d", f"{t} too large", A.fractional_max_pool3d,
                             [x3, [2, 2, 3], [5, 4, 4], s3]))
    return out


def cases():
    return _conv_cases() + _rnn_cases() + _resample_cases() + _sequence_cases() + _grid_cases() + _fractional_cases()
