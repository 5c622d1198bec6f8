"""brasa.save / brasa.load (torch.save's .pt format) and brasa.utils.safetensors: round trips,
files exchanged with torch 1.13 both ways, state_dicts of modules and optimizers, errors."""
import collections
import io

import numpy as np
import pytest
import torch

import brasa
import brasa.nn as nn
from brasa.utils import safetensors as st


def same(b, t):
    assert str(b.dtype).split(".")[-1] == str(t.dtype).split(".")[-1]
    assert tuple(b.shape) == tuple(t.shape)
    np.testing.assert_array_equal(b.numpy(), t.numpy())


def equal(a, b):
    return a.dtype == b.dtype and tuple(a.shape) == tuple(b.shape) and np.array_equal(
        a.detach().double().numpy(), b.detach().double().numpy())


def nested():
    return {"w": brasa.arange(6.0).reshape(2, 3), "ints": brasa.tensor([1, 2, 3]),
            "half": brasa.ones(2, dtype=brasa.float16), "flag": brasa.tensor([True, False]),
            "scalar": brasa.tensor(2.5, dtype=brasa.float64),
            "list": [brasa.zeros(1), 3, 2.5, "s", None, True], "tuple": (1, (2, 3)),
            "inner": {0: brasa.full((2, 2), 7), 1: {"deep": brasa.empty(0)}}}


def check_nested(b, t, to_np):
    assert list(b.keys()) == list(t.keys())
    for k in ("w", "ints", "half", "flag", "scalar"):
        np.testing.assert_array_equal(to_np(b[k]), to_np(t[k]))
    assert b["list"][1:] == t["list"][1:] and b["tuple"] == t["tuple"]
    np.testing.assert_array_equal(to_np(b["inner"][0]), to_np(t["inner"][0]))
    assert tuple(b["inner"][1]["deep"].shape) == tuple(t["inner"][1]["deep"].shape) == (0,)


def test_round_trip_path_and_file_object(tmp_path):
    obj = nested()
    brasa.save(obj, tmp_path / "a.pt")
    back = brasa.load(tmp_path / "a.pt")
    assert isinstance(back, collections.OrderedDict)
    check_nested(back, obj, lambda x: x.numpy())
    buf = io.BytesIO()
    brasa.save(obj, buf)
    buf.seek(0)
    check_nested(brasa.load(buf), obj, lambda x: x.numpy())
    t = brasa.randn(3, 4).t()  # non-contiguous: strides kept
    brasa.save(t, str(tmp_path / "t.pt"))
    u = brasa.load(str(tmp_path / "t.pt"))
    assert u.stride() == t.stride() and equal(u, t)


def test_brasa_file_read_by_torch(tmp_path):
    obj = nested()
    brasa.save(obj, tmp_path / "b.pt")
    back = torch.load(tmp_path / "b.pt")
    check_nested(back, obj, lambda x: x.numpy())
    shared = brasa.arange(10.0)
    brasa.save([shared, shared[2:5]], tmp_path / "s.pt")
    a, b = torch.load(tmp_path / "s.pt")
    b[0] = -1  # storage sharing survives the trip
    assert a[2].item() == -1


def test_torch_file_read_by_brasa(tmp_path):
    torch.manual_seed(0)
    obj = {"w": torch.randn(3, 4), "t": torch.randn(4, 3).t(), "i": torch.arange(5),
           "b": torch.tensor([True]), "h": torch.ones(3, dtype=torch.bfloat16),
           "d": torch.randn(2, dtype=torch.float64), "meta": [1, "x", None, (2.5, False)]}
    torch.save(obj, tmp_path / "t.pt")
    back = brasa.load(tmp_path / "t.pt")
    for k in ("w", "t", "i", "b", "d"):
        same(back[k], obj[k])
    assert back["t"].stride() == obj["t"].stride()
    np.testing.assert_array_equal(back["h"].float().numpy(), obj["h"].float().numpy())
    assert back["meta"] == [1, "x", None, (2.5, False)]
    buf = io.BytesIO()
    torch.save(obj["w"], buf)
    same(brasa.load(io.BytesIO(buf.getvalue())), obj["w"])


def net(lib):
    return lib.nn.Sequential(lib.nn.Conv2d(1, 2, 3), lib.nn.BatchNorm2d(2), lib.nn.Flatten(),
                             lib.nn.Linear(2 * 4 * 4, 3))


def test_module_state_dict_both_ways(tmp_path):
    brasa.manual_seed(1)
    b = net(brasa)
    b(brasa.randn(4, 1, 6, 6))  # moves the running statistics and num_batches_tracked
    brasa.save(b.state_dict(), tmp_path / "m.pt")
    t = net(torch)
    t.load_state_dict(torch.load(tmp_path / "m.pt"))
    x = np.random.RandomState(0).randn(2, 1, 6, 6).astype("float32")
    b.eval(), t.eval()
    np.testing.assert_allclose(b(brasa.from_numpy(x)).detach().numpy(),
                               t(torch.from_numpy(x)).detach().numpy(), rtol=1e-5, atol=1e-6)
    torch.manual_seed(3)
    t2 = net(torch)
    torch.save(t2.state_dict(), tmp_path / "t.pt")
    b2 = net(brasa)
    result = b2.load_state_dict(brasa.load(tmp_path / "t.pt"))
    assert not result.missing_keys and not result.unexpected_keys
    b2.eval(), t2.eval()
    np.testing.assert_allclose(b2(brasa.from_numpy(x)).detach().numpy(),
                               t2(torch.from_numpy(x)).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_optimizer_state_dict_round_trip(tmp_path):
    p = nn.Parameter(brasa.randn(3))
    opt = brasa.optim.Adam([p], lr=0.1)
    (p * p).sum().backward()
    opt.step()
    brasa.save(opt.state_dict(), tmp_path / "o.pt")
    sd = brasa.load(tmp_path / "o.pt")
    opt2 = brasa.optim.Adam([nn.Parameter(p.detach().clone())], lr=0.5)
    opt2.load_state_dict(sd)
    assert opt2.param_groups[0]["lr"] == 0.1
    np.testing.assert_array_equal(opt2.state[opt2.param_groups[0]["params"][0]]["exp_avg"].numpy(),
                                  opt.state[p]["exp_avg"].numpy())
    torch_sd = torch.load(tmp_path / "o.pt")  # torch reads the same checkpoint
    assert torch_sd["param_groups"][0]["betas"] == (0.9, 0.999)


def test_errors(tmp_path):
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"PK\x03\x04 definitely not a zip archive")
    with pytest.raises(RuntimeError, match="bad.pt"):
        brasa.load(bad)
    with pytest.raises(FileNotFoundError):
        brasa.load(tmp_path / "missing.pt")
    with pytest.raises(TypeError, match="Linear"):
        brasa.save(nn.Linear(2, 2), tmp_path / "x.pt")
    with pytest.raises(TypeError, match="keys"):
        brasa.save({1.5: brasa.ones(1)}, tmp_path / "x.pt")
    with pytest.raises(RuntimeError):
        brasa.load(io.BytesIO(b"garbage"))
    cut = tmp_path / "cut.pt"
    brasa.save(nested(), cut)
    cut.write_bytes(cut.read_bytes()[:200])
    with pytest.raises(RuntimeError, match="cut.pt"):
        brasa.load(cut)


def test_requires_grad_tensor_saved_as_data(tmp_path):
    p = nn.Parameter(brasa.ones(2))
    brasa.save({"p": p}, tmp_path / "p.pt")
    q = brasa.load(tmp_path / "p.pt")["p"]
    assert not q.requires_grad and equal(q, p.detach())


def test_safetensors_round_trip_and_torch_files(tmp_path):
    tensors = {"a": brasa.arange(12.0).reshape(3, 4), "b": brasa.tensor([1, 2], dtype=brasa.int32),
               "c": brasa.ones(2, dtype=brasa.bfloat16), "t": brasa.randn(4, 3).t()}
    st.save_file(tensors, tmp_path / "x.safetensors", metadata={"format": "pt"})
    back = st.load_file(tmp_path / "x.safetensors")
    assert set(back) == set(tensors)
    for k, v in tensors.items():
        assert back[k].dtype == v.dtype and equal(back[k], v)
    assert st.load_metadata(tmp_path / "x.safetensors") == {"format": "pt"}
    blob = st.save(tensors)
    assert all(equal(st.load(blob)[k], v) for k, v in tensors.items())
    # Read with plain NumPy following the format (the safetensors package is not a dependency).
    import json
    import struct
    raw = (tmp_path / "x.safetensors").read_bytes()
    n = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    lo, hi = header["a"]["data_offsets"]
    np.testing.assert_array_equal(
        np.frombuffer(raw[8 + n + lo:8 + n + hi], dtype="<f4").reshape(header["a"]["shape"]),
        tensors["a"].numpy())
    with pytest.raises(RuntimeError, match="x.safetensors"):
        (tmp_path / "x.safetensors").write_bytes(raw[:n])
        st.load_file(tmp_path / "x.safetensors")
    with pytest.raises(TypeError):
        st.save_file({"a": 1}, tmp_path / "y.safetensors")


def test_safetensors_module(tmp_path):
    brasa.manual_seed(0)
    a, b = net(brasa), net(brasa)
    st.save_model(a, tmp_path / "m.safetensors")
    missing, unexpected = st.load_model(b, tmp_path / "m.safetensors")
    assert not missing and not unexpected
    for (ka, va), (kb, vb) in zip(a.state_dict().items(), b.state_dict().items()):
        assert ka == kb and equal(va, vb)


def test_complex_tensors_both_ways(tmp_path):
    rs = np.random.RandomState(0)
    c64 = (rs.randn(3, 4) + 1j * rs.randn(3, 4)).astype(np.complex64)
    c128 = rs.randn(5) + 1j * rs.randn(5)
    obj = {"c64": brasa.from_numpy(c64), "c128": brasa.from_numpy(c128),
           "t": brasa.from_numpy(c64).t(), "p": nn.Parameter(brasa.from_numpy(c128))}
    brasa.save(obj, tmp_path / "c.pt")
    back = torch.load(tmp_path / "c.pt")
    assert back["c64"].dtype == torch.complex64 and back["c128"].dtype == torch.complex128
    np.testing.assert_array_equal(back["c64"].numpy(), c64)
    np.testing.assert_array_equal(back["c128"].numpy(), c128)
    assert back["t"].stride() == (1, 4)
    np.testing.assert_array_equal(back["t"].numpy(), c64.T)
    tobj = {"a": torch.from_numpy(c64), "b": torch.from_numpy(c128)[1:4],
            "p": torch.nn.Parameter(torch.from_numpy(c128.copy())),
            "v3": torch.view_as_complex(torch.arange(8.0).reshape(4, 2))}
    torch.save(tobj, tmp_path / "t.pt")
    for source in (tmp_path / "t.pt", io.BytesIO((tmp_path / "t.pt").read_bytes())):
        b = brasa.load(source)
        assert b["a"].dtype == brasa.complex64 and b["b"].dtype == brasa.complex128
        np.testing.assert_array_equal(b["a"].numpy(), c64)
        np.testing.assert_array_equal(b["b"].numpy(), c128[1:4])
        np.testing.assert_array_equal(b["p"].detach().numpy(), c128)
        np.testing.assert_array_equal(b["v3"].numpy(), tobj["v3"].numpy())
    # torch -> brasa -> torch keeps the values and storage sharing
    brasa.save(brasa.load(tmp_path / "t.pt"), tmp_path / "t2.pt")
    again = torch.load(tmp_path / "t2.pt")
    for k in tobj:
        assert torch.equal(again[k].detach(), tobj[k].detach())


@pytest.fixture
def cuda_tagged_file(tmp_path):
    """A torch.save file whose storages say they were saved on 'cuda:1' (torch's location tagger
    is overridden while saving), with torch's own results of loading it back."""
    import torch.serialization as ts
    ts.register_package(0, lambda storage: "cuda:1", lambda storage, location: None)
    entry = ts._package_registry[0]
    try:
        torch.manual_seed(0)
        obj = {"w": torch.randn(3, 2), "i": torch.arange(4), "shared": [torch.ones(2)] * 2}
        torch.save(obj, tmp_path / "cuda.pt")
    finally:
        ts._package_registry.remove(entry)
    return tmp_path / "cuda.pt", obj


def test_map_location_forms(cuda_tagged_file):
    path, obj = cuda_tagged_file

    def check(b):
        for k in ("w", "i"):
            same(b[k], obj[k])
        assert len(b["shared"]) == 2

    # None: each storage goes back where it was saved, which neither has here
    with pytest.raises(RuntimeError):
        torch.load(path)
    with pytest.raises(RuntimeError, match="cuda:1"):
        brasa.load(path)
    for where in ("cpu", brasa.device("cpu"), {"cuda:1": "cpu"}, {"cuda:1": brasa.device("cpu")}):
        torch_where = torch.device("cpu") if isinstance(where, brasa.device) else where
        if isinstance(where, dict):
            torch_where = {"cuda:1": "cpu"}
        torch.load(path, map_location=torch_where)  # torch accepts it too
        check(brasa.load(path, map_location=where))
        check(brasa.load(io.BytesIO(path.read_bytes()), map_location=where))
    # a dict that leaves the location alone, and an explicit device brasa lacks
    for where in ({"cuda:0": "cpu"}, "cuda:0"):
        with pytest.raises(RuntimeError):
            torch.load(path, map_location=where)
        with pytest.raises(RuntimeError, match="cuda"):
            brasa.load(path, map_location=where)
    # a callable sees each storage once with its saved location; None means the default
    seen_b, seen_t = [], []
    brasa_result = brasa.load(path, map_location=lambda s, loc: seen_b.append(loc) or s)
    torch.load(path, map_location=lambda s, loc: seen_t.append(loc) or s)
    check(brasa_result)
    assert seen_b == seen_t == ["cuda:1"] * 3
    brasa_result["shared"][0].add_(1)  # the two list items share one storage
    assert brasa_result["shared"][1].tolist() == [2.0, 2.0]
    with pytest.raises(RuntimeError):
        torch.load(path, map_location=lambda s, loc: None)
    with pytest.raises(RuntimeError, match="cuda:1"):
        brasa.load(path, map_location=lambda s, loc: None)


def test_map_location_on_cpu_files_and_errors(tmp_path):
    brasa.save(nested(), tmp_path / "n.pt")
    for where in (None, "cpu", brasa.device("cpu"), {}, {"cuda:0": "cpu"},
                  lambda s, loc: s, lambda s, loc: None, lambda s, loc: s.clone()):
        check_nested(brasa.load(tmp_path / "n.pt", map_location=where), nested(),
                     lambda x: x.numpy())
    seen = []
    brasa.load(tmp_path / "n.pt", map_location=lambda s, loc: seen.append((loc, s.dim())) or s)
    assert seen and all(item == ("cpu", 1) for item in seen)
    with pytest.raises(ValueError, match="map_location"):
        brasa.load(tmp_path / "n.pt", map_location=lambda s, loc: s[:1])
    with pytest.raises(TypeError, match="map_location"):
        brasa.load(tmp_path / "n.pt", map_location=lambda s, loc: "nope")
    with pytest.raises(KeyError):
        brasa.load(tmp_path / "n.pt", map_location=lambda s, loc: {}["missing"])
    with pytest.raises(TypeError, match="map_location"):
        brasa.load(tmp_path / "n.pt", map_location=3)
    with pytest.raises(RuntimeError):
        brasa.load(tmp_path / "n.pt", map_location="cuda:0")
