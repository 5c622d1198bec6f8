"""torch.nn.functional's lookups, distances, sampling grids and attention (op names `nn.<name>`):
one_hot, embedding, embedding_bag, pdist, affine_grid, grid_sample and
multi_head_attention_forward, replayed through brasa's F:: option structs (ops_nnfuncx.cpp).
gumbel_softmax is random and is compared draw for draw in tests/nn/test_functional_extra.cpp.
Also the at:: functions added with them: frobenius_norm, nuclear_norm, norm_except_dim and
flatten_dense_tensors / unflatten_dense_tensors."""

import torch
import torch.nn.functional as F

from common import SHORT, make_case

REAL = [torch.float32, torch.float64]


def _one_hot_cases():
    out = []
    t = torch.tensor([[0, 3, 1], [2, 2, 4]])
    for k in (-1, 5, 7):
        out.append(make_case("nn.one_hot", f"2-d classes={k}", F.one_hot, [t, k]))
    out.append(make_case("nn.one_hot", "transposed", F.one_hot, [t.t(), 6]))
    out.append(make_case("nn.one_hot", "0-d", F.one_hot, [torch.tensor(3), 4]))
    out.append(make_case("nn.one_hot", "empty classes=3", F.one_hot, [torch.zeros(0, 2, dtype=torch.long), 3]))
    out.append(make_case("nn.one_hot", "empty classes=-1", F.one_hot, [torch.zeros(0, dtype=torch.long), -1]))
    out.append(make_case("nn.one_hot", "negative class", F.one_hot, [torch.tensor([1, -1]), 3]))
    out.append(make_case("nn.one_hot", "class too large", F.one_hot, [torch.tensor([1, 3]), 3]))
    out.append(make_case("nn.one_hot", "float input", F.one_hot, [torch.tensor([1.0]), 3]))
    return out


def _embedding_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        w = torch.randn(10, 4, dtype=d)
        wt = torch.randn(4, 10, dtype=d).t()
        idx = torch.tensor([[1, 2, 4], [4, 3, 9]])
        out.append(make_case("nn.embedding", f"{t} 2-d", F.embedding, [idx, w]))
        out.append(make_case("nn.embedding", f"{t} transposed weight and indices", F.embedding, [idx.t(), wt]))
        out.append(make_case("nn.embedding", f"{t} 0-d index", F.embedding, [torch.tensor(7), w]))
        out.append(make_case("nn.embedding", f"{t} empty", F.embedding, [torch.zeros(0, 3, dtype=torch.long), w]))
        out.append(make_case("nn.embedding", f"{t} int32 indices", F.embedding, [idx.int(), w]))
        for p in (2, -1, -10):
            out.append(make_case("nn.embedding", f"{t} padding_idx={p}", F.embedding, [idx, w], {"padding_idx": p}))
        out.append(make_case("nn.embedding", f"{t} padding_idx out of range", F.embedding, [idx, w], {"padding_idx": 10}))
        out.append(make_case("nn.embedding", f"{t} padding_idx below range", F.embedding, [idx, w], {"padding_idx": -11}))
        out.append(make_case("nn.embedding", f"{t} index out of range", F.embedding, [torch.tensor([10]), w]))
        out.append(make_case("nn.embedding", f"{t} scale_grad_by_freq", F.embedding, [idx, w],
                             {"scale_grad_by_freq": True}))
        out.append(make_case("nn.embedding", f"{t} max_norm", F.embedding, [idx, w * 3],
                             {"max_norm": 1.5, "norm_type": 1.0}, grad=False))
    return out


def _embedding_bag_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        w = torch.randn(10, 3, dtype=d)
        idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
        off = torch.tensor([0, 2, 2, 5])
        for mode in ("sum", "mean", "max"):
            out.append(make_case("nn.embedding_bag", f"{t} {mode} offsets", F.embedding_bag, [idx, w, off],
                                 {"mode": mode}))
            out.append(make_case("nn.embedding_bag", f"{t} {mode} 2-d", F.embedding_bag,
                                 [idx.reshape(2, 4), w], {"mode": mode}))
            out.append(make_case("nn.embedding_bag", f"{t} {mode} include_last_offset", F.embedding_bag,
                                 [idx, w, torch.tensor([0, 3, 6, 8])], {"mode": mode, "include_last_offset": True}))
            out.append(make_case("nn.embedding_bag", f"{t} {mode} padding_idx", F.embedding_bag, [idx, w, off],
                                 {"mode": mode, "padding_idx": 4}))
        psw = torch.rand(8, dtype=d)
        out.append(make_case("nn.embedding_bag", f"{t} per_sample_weights", F.embedding_bag, [idx, w, off],
                             {"mode": "sum", "per_sample_weights": psw}))
        out.append(make_case("nn.embedding_bag", f"{t} per_sample_weights 2-d", F.embedding_bag,
                             [idx.reshape(2, 4), w], {"mode": "sum", "per_sample_weights": psw.reshape(2, 4)}))
        out.append(make_case("nn.embedding_bag", f"{t} transposed weight", F.embedding_bag,
                             [idx, torch.randn(3, 10, dtype=d).t(), off], {"mode": "mean"}))
        out.append(make_case("nn.embedding_bag", f"{t} empty input", F.embedding_bag,
                             [idx[:0], w, torch.tensor([0, 0])], {"mode": "sum"}))
        out.append(make_case("nn.embedding_bag", f"{t} per_sample_weights with mean", F.embedding_bag,
                             [idx, w, off], {"mode": "mean", "per_sample_weights": psw}))
        out.append(make_case("nn.embedding_bag", f"{t} per_sample_weights shape", F.embedding_bag,
                             [idx, w, off], {"mode": "sum", "per_sample_weights": psw[:5]}))
        out.append(make_case("nn.embedding_bag", f"{t} 2-d with offsets", F.embedding_bag,
                             [idx.reshape(2, 4), w, off], {"mode": "sum"}))
        out.append(make_case("nn.embedding_bag", f"{t} 3-d input", F.embedding_bag,
                             [idx.reshape(2, 2, 2), w], {"mode": "sum"}))
        out.append(make_case("nn.embedding_bag", f"{t} 1-d without offsets", F.embedding_bag, [idx, w],
                             {"mode": "sum"}))
        out.append(make_case("nn.embedding_bag", f"{t} offsets[0] != 0", F.embedding_bag,
                             [idx, w, torch.tensor([1, 3])], {"mode": "sum"}))
        out.append(make_case("nn.embedding_bag", f"{t} padding_idx out of range", F.embedding_bag,
                             [idx, w, off], {"mode": "sum", "padding_idx": 10}))
    return out


def _pdist_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        a = torch.randn(5, 3, dtype=d)
        for p in (2.0, 1.0, 0.0, 3.5):
            out.append(make_case("nn.pdist", f"{t} p={p}", F.pdist, [a, p], k=8))
        out.append(make_case("nn.pdist", f"{t} transposed", F.pdist, [torch.randn(3, 5, dtype=d).t()], k=8))
        out.append(make_case("nn.pdist", f"{t} one row", F.pdist, [a[:1]], k=8))
        out.append(make_case("nn.pdist", f"{t} no columns", F.pdist, [a[:, :0]], k=8))
        out.append(make_case("nn.pdist", f"{t} 1-d", F.pdist, [a[0]]))
    out.append(make_case("nn.pdist", "int64", F.pdist, [torch.arange(6).reshape(3, 2)]))
    return out


def _grid_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        for ac in (False, True):
            th2 = torch.randn(2, 2, 3, dtype=d)
            th3 = torch.randn(2, 3, 4, dtype=d)
            out.append(make_case("nn.affine_grid", f"{t} 2-d align={ac}", F.affine_grid, [th2, [2, 3, 4, 5]],
                                 {"align_corners": ac}, k=4))
            out.append(make_case("nn.affine_grid", f"{t} 3-d align={ac}", F.affine_grid,
                                 [th3, [2, 1, 3, 2, 4]], {"align_corners": ac}, k=4))
        out.append(make_case("nn.affine_grid", f"{t} transposed theta", F.affine_grid,
                             [torch.randn(2, 3, 2, dtype=d).transpose(1, 2), [2, 1, 3, 3]], {"align_corners": False}, k=4))
        out.append(make_case("nn.affine_grid", f"{t} size 1", F.affine_grid,
                             [torch.randn(1, 2, 3, dtype=d), [1, 1, 1, 1]], {"align_corners": True}, k=4))
        out.append(make_case("nn.affine_grid", f"{t} theta for 3-d, size 2-d", F.affine_grid,
                             [torch.randn(2, 3, 4, dtype=d), [2, 3, 4, 5]], {"align_corners": False}))
        out.append(make_case("nn.affine_grid", f"{t} size of 3", F.affine_grid,
                             [torch.randn(2, 2, 3, dtype=d), [2, 3, 4]], {"align_corners": False}))
        out.append(make_case("nn.affine_grid", f"{t} zero size", F.affine_grid,
                             [torch.randn(2, 2, 3, dtype=d), [2, 3, 0, 5]], {"align_corners": False}))
    out.append(make_case("nn.affine_grid", "int64 theta", F.affine_grid,
                         [torch.ones(1, 2, 3, dtype=torch.long), [1, 1, 2, 2]], {"align_corners": False}))
    for d in REAL:
        t = SHORT[d]
        x = torch.randn(2, 3, 5, 6, dtype=d)
        g = torch.rand(2, 4, 3, 2, dtype=d) * 2.4 - 1.2  # some points outside [-1, 1]
        x3 = torch.randn(1, 2, 3, 4, 5, dtype=d)
        g3 = torch.rand(1, 2, 3, 2, 3, dtype=d) * 2.4 - 1.2
        for mode in ("bilinear", "nearest"):
            for pad in ("zeros", "border", "reflection"):
                for ac in (False, True):
                    kw = {"mode": mode, "padding_mode": pad, "align_corners": ac}
                    out.append(make_case("nn.grid_sample", f"{t} 2-d {mode} {pad} align={ac}", F.grid_sample,
                                         [x, g], kw, k=16))
                    out.append(make_case("nn.grid_sample", f"{t} 3-d {mode} {pad} align={ac}", F.grid_sample,
                                         [x3, g3], kw, k=16))
        kw = {"align_corners": False}
        out.append(make_case("nn.grid_sample", f"{t} far outside reflection", F.grid_sample,
                             [x, g * 4], {"padding_mode": "reflection", "align_corners": False}, k=16))
        out.append(make_case("nn.grid_sample", f"{t} transposed input and grid", F.grid_sample,
                             [torch.randn(2, 3, 6, 5, dtype=d).transpose(2, 3),
                              (torch.rand(2, 3, 4, 2, dtype=d) * 2 - 1).transpose(1, 2)], kw, k=16))
        out.append(make_case("nn.grid_sample", f"{t} expanded grid", F.grid_sample,
                             [x, (torch.rand(1, 4, 3, 2, dtype=d) * 2 - 1).expand(2, 4, 3, 2)], kw, k=16))
        out.append(make_case("nn.grid_sample", f"{t} single pixel input", F.grid_sample,
                             [x[:, :, :1, :1], g], {"padding_mode": "reflection", "align_corners": True}, k=16))
        out.append(make_case("nn.grid_sample", f"{t} empty batch", F.grid_sample, [x[:0], g[:0]], kw))
        out.append(make_case("nn.grid_sample", f"{t} empty output", F.grid_sample, [x, g[:, :0]], kw))
        out.append(make_case("nn.grid_sample", f"{t} no channels", F.grid_sample, [x[:, :0], g], kw))
        out.append(make_case("nn.grid_sample", f"{t} batch mismatch", F.grid_sample, [x, g[:1]], kw))
        out.append(make_case("nn.grid_sample", f"{t} grid last dim 3 for 2-d", F.grid_sample,
                             [x, torch.rand(2, 4, 3, 3, dtype=d)], kw))
        out.append(make_case("nn.grid_sample", f"{t} empty spatial input", F.grid_sample, [x[:, :, :0], g], kw))
        out.append(make_case("nn.grid_sample", f"{t} 3-d input", F.grid_sample, [x[0], g[0]], kw))
    out.append(make_case("nn.grid_sample", "dtype mismatch", F.grid_sample,
                         [torch.randn(1, 1, 2, 2), torch.rand(1, 1, 1, 2, dtype=torch.float64)], {"align_corners": False}))
    out.append(make_case("nn.grid_sample", "int64 input", F.grid_sample,
                         [torch.ones(1, 1, 2, 2, dtype=torch.long), torch.zeros(1, 1, 1, 2, dtype=torch.long)],
                         {"align_corners": False}))
    return out


def _mha(q, k, v, e, h, w, b, bias_k, bias_v, zero_attn, wo, bo, **kw):
    return F.multi_head_attention_forward(q, k, v, e, h, w, b, bias_k, bias_v, zero_attn, 0.0, wo, bo, **kw)


def _mha_cases():
    out = []
    for d in REAL:
        t = SHORT[d]
        e, h, L, S, N = 8, 2, 3, 4, 2
        q, k, v = (torch.randn(L, N, e, dtype=d), torch.randn(S, N, e, dtype=d), torch.randn(S, N, e, dtype=d))
        w, b = torch.randn(3 * e, e, dtype=d) * 0.3, torch.randn(3 * e, dtype=d) * 0.1
        wo, bo = torch.randn(e, e, dtype=d) * 0.3, torch.randn(e, dtype=d) * 0.1
        base = [e, h, w, b, None, None, False, wo, bo]
        out.append(make_case("nn.multi_head_attention_forward", f"{t} plain", _mha, [q, k, v] + base, k=16))
        out.append(make_case("nn.multi_head_attention_forward", f"{t} self-attention", _mha, [q, q, q] + base, k=16))
        out.append(make_case("nn.multi_head_attention_forward", f"{t} no bias", _mha,
                             [q, k, v, e, h, w, None, None, None, False, wo, None], k=16))
        out.append(make_case("nn.multi_head_attention_forward", f"{t} need_weights=False", _mha, [q, k, v] + base,
                             {"need_weights": False}, k=16))
        out.append(make_case("nn.multi_head_attention_forward", f"{t} per-head weights", _mha, [q, k, v] + base,
                             {"average_attn_weights": False}, k=16))
        kpm = torch.tensor([[False, False, True, False], [False, True, False, False]])
        am = torch.randn(L, S, dtype=d)
        out.append(make_case("nn.multi_head_attention_forward", f"{t} masks", _mha, [q, k, v] + base,
                             {"key_padding_mask": kpm, "attn_mask": am}, k=16))
        out.append(make_case("nn.multi_head_attention_forward", f"{t} bool 3-d attn_mask", _mha, [q, k, v] + base,
                             {"attn_mask": torch.rand(N * h, L, S) > 0.7}, k=16))
        bk, bv = torch.randn(1, 1, e, dtype=d), torch.randn(1, 1, e, dtype=d)
        out.append(make_case("nn.multi_head_attention_forward", f"{t} bias_kv zero_attn masks", _mha,
                             [q, k, v, e, h, w, b, bk, bv, True, wo, bo], {"key_padding_mask": kpm, "attn_mask": am},
                             k=16))
        k5, v6 = torch.randn(S, N, 5, dtype=d), torch.randn(S, N, 6, dtype=d)
        sep = {"use_separate_proj_weight": True, "q_proj_weight": torch.randn(e, e, dtype=d) * 0.3,
               "k_proj_weight": torch.randn(e, 5, dtype=d) * 0.3, "v_proj_weight": torch.randn(e, 6, dtype=d) * 0.3}
        out.append(make_case("nn.multi_head_attention_forward", f"{t} separate projections", _mha,
                             [q, k5, v6, e, h, None, b, None, None, False, wo, bo], sep, k=16))
        sk, sv = torch.randn(N * h, 5, e // h, dtype=d), torch.randn(N * h, 5, e // h, dtype=d)
        out.append(make_case("nn.multi_head_attention_forward", f"{t} static_k static_v", _mha, [q, k, v] + base,
                             {"static_k": sk, "static_v": sv}, k=16))
        out.append(make_case("nn.multi_head_attention_forward", f"{t} unbatched", _mha,
                             [q[:, 0], k[:, 0], v[:, 0]] + base, k=16))
        out.append(make_case("nn.multi_head_attention_forward", f"{t} transposed query", _mha,
                             [torch.randn(N, L, e, dtype=d).transpose(0, 1), k, v] + base, k=16))
        out.append(make_case("nn.multi_head_attention_forward", f"{t} empty batch", _mha,
                             [q[:, :0], k[:, :0], v[:, :0]] + base, k=16))
        out.append(make_case("nn.multi_head_attention_forward", f"{t} bad attn_mask", _mha, [q, k, v] + base,
                             {"attn_mask": torch.randn(L, S + 1, dtype=d)}))
        out.append(make_case("nn.multi_head_attention_forward", f"{t} bad key_padding_mask", _mha,
                             [q, k, v] + base, {"key_padding_mask": kpm[:, :3]}))
        out.append(make_case("nn.multi_head_attention_forward", f"{t} heads do not divide", _mha,
                             [q, k, v, e, 3, w, b, None, None, False, wo, bo]))
        out.append(make_case("nn.multi_head_attention_forward", f"{t} key value lengths differ", _mha,
                             [q, k, v[:3]] + base))
    return out


def _aten_cases():
    out = []
    for d in REAL + [torch.complex128]:
        t = SHORT.get(d, str(d))
        x = torch.randn(3, 4, 5, dtype=d)
        xt = torch.randn(5, 4, 3, dtype=d).transpose(0, 2)
        out.append(make_case("frobenius_norm", f"{t} all", torch.frobenius_norm, [x], k=8))
        for dims, keep in (([1], False), ([0, 2], True), ([-1, 0], False), ([], False), ([], True)):
            out.append(make_case("frobenius_norm", f"{t} dim={dims} keepdim={keep}", torch.frobenius_norm,
                                 [x, dims, keep], k=8))
        out.append(make_case("frobenius_norm", f"{t} transposed", torch.frobenius_norm, [xt, [1, 2]], k=8))
        out.append(make_case("frobenius_norm", f"{t} 0-d", torch.frobenius_norm, [x[0, 0, 0]], k=8))
        out.append(make_case("frobenius_norm", f"{t} empty", torch.frobenius_norm, [x[:0], [1]], k=8))
        out.append(make_case("frobenius_norm", f"{t} 3 dims", torch.frobenius_norm, [x, [0, 1, 2]]))
        if d.is_complex:
            continue
        out.append(make_case("nuclear_norm", f"{t} 2-d", torch.nuclear_norm, [x[0]], k=16))
        out.append(make_case("nuclear_norm", f"{t} 2-d keepdim", torch.nuclear_norm, [x[0], True], k=16))
        out.append(make_case("nuclear_norm", f"{t} dims", torch.nuclear_norm, [x, [0, 2]], k=16))
        out.append(make_case("nuclear_norm", f"{t} transposed dims keepdim", torch.nuclear_norm, [xt, [2, 1], True],
                             k=16))
        out.append(make_case("nuclear_norm", f"{t} 3-d without dims", torch.nuclear_norm, [x]))
        out.append(make_case("nuclear_norm", f"{t} one dim", torch.nuclear_norm, [x, [1]]))
        for pw, dim in ((2, 0), (2, 1), (3, 2), (1, -1), (2, -2)):
            out.append(make_case("norm_except_dim", f"{t} pow={pw} dim={dim}", torch.norm_except_dim, [x, pw, dim],
                                 k=8))
        out.append(make_case("norm_except_dim", f"{t} transposed", torch.norm_except_dim, [xt, 2, 0], k=8))
        out.append(make_case("norm_except_dim", f"{t} 1-d", torch.norm_except_dim, [x[0, 0], 2, 0], k=8))
        a, b = torch.randn(2, 3, dtype=d), torch.randn(4, dtype=d)
        out.append(make_case("flatten_dense_tensors", f"{t} two", torch._C._nn.flatten_dense_tensors,
                             [[a, b]]))
        out.append(make_case("flatten_dense_tensors", f"{t} transposed", torch._C._nn.flatten_dense_tensors,
                             [[a.t(), b[:0], torch.tensor(2.0, dtype=d)]]))
        out.append(make_case("unflatten_dense_tensors", f"{t} two", torch._C._nn.unflatten_dense_tensors,
                             [torch.randn(10, dtype=d), [a, b]]))
    return out


def cases():
    return (_one_hot_cases() + _embedding_cases() + _embedding_bag_cases() + _pdist_cases() + _grid_cases()
            + _mha_cases() + _aten_cases())
