"""brasa.Tensor against torch 1.13: factories, dtypes, printing, item/tolist, indexing, NumPy."""
import numpy as np
import pytest
import torch

import brasa


def same(b, t):
    """b (brasa) equals t (torch) in shape, dtype name and values."""
    assert tuple(b.shape) == tuple(t.shape)
    assert repr(b.dtype).split(".")[1] == str(t.dtype).split(".")[1]
    np.testing.assert_allclose(b.detach().numpy(), t.detach().numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("data", [
    1, 2.5, True, [1, 2, 3], [1.0, 2, 3], [[1, 2], [3, 4]], [True, False], [], [[1.5], [2]],
])
def test_tensor_inference(data):
    same(brasa.tensor(data), torch.tensor(data))


@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_shape_factories(name):
    for args in [(2, 3), ((2, 3),), ([4],), (0,)]:
        b, t = getattr(brasa, name)(*args), getattr(torch, name)(*args)
        assert tuple(b.shape) == tuple(t.shape) and b.dtype == brasa.float32
    b = getattr(brasa, name)(2, dtype=brasa.int32, requires_grad=False)
    assert b.dtype is brasa.int32


def test_full_arange_and_dtypes():
    same(brasa.full((2, 2), 7), torch.full((2, 2), 7))
    same(brasa.full((2,), 1.5), torch.full((2,), 1.5))
    same(brasa.arange(5), torch.arange(5))
    same(brasa.arange(1, 2, 0.25), torch.arange(1, 2, 0.25))
    same(brasa.arange(0, 10, 3, dtype=brasa.float64), torch.arange(0, 10, 3, dtype=torch.float64))
    assert brasa.zeros(1, requires_grad=True).requires_grad


def test_random_matches_torch_after_seed():
    brasa.manual_seed(0)
    torch.manual_seed(0)
    same(brasa.rand(3, 4), torch.rand(3, 4))
    same(brasa.randn(5), torch.randn(5))


@pytest.mark.parametrize("data", [
    1.0, 3, True, [1.0, 2.5, -3.0], [1, 2, 3], [[1.0, 2.0], [3.0, 4.0]], [1e-5, 1.0], [1e9, 1.0],
    [float("nan"), 1.0, float("inf")], [0.0, 0.0], [True, False], [[[1, 2], [3, 4]], [[5, 6], [7, 8]]],
    [123456.789, 0.001], list(range(30)), [0.1 * i for i in range(40)],
])
def test_repr_matches_torch(data):
    assert repr(brasa.tensor(data)) == repr(torch.tensor(data)).replace("torch.", "brasa.")


@pytest.mark.parametrize("dtype", ["int32", "float64", "int8", "uint8", "float16"])
def test_repr_dtype_suffix(dtype):
    b = brasa.tensor([1, 2, 3], dtype=getattr(brasa, dtype))
    t = torch.tensor([1, 2, 3], dtype=getattr(torch, dtype))
    assert repr(b) == repr(t).replace("torch.", "brasa.")


def test_repr_empty_summarized_and_grad():
    for shape in [(0,), (2, 0)]:
        assert repr(brasa.zeros(*shape)) == repr(torch.zeros(*shape))
    assert repr(brasa.zeros(0, dtype=brasa.int64)) == "tensor([], dtype=brasa.int64)"
    assert repr(brasa.arange(2000)) == repr(torch.arange(2000))
    big_b = brasa.arange(1200.0).reshape(30, 40)
    big_t = torch.arange(1200.0).reshape(30, 40)
    assert repr(big_b) == repr(big_t)
    x = brasa.ones(2, requires_grad=True)
    assert repr(x) == repr(torch.ones(2, requires_grad=True))
    assert repr(x * 2) == repr(torch.ones(2, requires_grad=True) * 2)


def test_item_tolist_shape():
    t = brasa.tensor([[1.5, 2.0], [3.0, 4.0]])
    assert t.tolist() == [[1.5, 2.0], [3.0, 4.0]]
    assert t[0, 1].item() == 2.0 and isinstance(t[0, 1].item(), float)
    assert brasa.tensor(3).item() == 3 and isinstance(brasa.tensor(3).item(), int)
    assert t.shape == (2, 2) and t.size(1) == 2 and t.size() == brasa.Size([2, 2])
    assert t.dim() == 2 and t.numel() == 4 and len(t) == 2
    assert float(brasa.tensor(2.5)) == 2.5 and int(brasa.tensor(7)) == 7


def indexing_cases():
    return [
        1, -1, slice(1, 3), (slice(None), 2), (None, 1), (Ellipsis, 0), (0, Ellipsis, None),
        slice(None, None, 2), (slice(1, None), slice(None, -1)), ([0, 2],), ((0, 2),),
    ]


@pytest.mark.parametrize("key", indexing_cases())
def test_getitem(key):
    b = brasa.arange(24.0).reshape(4, 6)
    t = torch.arange(24.0).reshape(4, 6)
    same(b[key], t[key])


def test_getitem_tensors():
    b = brasa.arange(12).reshape(3, 4)
    t = torch.arange(12).reshape(3, 4)
    same(b[b > 5], t[t > 5])
    same(b[brasa.tensor([2, 0])], t[torch.tensor([2, 0])])
    same(b[:, brasa.tensor([True, False, True, False])], t[:, torch.tensor([True, False, True, False])])


def test_setitem():
    b = brasa.zeros(3, 4)
    t = torch.zeros(3, 4)
    for key, value in [((0, 1), 5.0), (slice(1, 3), 2), ((Ellipsis, 3), -1.0)]:
        b[key] = value
        t[key] = value
    b[b > 1] = 9.0
    t[t > 1] = 9.0
    b[2] = brasa.arange(4.0)
    t[2] = torch.arange(4.0)
    same(b, t)


def test_numpy_zero_copy_both_ways():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = brasa.from_numpy(a)
    a[0, 0] = 42
    assert b[0, 0].item() == 42
    back = b.numpy()
    back[1, 2] = -1
    assert a[1, 2] == -1 and np.shares_memory(a, back)
    assert np.asarray(b).dtype == np.float32
    assert brasa.from_numpy(np.arange(3)).dtype is brasa.int64
    with pytest.raises(RuntimeError):
        brasa.ones(1, requires_grad=True).numpy()


def test_numpy_keeps_tensor_alive():
    a = brasa.arange(5.0).numpy()
    del_brasa = a.base  # the tensor is the array's base
    assert del_brasa is not None
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_dtype_objects():
    assert brasa.float32 is brasa.float and brasa.int64 is brasa.long
    assert repr(brasa.float64) == "brasa.float64"
    assert brasa.tensor([1.0]).dtype is brasa.float32
    assert brasa.ones(2).to(brasa.int32).dtype is brasa.int32
    assert brasa.ones(2).long().dtype is brasa.int64


def test_row_gather_by_integer_tensor_matches_torch():
    """x[idx] with a 1-D Long tensor (index_select's fast path, negative indices included)."""
    data = np.arange(24, dtype=np.float32).reshape(6, 2, 2)
    xb, xt = brasa.from_numpy(data.copy()), torch.from_numpy(data.copy())
    for idx in ([3, 0, 3], [-1, 2], [5, -6], []):
        got, want = xb[brasa.tensor(idx, dtype=brasa.int64)], xt[torch.tensor(idx, dtype=torch.int64)]
        assert got.tolist() == want.tolist() and got.shape == want.shape
    yb = brasa.ones(5, requires_grad=True)
    yb[brasa.tensor([0, 0, 3])].sum().backward()
    assert yb.grad.tolist() == [2.0, 0.0, 0.0, 1.0, 0.0]
    with pytest.raises(IndexError):
        xb[brasa.tensor([6])]
