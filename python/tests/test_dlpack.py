"""DLPack both ways with torch 1.13 and NumPy: zero-copy (writes show through), dtypes and
shapes kept, non-contiguous views, lifetimes (the producer's memory outlives the capsule)."""
import gc

import numpy as np
import pytest
import torch

import brasa


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "uint8"])  # torch 1.13 exports no bool
def test_torch_to_brasa_and_back(dtype):
    t = torch.arange(12).reshape(3, 4).to(getattr(torch, dtype))
    b = brasa.from_dlpack(t)
    assert b.tolist() == t.tolist() and str(b.dtype).split(".")[1] == dtype
    back = torch.from_dlpack(b)
    assert back.tolist() == t.tolist() and back.dtype == t.dtype
    assert back.data_ptr() == t.data_ptr()


def test_zero_copy_both_ways_and_views():
    t = torch.zeros(4, 5)
    b = brasa.from_dlpack(t[:, 1::2])  # a strided view
    assert b.shape == (4, 2) and not b.is_contiguous()
    b.fill_(7)
    assert t[:, 1].tolist() == [7.0] * 4 and t[:, 0].tolist() == [0.0] * 4
    x = brasa.zeros(3)
    tx = torch.from_dlpack(x)
    tx += 2
    assert x.tolist() == [2.0, 2.0, 2.0]


def test_numpy_both_ways():
    a = np.arange(6.0).reshape(2, 3)
    b = brasa.from_dlpack(a)
    b[0, 0] = 9
    assert a[0, 0] == 9
    x = brasa.arange(4)
    n = np.from_dlpack(x)
    assert n.tolist() == [0, 1, 2, 3] and n.dtype == np.int64
    x.add_(1)
    assert n.tolist() == [1, 2, 3, 4]


def test_lifetimes():
    a = np.ones(1000)
    b = brasa.from_dlpack(a)
    del a
    gc.collect()
    assert b.sum().item() == 1000  # the array lives as long as the tensor
    x = brasa.arange(5.0)
    t = torch.from_dlpack(x)
    del x
    gc.collect()
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    cap = brasa.ones(2).__dlpack__()
    del cap  # never consumed: the capsule releases the tensor
    cap = torch.ones(2).__dlpack__()
    assert brasa.from_dlpack(cap).tolist() == [1.0, 1.0]
    with pytest.raises(TypeError):
        brasa.from_dlpack(cap)  # a capsule is consumed once
    assert brasa.ones(1).__dlpack_device__() == (1, 0)
