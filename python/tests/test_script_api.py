"""What training scripts use beside the ops, against torch 1.13: torch.cuda / torch.backends
queries on a machine without CUDA, legacy tensor types and constructors, new_* methods, finfo /
iinfo, printing options, autocast, assert_close, activation checkpointing, TensorBoard, jit."""
import os
import warnings

import numpy as np
import pytest
import torch

import brasa
import brasa.nn as nn


def test_device_selection_idiom_runs():
    device = brasa.device("cuda" if brasa.cuda.is_available() else "cpu")
    assert device == brasa.device("cpu")
    assert brasa.cuda.device_count() == torch.cuda.device_count() == 0
    brasa.cuda.manual_seed_all(0)
    brasa.backends.cudnn.benchmark = True
    brasa.backends.cudnn.deterministic = True
    assert brasa.backends.cudnn.benchmark and not brasa.backends.cudnn.is_available()
    assert brasa.backends.mps.is_available() is False
    assert brasa.version.cuda is None
    with pytest.raises(RuntimeError, match="CUDA"):
        brasa.cuda.synchronize()


def test_legacy_types_and_constructors_match_torch():
    for name in ["FloatTensor", "DoubleTensor", "LongTensor", "IntTensor", "ByteTensor",
                 "BoolTensor", "HalfTensor", "BFloat16Tensor", "CharTensor", "ShortTensor"]:
        b, t = getattr(brasa, name)([1, 0]), getattr(torch, name)([1, 0])
        assert repr(b.dtype).split(".")[1] == repr(t.dtype).split(".")[1], name
        assert b.tolist() == t.tolist()
        assert isinstance(b, getattr(brasa, name)) and isinstance(b, brasa.Tensor)
        assert b.type() == "brasa." + name and t.type() == "torch." + name
    assert tuple(brasa.LongTensor(2, 3).shape) == tuple(torch.LongTensor(2, 3).shape)
    assert tuple(brasa.FloatTensor().shape) == (0,)
    assert brasa.Tensor(2, 3).dtype == brasa.float32 and tuple(brasa.Tensor(2, 3).shape) == (2, 3)
    assert brasa.Tensor([1, 2]).tolist() == torch.Tensor([1, 2]).tolist()
    assert not isinstance(brasa.ones(1), brasa.DoubleTensor)
    x = brasa.ones(2)
    assert x.type(brasa.DoubleTensor).dtype == brasa.float64
    assert x.type("torch.IntTensor").dtype == brasa.int32
    assert x.type(brasa.int64).dtype == brasa.int64
    with pytest.raises(ValueError, match="invalid type"):
        x.type("numpy.FloatTensor")


def test_new_methods_match_torch():
    b, t = brasa.ones(2, dtype=brasa.float64), torch.ones(2, dtype=torch.float64)
    for name, args, kw in [("new_zeros", (2, 3), {}), ("new_ones", ((2,),), {}),
                           ("new_empty", (3,), {}), ("new_full", ((2,), 3.5), {}),
                           ("new_tensor", ([1, 2],), {}), ("new_zeros", (2,), {"dtype": "int32"})]:
        kb = {k: getattr(brasa, v) for k, v in kw.items()}
        kt = {k: getattr(torch, v) for k, v in kw.items()}
        rb, rt = getattr(b, name)(*args, **kb), getattr(t, name)(*args, **kt)
        assert tuple(rb.shape) == tuple(rt.shape) and str(rb.dtype)[6:] == str(rt.dtype)[6:]
        if name != "new_empty":
            assert rb.tolist() == rt.tolist()
    src = brasa.ones(2, requires_grad=True)
    copy = b.new_tensor(src)
    assert not copy.requires_grad and copy.dtype == brasa.float64
    assert b.nbytes == 16 and b.itemsize == 8 and not b.is_cuda
    assert brasa.is_tensor(b) and not brasa.is_tensor([1]) and brasa.numel(b) == 2


def test_finfo_iinfo_match_torch():
    for name in ["float32", "float64", "float16", "bfloat16"]:
        fb, ft = brasa.finfo(getattr(brasa, name)), torch.finfo(getattr(torch, name))
        for attr in ["bits", "eps", "max", "min", "tiny", "resolution"]:
            assert getattr(fb, attr) == pytest.approx(getattr(ft, attr), rel=1e-6), (name, attr)
        assert fb.dtype == ft.dtype
    for name in ["int8", "int16", "int32", "int64", "uint8"]:
        ib, it = brasa.iinfo(getattr(brasa, name)), torch.iinfo(getattr(torch, name))
        assert (ib.bits, ib.min, ib.max, ib.dtype) == (it.bits, it.min, it.max, it.dtype)
        assert repr(ib) == repr(it)
    with pytest.raises(TypeError):
        brasa.iinfo(brasa.float32)
    with pytest.raises(TypeError):
        brasa.finfo(brasa.int32)


@pytest.mark.parametrize("options", [dict(precision=2), dict(sci_mode=True),
                                     dict(profile="short"), dict(threshold=5, edgeitems=1),
                                     dict(linewidth=20)])
def test_printoptions_match_torch(options):
    values = [[1.23456, 2.5, -3.0, 1e-3, 7.0, 8.0, 9.0], [0.5, 0.25, 0.125, 1.0, 2.0, 3.0, 4.0]]
    try:
        brasa.set_printoptions(**options)
        torch.set_printoptions(**options)
        assert repr(brasa.tensor(values)) == repr(torch.tensor(values))
    finally:
        brasa.set_printoptions(profile="default", sci_mode=None)
        torch.set_printoptions(profile="default", sci_mode=None)
    assert repr(brasa.tensor(values)) == repr(torch.tensor(values))


def test_autocast_matches_torch_and_restores_state():
    for ctx_b, ctx_t in [(brasa.autocast("cpu"), torch.autocast("cpu")),
                         (brasa.cpu.amp.autocast(), torch.cpu.amp.autocast())]:
        with ctx_b:
            yb = brasa.nn.functional.linear(brasa.ones(2, 3), brasa.ones(4, 3))
            assert brasa.is_autocast_cpu_enabled()
        with ctx_t:
            yt = torch.nn.functional.linear(torch.ones(2, 3), torch.ones(4, 3))
        assert str(yb.dtype)[6:] == str(yt.dtype)[6:] == "bfloat16"
        assert not brasa.is_autocast_cpu_enabled()

    @brasa.autocast("cpu")
    def product(a, b):
        return a @ b
    assert product(brasa.ones(2, 2), brasa.ones(2, 2)).dtype == brasa.bfloat16
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with brasa.autocast("cpu", dtype=brasa.float16):
            assert (brasa.ones(2, 2) @ brasa.ones(2, 2)).dtype == brasa.float32
        with brasa.autocast("cuda"):
            pass
        scaler = brasa.cuda.amp.GradScaler()
    assert len(caught) == 3
    loss = brasa.ones(1, requires_grad=True).sum()
    assert scaler.scale(loss) is loss and not scaler.is_enabled()
    with pytest.raises(RuntimeError, match="device_type"):
        brasa.autocast("xpu")


def test_assert_close_matches_torch():
    brasa.testing.assert_close(brasa.ones(2), brasa.ones(2) + 1e-7)
    brasa.testing.assert_close(brasa.ones(2), brasa.ones(2) + 0.1, rtol=0, atol=0.2)
    brasa.testing.assert_close({"a": [brasa.ones(1)]}, {"a": [brasa.ones(1)]})
    a, e = [1.0, 2.0, 3.5], [1.0, 2.1, 3.0]
    with pytest.raises(AssertionError) as rb:
        brasa.testing.assert_close(brasa.tensor(a), brasa.tensor(e))
    with pytest.raises(AssertionError) as rt:
        torch.testing.assert_close(torch.tensor(a), torch.tensor(e))
    assert str(rb.value).splitlines()[:3] == str(rt.value).splitlines()[:3]
    with pytest.raises(AssertionError, match="dtype"):
        brasa.testing.assert_close(brasa.ones(1), brasa.ones(1, dtype=brasa.float64))
    with pytest.raises(AssertionError, match="shape"):
        brasa.testing.assert_close(brasa.ones(1), brasa.ones(2))
    nan = float("nan")
    brasa.testing.assert_close(brasa.tensor([nan]), brasa.tensor([nan]), equal_nan=True)
    with pytest.raises(AssertionError):
        brasa.testing.assert_close(brasa.tensor([nan]), brasa.tensor([nan]))


def test_checkpoint_gives_the_same_gradients_and_dropout_masks():
    brasa.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Dropout(0.5), nn.Linear(8, 2))
    x = brasa.randn(3, 4, requires_grad=True)

    def grads_of(run):
        for p in [x] + list(net.parameters()):
            p.grad = None
        brasa.manual_seed(1)
        loss = run().pow(2).sum()
        loss.backward()
        return loss.item(), [p.grad.clone() for p in [x] + list(net.parameters())]

    plain = grads_of(lambda: net(x))
    ck = grads_of(lambda: brasa.utils.checkpoint.checkpoint(net, x))
    seq = grads_of(lambda: brasa.utils.checkpoint.checkpoint_sequential(net, 2, x))
    for other in (ck, seq):
        assert other[0] == plain[0]
        for a, b in zip(plain[1], other[1]):
            assert brasa.equal(a, b)


def test_tensorboard_writer_writes_event_files(tmp_path):
    from brasa.utils.tensorboard import SummaryWriter
    with SummaryWriter(str(tmp_path)) as w:
        w.add_scalar("loss", brasa.tensor(0.5), 1)
        w.add_scalars("m", {"a": 1, "b": 2.5}, 3)
        w.add_histogram("h", np.arange(10.0), 1)
        w.add_text("note", "hello")
        w.add_hparams({"lr": 0.1, "opt": "sgd", "nesterov": True}, {"acc": 0.9})
        assert w.log_dir == str(tmp_path)
    names = os.listdir(tmp_path)
    assert any(n.startswith("events.out.tfevents.") for n in names)
    assert {"m_a", "m_b"} <= set(names)


def test_jit_says_there_is_no_torchscript():
    with pytest.raises(NotImplementedError, match="no TorchScript.*brasa.compile"):
        brasa.jit.script(lambda x: x)
    with pytest.raises(NotImplementedError, match="state_dict"):
        brasa.jit.load("model.pt")

    @brasa.jit.ignore
    def helper(x):
        return x + 1
    assert helper(1) == 2 and not brasa.jit.is_scripting()


def test_equal_matches_torch():
    nan = float("nan")
    for a, b in [([1], [1.0]), ([1, 2], [1, 2, 3]), ([nan], [nan]), ([1, 2], [1, 3]), ([], [])]:
        assert brasa.equal(brasa.tensor(a), brasa.tensor(b)) == torch.equal(torch.tensor(a),
                                                                           torch.tensor(b))
    assert brasa.ones(2).equal(brasa.ones(2))


def test_deterministic_and_matmul_precision_switches():
    brasa.use_deterministic_algorithms(True)
    assert brasa.are_deterministic_algorithms_enabled()
    brasa.use_deterministic_algorithms(False)
    brasa.set_float32_matmul_precision("high")
    assert brasa.get_float32_matmul_precision() == "high"
    brasa.set_float32_matmul_precision("highest")
    with pytest.raises(RuntimeError, match="precision"):
        brasa.set_float32_matmul_precision("low")
