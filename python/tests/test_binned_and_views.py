"""Tensor.view(dtype), out= of composites, addcdiv/addcmul, stft, histograms, segment_reduce,
index_reduce and the functionals with Python callables, against torch 1.13 (the conformance cases
cover values and gradients; these check the Python-level behaviour: aliasing, named tuples,
keywords, errors)."""
import numpy as np
import pytest
import torch

import brasa
import brasa.nn as bnn
import brasa.nn.functional as BF


def both(data, dtype="float32"):
    return (brasa.tensor(data, dtype=getattr(brasa, dtype)),
            torch.tensor(data, dtype=getattr(torch, dtype)))


def same(b, t):
    assert tuple(b.shape) == tuple(t.shape)
    assert tuple(b.stride()) == tuple(t.stride())
    np.testing.assert_array_equal(b.numpy(), t.numpy())


def test_view_dtype_reinterprets_and_aliases():
    b, t = both([[1.0, -2.0, 0.5, 3.0], [4.0, 5.0, 6.0, 7.0]])
    for name in ("int32", "int16", "uint8", "float64"):
        same(b.view(getattr(brasa, name)), t.view(getattr(torch, name)))
    v = b.view(brasa.int32)
    v[0, 0] = 0  # writes through to the float tensor's bytes
    assert b[0, 0].item() == 0.0
    assert b.view(dtype=brasa.float32).shape == (2, 4)
    assert not brasa.ones(2, requires_grad=True).view(brasa.float32).requires_grad


def test_view_dtype_errors_name_the_rule():
    b = brasa.ones(2, 4)
    with pytest.raises(RuntimeError, match=r"stride\(-1\) must be 1"):
        b[:, ::2].view(brasa.float64)
    with pytest.raises(RuntimeError, match=r"dim\(\) cannot be 0"):
        brasa.tensor(1.0).view(brasa.float64)
    with pytest.raises(RuntimeError, match=r"size\(-1\) must be divisible by 2"):
        b[:, 1:].view(brasa.float64)


def test_out_of_composites_writes_into_out():
    b, t = both([[0.2, 0.4], [0.6, 0.8]], "float64")
    bo, to = brasa.empty(0, dtype=brasa.float64), torch.empty(0, dtype=torch.float64)
    brasa.logit(b, out=bo)
    torch.logit(t, out=to)
    np.testing.assert_allclose(bo.numpy(), to.numpy())
    values, indices = brasa.empty(0), brasa.empty(0, dtype=brasa.int64)
    r = brasa.median(b.float(), 1, out=(values, indices))
    assert r.values is values and r.indices is indices
    assert values.tolist() == torch.median(t.float(), 1).values.tolist()
    r = brasa.kthvalue(b.float(), 2, 0, out=(values, indices))
    assert r.indices.tolist() == [1, 1]


def test_addcdiv_addcmul_functions_methods_inplace():
    (a, ta), (x, tx), (y, ty) = both([1.0, 2.0]), both([3.0, 4.0]), both([2.0, 8.0])
    np.testing.assert_allclose(brasa.addcdiv(a, x, y, value=2).numpy(),
                               torch.addcdiv(ta, tx, ty, value=2).numpy())
    np.testing.assert_allclose(a.addcmul(x, y).numpy(), ta.addcmul(tx, ty).numpy())
    a.addcmul_(x, y, value=0.5)
    ta.addcmul_(tx, ty, value=0.5)
    np.testing.assert_allclose(a.numpy(), ta.numpy())


def test_histograms_named_tuples():
    x, tx = both([[0.1, 0.2], [0.5, 0.9], [0.7, 0.3]])
    r, tr = brasa.histogramdd(x, [2, 3]), torch.histogramdd(tx, [2, 3])
    np.testing.assert_allclose(r.hist.numpy(), tr.hist.numpy())
    assert isinstance(r.bin_edges, tuple) and len(r.bin_edges) == 2
    r, tr = brasa.histogram(x.flatten(), 4, range=[0.0, 1.0]), torch.histogram(tx.flatten(), 4,
                                                                               range=[0.0, 1.0])
    np.testing.assert_allclose(r.hist.numpy(), tr.hist.numpy())
    np.testing.assert_allclose(r.bin_edges.numpy(), tr.bin_edges.numpy())


def test_stft_segment_and_index_reduce():
    sig = np.sin(np.arange(32, dtype=np.float32))
    b, t = brasa.tensor(sig), torch.tensor(sig)
    s = b.stft(8, hop_length=4, window=brasa.hann_window(8), return_complex=True)
    ts = t.stft(8, hop_length=4, window=torch.hann_window(8), return_complex=True)
    np.testing.assert_allclose(s.abs().numpy(), ts.abs().numpy(), atol=1e-5)
    data, tdata = both([1.0, 2.0, 3.0, 4.0, 5.0])
    lengths = brasa.tensor([2, 3])
    np.testing.assert_allclose(
        brasa.segment_reduce(data, "max", lengths=lengths).numpy(),
        torch.segment_reduce(tdata, "max", lengths=torch.tensor([2, 3])).numpy())
    base, tbase = both([[1.0, 2.0], [3.0, 4.0]])
    src, tsrc = both([[2.0, 2.0], [5.0, 0.5], [3.0, 3.0]])
    idx = [0, 1, 0]
    got = base.index_reduce(0, brasa.tensor(idx), src, "prod", include_self=False)
    want = tbase.index_reduce(0, torch.tensor(idx), tsrc, "prod", include_self=False)
    np.testing.assert_allclose(got.numpy(), want.numpy())
    base.index_reduce_(0, brasa.tensor(idx), src, "amax")
    tbase.index_reduce_(0, torch.tensor(idx), tsrc, "amax")
    np.testing.assert_allclose(base.numpy(), tbase.numpy())


def test_triplet_margin_with_python_distance():
    calls = []

    def l1(x, y):
        calls.append(1)
        return (x - y).abs().sum(-1)
    a, p, n = (brasa.tensor(v) for v in ([[0.0, 1.0]], [[0.5, 1.0]], [[2.0, 0.0]]))
    loss = bnn.TripletMarginWithDistanceLoss(distance_function=l1, margin=1.0, swap=True)
    assert loss(a, p, n).item() == pytest.approx(0.0) and len(calls) == 3
    with pytest.raises(ValueError, match="margin"):
        bnn.TripletMarginWithDistanceLoss(margin=0.0)


def test_multi_head_attention_forward_checks_embed_dim():
    q = brasa.ones(2, 1, 4)
    w, wo = brasa.ones(12, 4), brasa.ones(4, 4)
    out, weights = BF.multi_head_attention_forward(q, q, q, 4, 2, w, None, None, None, False,
                                                   0.0, wo, None)
    assert out.shape == (2, 1, 4) and weights.shape == (1, 2, 2)
    with pytest.raises(RuntimeError, match="embedding dimension of 8"):
        BF.multi_head_attention_forward(q, q, q, 8, 2, w, None, None, None, False, 0.0, wo, None)


def test_more_torch_functions_named_tuples_and_overloads():
    a = [[2.0, 0.0], [1.0, 3.0]]
    (ba, ta), (bb, tb) = both(a), both([[1.0], [2.0]])
    r, tr = brasa.triangular_solve(bb, ba, upper=False), torch.triangular_solve(tb, ta, upper=False)
    np.testing.assert_allclose(r.solution.numpy(), tr.solution.numpy(), rtol=1e-6)
    x, tx = both([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]])
    for kw in ({"dim": 1, "correction": 2}, {"unbiased": False}, {}):
        for name in ("var_mean", "std_mean"):
            got, want = getattr(brasa, name)(x, **kw), getattr(torch, name)(tx, **kw)
            for g, w in zip(got, want):
                np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-6)
    assert brasa.tril_indices(3, 3).tolist() == torch.tril_indices(3, 3).tolist()
    assert brasa.triu_indices(3, 3, 1, dtype=brasa.int32).dtype == brasa.int32
    assert brasa.triu_indices(3, 3, 1).tolist() == torch.triu_indices(3, 3, 1).tolist()
    np.testing.assert_allclose(x.polygamma(1).numpy(), tx.polygamma(1).numpy(), rtol=1e-5)
    g, tg = brasa.gradient(x, spacing=2.0, dim=1), torch.gradient(tx, spacing=2.0, dim=1)
    assert isinstance(g, tuple) and len(g) == 1
    np.testing.assert_allclose(g[0].numpy(), tg[0].numpy())


def test_lu_unpack_range_unsafe_splits():
    a, ta = both([[4.0, 3.0], [6.0, 3.0]])
    lu, piv = brasa.linalg.lu_factor(a)
    r, tr = brasa.lu_unpack(lu, piv), torch.lu_unpack(*torch.linalg.lu_factor(ta))
    for name in ("P", "L", "U"):
        np.testing.assert_allclose(getattr(r, name).numpy(), getattr(tr, name).numpy(), rtol=1e-6)
    assert brasa.range(0, 1, 0.25).tolist() == torch.range(0, 1, 0.25).tolist()
    assert brasa.range(0, 4, dtype=brasa.int64).dtype == brasa.int64
    parts = brasa.unsafe_split(brasa.arange(5), 2)
    assert isinstance(parts, tuple) and [p.tolist() for p in parts] == [[0, 1], [2, 3], [4]]


def test_svd_qr_unique_bucketize_mT_unflatten():
    x, tx = both([[3.0, 1.0], [1.0, 2.0], [0.0, 1.0]])
    u, s, v = brasa.svd(x)  # was a nanobind conversion error (no tuple caster in the file)
    np.testing.assert_allclose(s.numpy(), torch.svd(tx).S.numpy(), rtol=1e-5)
    q, r = brasa.qr(x, some=False)
    assert q.shape == (3, 3) and r.shape == (3, 2) and brasa.qr(x).Q.shape == (3, 2)
    assert x.mT.shape == (2, 3) and x.mT.tolist() == tx.mT.tolist()
    values, counts = brasa.unique(brasa.tensor([3, 1, 3, 2]), return_counts=True)
    assert values.tolist() == [1, 2, 3] and counts.tolist() == [1, 1, 2]
    assert brasa.bucketize(brasa.tensor([0.5, 2.5]), brasa.tensor([1.0, 2.0]),
                           right=True).tolist() == [0, 2]
    assert x.flatten().unflatten(0, (2, 3)).shape == (2, 3)
    assert brasa.resolve_conj(x) is x and not x.is_conj()


def test_aten_spelled_nn_functions():
    x, tx = both([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]])
    np.testing.assert_allclose(brasa.layer_norm(x, [3]).numpy(),
                               torch.layer_norm(tx, [3]).numpy(), rtol=1e-5, atol=1e-6)
    y, ty = both([[0.5, 2.0, 3.0], [3.0, 1.0, 2.0]])
    for r in (0, 1, 2):  # reduction as aten's int
        np.testing.assert_allclose(brasa.hinge_embedding_loss(x, y.sign(), 1.5, r).numpy(),
                                   torch.hinge_embedding_loss(tx, ty.sign(), 1.5, r).numpy(),
                                   rtol=1e-6)
    assert BF._threshold is BF.threshold


def test_ops_aten_namespace():
    import brasa.ops.aten as aten
    x = brasa.arange(6.0)
    assert aten.slice(x, 0, 1, 5, 2).tolist() == [1.0, 3.0]
    assert brasa.ops.aten.gelu_backward(brasa.ones(2), x[:2]).shape == (2,)
    with pytest.raises(AttributeError, match="no op"):
        brasa.ops.aten.no_such_op
