"""Attention and pairwise products: sdpa (scaled_dot_product_attention; PyTorch 1.13 has none, so the
reference is its defining formula softmax(q @ k^T * scale + mask) @ v), its gradients (`sdpa_grad`:
autograd of the formula), nn.bilinear and cdist. Dropout is random: tested by property in
tests/nn/test_attention.cpp."""

import math

import torch
import torch.nn.functional as F

from common import SHORT, make_case

MODES = ["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"]


def sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None):
    if is_causal and attn_mask is not None:
        raise RuntimeError("Explicit attn_mask should not be set when is_causal=True")
    if q.dim() < 2 or k.dim() < 2 or v.dim() < 2:
        raise RuntimeError("expected query, key and value of at least 2 dims")
    if k.shape[-2] != v.shape[-2]:
        raise RuntimeError("key and value differ in their sequence dim")
    s = scale if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    attn = (q @ k.transpose(-2, -1)) * s
    L, S = q.shape[-2], k.shape[-2]
    if is_causal:
        attn = attn.masked_fill(~torch.ones(L, S, dtype=torch.bool).tril(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            attn = attn.masked_fill(~attn_mask, float("-inf"))
        else:
            attn = attn + attn_mask
    return torch.softmax(attn, -1) @ v


def sdpa_grad(q, k, v, g, attn_mask=None, is_causal=False, scale=None):
    q, k, v = (t.detach().clone().requires_grad_() for t in (q, k, v))
    sdpa(q, k, v, attn_mask=attn_mask, is_causal=is_causal, scale=scale).backward(g)
    return q.grad, k.grad, v.grad


def rnd(shape, d, layout="contiguous"):
    if layout == "transposed":
        return torch.randn(*shape[:-2], shape[-1], shape[-2], dtype=torch.float64).transpose(-1, -2).to(d)
    if layout == "permuted" and len(shape) == 4:  # [B, L, H, E] viewed as [B, H, L, E]
        return torch.randn(shape[0], shape[2], shape[1], shape[3], dtype=torch.float64).to(d).transpose(1, 2)
    return torch.randn(*shape, dtype=torch.float64).to(d)


def _sdpa_cases():
    out = []
    for d in (torch.float32, torch.float64, torch.bfloat16):
        t = SHORT[d]
        geoms = [((2, 3, 5, 8), (2, 3, 7, 8), (2, 3, 7, 6), "L!=S Ev!=E"),
                 ((2, 70, 16), (2, 130, 16), (2, 130, 16), "multi-tile"),
                 ((4, 3), (5, 3), (5, 2), "2-D"),
                 ((2, 1, 4, 8), (3, 6, 8), (1, 6, 8), "batch broadcast")]
        for qs, ks, vs, lab in geoms:
            for lay in ("contiguous", "transposed", "permuted"):
                q, k, v = rnd(qs, d, lay), rnd(ks, d, lay), rnd(vs, d, lay)
                out.append(make_case("sdpa", f"{t} {lab} {lay}", sdpa, [q, k, v], {}, k=16))
            q, k, v = rnd(qs, d), rnd(ks, d), rnd(vs, d)
            L, S = qs[-2], ks[-2]
            out.append(make_case("sdpa", f"{t} {lab} causal", sdpa, [q, k, v], {"is_causal": True}, k=16))
            out.append(make_case("sdpa", f"{t} {lab} scale", sdpa, [q, k, v], {"scale": 0.3}, k=16))
            bm = torch.rand(L, S) > 0.3
            bm[:, 0] = True
            out.append(make_case("sdpa", f"{t} {lab} bool mask", sdpa, [q, k, v], {"attn_mask": bm}, k=16))
            fm = torch.randn(L, S, dtype=torch.float64).to(d)
            out.append(make_case("sdpa", f"{t} {lab} float mask", sdpa, [q, k, v], {"attn_mask": fm}, k=16))
            out.append(make_case("sdpa", f"{t} {lab} row mask", sdpa, [q, k, v],
                                 {"attn_mask": torch.rand(1, S) > 0.5}, k=16))
    q, k, v = rnd((2, 4, 8), torch.float32), rnd((2, 6, 8), torch.float32), rnd((2, 6, 5), torch.float32)
    out.append(make_case("sdpa", "f32 empty L", sdpa, [q[:, :0], k, v], {}))
    out.append(make_case("sdpa", "f32 empty S", sdpa, [q, k[:, :0], v[:, :0]], {}))
    out.append(make_case("sdpa", "f32 empty batch", sdpa, [q[:0], k[:0], v[:0]], {}))
    out.append(make_case("sdpa", "f32 empty E", sdpa, [q[..., :0], k[..., :0], v], {"scale": 1.0}, k=4))
    out.append(make_case("sdpa", "rank 1", sdpa, [q[0, 0], k[0], v[0]], {}))
    out.append(make_case("sdpa", "E mismatch", sdpa, [q, k[..., :7], v], {}))
    out.append(make_case("sdpa", "S mismatch", sdpa, [q, k, v[:, :5]], {}))
    out.append(make_case("sdpa", "mask not broadcastable", sdpa, [q, k, v],
                         {"attn_mask": torch.ones(3, 6, dtype=torch.bool)}))
    out.append(make_case("sdpa", "causal and mask", sdpa, [q, k, v],
                         {"attn_mask": torch.ones(4, 6, dtype=torch.bool), "is_causal": True}))
    out.append(make_case("sdpa", "batch not broadcastable", sdpa, [q, rnd((3, 6, 8), torch.float32), v], {}))
    return out


def _grad_cases():
    out = []
    for d in (torch.float32, torch.float64):
        t = SHORT[d]
        for qs, ks, vs, lab in [((2, 3, 5, 8), (2, 3, 7, 8), (2, 3, 7, 6), "small"),
                                ((2, 70, 16), (2, 130, 16), (2, 130, 12), "multi-tile"),
                                ((2, 1, 4, 8), (3, 6, 8), (1, 6, 8), "batch broadcast")]:
            q, k, v = rnd(qs, d, "transposed"), rnd(ks, d), rnd(vs, d, "permuted")
            g = rnd(torch.broadcast_shapes(qs[:-2], ks[:-2], vs[:-2]) + (qs[-2], vs[-1]), d)
            L, S = qs[-2], ks[-2]
            out.append(make_case("sdpa_grad", f"{t} {lab}", sdpa_grad, [q, k, v, g], {}, k=32))
            out.append(make_case("sdpa_grad", f"{t} {lab} causal scale", sdpa_grad, [q, k, v, g],
                                 {"is_causal": True, "scale": 0.4}, k=32))
            bm = torch.rand(L, S) > 0.3
            bm[:, 0] = True
            out.append(make_case("sdpa_grad", f"{t} {lab} bool mask", sdpa_grad, [q, k, v, g],
                                 {"attn_mask": bm}, k=32))
            out.append(make_case("sdpa_grad", f"{t} {lab} float mask", sdpa_grad, [q, k, v, g],
                                 {"attn_mask": torch.randn(L, S, dtype=d)}, k=32))
    return out


def _bilinear_cases():
    out = []
    for d in (torch.float32, torch.float64):
        t = SHORT[d]
        w, b = torch.randn(6, 4, 3, dtype=d), torch.randn(6, dtype=d)
        x1, x2 = torch.randn(5, 4, dtype=d), torch.randn(5, 3, dtype=d)
        out.append(make_case("nn.bilinear", f"{t} 2-D bias", F.bilinear, [x1, x2, w, b], {}, k=8))
        out.append(make_case("nn.bilinear", f"{t} 2-D no bias", F.bilinear, [x1, x2, w], {}, k=8))
        out.append(make_case("nn.bilinear", f"{t} 3-D", F.bilinear,
                             [torch.randn(2, 5, 4, dtype=d), torch.randn(2, 5, 3, dtype=d), w, b], {}, k=8))
        out.append(make_case("nn.bilinear", f"{t} 1-D", F.bilinear, [x1[0], x2[0], w, b], {}, k=8))
        out.append(make_case("nn.bilinear", f"{t} non-contiguous", F.bilinear,
                             [torch.randn(4, 5, dtype=d).t(), torch.randn(5, 6, dtype=d)[:, ::2],
                              torch.randn(4, 6, 3, dtype=d).transpose(0, 1), b], {}, k=8))
        out.append(make_case("nn.bilinear", f"{t} empty", F.bilinear, [x1[:0], x2[:0], w, b], {}))
    w = torch.randn(6, 4, 3)
    out.append(make_case("nn.bilinear", "batch mismatch", F.bilinear, [torch.randn(2, 4), torch.randn(3, 3), w], {}))
    out.append(make_case("nn.bilinear", "in2 mismatch", F.bilinear, [torch.randn(2, 4), torch.randn(2, 2), w], {}))
    out.append(make_case("nn.bilinear", "bias mismatch", F.bilinear,
                         [torch.randn(2, 4), torch.randn(2, 3), w, torch.randn(5)], {}))
    out.append(make_case("nn.bilinear", "rank mismatch", F.bilinear, [torch.randn(5, 2, 4), torch.randn(2, 3), w], {}))
    return out


def _cdist_cases():
    out = []
    for d in (torch.float32, torch.float64):
        t = SHORT[d]
        small = (torch.randn(4, 5, dtype=d), torch.randn(6, 5, dtype=d))
        big = (torch.randn(2, 30, 7, dtype=d), torch.randn(40, 7, dtype=d).t().contiguous().t())
        for lab, (a, b) in (("small", small), ("batched big", big)):
            for p in (0.0, 1.0, 2.0, 3.0, 0.5, float("inf")):
                out.append(make_case("cdist", f"{t} {lab} p={p}", torch.cdist, [a, b], {"p": p}, k=64))
            for m in MODES:
                out.append(make_case("cdist", f"{t} {lab} {m}", torch.cdist, [a, b], {"compute_mode": m},
                                     k=64 if "donot" in m else 4096))
        out.append(make_case("cdist", f"{t} transposed", torch.cdist,
                             [torch.randn(5, 4, dtype=d).t(), torch.randn(2, 1, 6, 5, dtype=d)], {}, k=64))
        out.append(make_case("cdist", f"{t} empty rows", torch.cdist, [small[0][:0], small[1]], {}))
        out.append(make_case("cdist", f"{t} empty cols", torch.cdist, [small[0][:, :0], small[1][:, :0]], {}))
    a, b = torch.randn(3, 4), torch.randn(5, 4)
    out.append(make_case("cdist", "p<0", torch.cdist, [a, b], {"p": -1.0}))
    out.append(make_case("cdist", "cols mismatch", torch.cdist, [a, torch.randn(5, 3)], {}))
    out.append(make_case("cdist", "rank 1", torch.cdist, [a[0], b], {}))
    out.append(make_case("cdist", "int", torch.cdist, [a.int(), b.int()], {}))
    return out


def cases():
    torch.manual_seed(0)
    return _sdpa_cases() + _grad_cases() + _bilinear_cases() + _cdist_cases()
