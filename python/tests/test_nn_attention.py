"""MultiheadAttention and the Transformer layers against torch 1.13: parameter names, seeded
initialisation, outputs and gradients, with masks, in eval mode (no dropout)."""
import numpy as np
import pytest
import torch

import brasa
import brasa.nn as nn
from nn_support import assert_close, copy_state

R = np.random.RandomState(0)


def pair(spec):
    return eval("nn." + spec), eval("torch.nn." + spec)


@pytest.mark.parametrize("spec", [
    "MultiheadAttention(8, 2)", "MultiheadAttention(8, 4, batch_first=True)",
    "MultiheadAttention(8, 2, kdim=5, vdim=3)", "MultiheadAttention(8, 2, add_bias_kv=True)",
    "MultiheadAttention(8, 2, bias=False, add_zero_attn=True)"])
@pytest.mark.parametrize("masks", [False, True])
def test_multihead_attention_matches_torch(spec, masks):
    bm, tm = pair(spec)
    assert repr(bm) == repr(tm)
    assert [n for n, _ in bm.named_parameters()] == [n for n, _ in tm.named_parameters()]
    copy_state(bm, tm)
    bm.eval()
    tm.eval()
    q = R.randn(4, 2, 8).astype(np.float32)
    k = R.randn(6, 2, bm.kdim).astype(np.float32)
    v = R.randn(6, 2, bm.vdim).astype(np.float32)
    kw_b, kw_t = {}, {}
    if masks:
        am = np.triu(np.ones((4, 6), dtype=bool), 3)
        kpm = np.zeros((2, 6), dtype=bool)
        kpm[1, 5] = True
        kw_b = dict(attn_mask=brasa.from_numpy(am), key_padding_mask=brasa.from_numpy(kpm))
        kw_t = dict(attn_mask=torch.from_numpy(am), key_padding_mask=torch.from_numpy(kpm))
    if bm.batch_first:
        q, k, v = (a.transpose(1, 0, 2) for a in (q, k, v))
    ins_b = [brasa.from_numpy(a.copy()).requires_grad_() for a in (q, k, v)]
    ins_t = [torch.from_numpy(a.copy()).requires_grad_() for a in (q, k, v)]
    ob, wb = bm(*ins_b, **kw_b)
    ot, wt = tm(*ins_t, **kw_t)
    assert_close(ob, ot)
    assert_close(wb, wt)
    (ob.sum() + wb.sum()).backward()
    (ot.sum() + wt.sum()).backward()
    for a, b in zip(ins_b, ins_t):
        assert_close(a.grad, b.grad, rtol=1e-4, atol=1e-5)
    for pb, pt in zip(bm.parameters(), tm.parameters()):
        assert_close(pb.grad, pt.grad, rtol=1e-4, atol=1e-5)


def test_seeded_initialisation_matches_torch():
    brasa.manual_seed(3)
    torch.manual_seed(3)
    bm, tm = pair("TransformerEncoderLayer(8, 2, dim_feedforward=16)")
    for (n, pb), pt in zip(bm.named_parameters(), tm.parameters()):
        assert_close(pb, pt, rtol=0, atol=0)


@pytest.mark.parametrize("spec", [
    "TransformerEncoderLayer(8, 2, dim_feedforward=16)",
    "TransformerEncoderLayer(8, 2, 16, activation='gelu', batch_first=True, norm_first=True)",
    "TransformerEncoder(torch.nn.TransformerEncoderLayer(8, 2, 16), 2)"])
def test_encoder_matches_torch(spec):
    b = eval("nn." + spec.replace("torch.nn.", "nn."))
    t = eval("torch.nn." + spec)
    assert repr(b) == repr(t)
    copy_state(b, t)
    b.eval()
    t.eval()
    x = R.randn(5, 3, 8).astype(np.float32)
    if "batch_first" in spec:
        x = x.transpose(1, 0, 2).copy()
    mask = torch.nn.Transformer.generate_square_subsequent_mask(5)
    mb = nn.Transformer.generate_square_subsequent_mask(5)
    assert mb.tolist() == mask.tolist()
    assert_close(b(brasa.from_numpy(x), mb), t(torch.from_numpy(x), mask))


def test_transformer_matches_torch():
    b = nn.Transformer(8, 2, 1, 1, 16)
    t = torch.nn.Transformer(8, 2, 1, 1, 16)
    assert repr(b) == repr(t)
    assert [n for n, _ in b.named_parameters()] == [n for n, _ in t.named_parameters()]
    copy_state(b, t)
    b.eval()
    t.eval()
    src, tgt = R.randn(5, 2, 8).astype(np.float32), R.randn(4, 2, 8).astype(np.float32)
    tm = torch.nn.Transformer.generate_square_subsequent_mask(4)
    out_b = b(brasa.from_numpy(src), brasa.from_numpy(tgt),
              tgt_mask=nn.Transformer.generate_square_subsequent_mask(4))
    out_t = t(torch.from_numpy(src), torch.from_numpy(tgt), tgt_mask=tm)
    assert_close(out_b, out_t, rtol=1e-4, atol=1e-5)
