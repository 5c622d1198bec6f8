"""brasa.nn.Module's Python semantics against torch.nn.Module's: attribute registration,
traversal, state_dict, modes, conversions, hooks and printing."""
import collections

import pytest
import torch

import brasa
import brasa.nn as nn
from nn_support import copy_state


class Net(nn.Module):
    def __init__(self, m=nn):
        super().__init__()
        self.fc1 = m.Linear(4, 3)
        self.block = m.Sequential(m.Linear(3, 3), m.ReLU())
        self.scale = m.Parameter((brasa if m is nn else torch).ones(1))
        self.register_buffer("steps", (brasa if m is nn else torch).zeros(1))
        self.register_buffer("scratch", (brasa if m is nn else torch).zeros(2), persistent=False)
        self.plain = 3

    def forward(self, x):
        return self.block(self.fc1(x)) * self.scale


class TorchNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 3)
        self.block = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU())
        self.scale = torch.nn.Parameter(torch.ones(1))
        self.register_buffer("steps", torch.zeros(1))
        self.register_buffer("scratch", torch.zeros(2), persistent=False)
        self.plain = 3

    def forward(self, x):
        return self.block(self.fc1(x)) * self.scale


def test_registration_and_traversal_match_torch():
    b, t = Net(), TorchNet()
    assert [n for n, _ in b.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert [n for n, _ in b.named_buffers()] == [n for n, _ in t.named_buffers()]
    assert [n for n, _ in b.named_modules()] == [n for n, _ in t.named_modules()]
    assert [n for n, _ in b.named_children()] == [n for n, _ in t.named_children()]
    assert list(b.state_dict()) == list(t.state_dict())
    assert len(list(b.parameters())) == 5 and len(list(b.parameters(recurse=False))) == 1
    assert b.plain == 3 and "plain" in b.__dict__
    assert isinstance(b.scale, nn.Parameter) and isinstance(b.scale, brasa.Tensor)
    assert b.scale.requires_grad and b.scale.is_leaf


def test_setattr_moves_between_kinds_and_delattr():
    m = nn.Module()
    m.x = nn.Parameter(brasa.zeros(2))
    assert "x" in m._parameters
    m.x = None  # a parameter slot takes None
    assert m._parameters["x"] is None and m.x is None
    with pytest.raises(TypeError):
        m.x = brasa.zeros(2)  # a plain tensor cannot replace a parameter
    m.sub = nn.Linear(1, 1)
    del m.sub
    assert "sub" not in m._modules
    with pytest.raises(AttributeError, match="has no attribute 'sub'"):
        m.sub
    m.register_buffer("b", None)
    m.b = brasa.ones(1)
    assert m._buffers["b"].tolist() == [1.0]
    with pytest.raises(KeyError):
        m.register_parameter("a.b", None)
    with pytest.raises(AttributeError, match="before Module.__init__"):
        class Bad(nn.Module):
            def __init__(self):
                self.w = nn.Parameter(brasa.zeros(1))
        Bad()


def test_shared_parameters_are_listed_once():
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, lin)
    assert len(list(seq.parameters())) == 2
    assert len(list(seq.named_parameters(remove_duplicate=False))) == 4


def test_state_dict_round_trip_and_strict_errors():
    a, b = Net(), Net()
    sd = a.state_dict()
    assert "scratch" not in sd and all(not v.requires_grad for v in sd.values())
    assert isinstance(sd, collections.OrderedDict)
    r = b.load_state_dict(sd)
    assert r.missing_keys == [] and r.unexpected_keys == []
    for (k, v), w in zip(sd.items(), b.state_dict().values()):
        assert v.tolist() == w.tolist(), k
    bad = dict(sd)
    bad.pop("fc1.bias")
    bad["extra"] = brasa.zeros(1)
    with pytest.raises(RuntimeError, match='Missing key.*"fc1.bias".*\n.*Unexpected key.*"extra"'):
        b.load_state_dict(bad)
    r = b.load_state_dict(bad, strict=False)  # reported, not raised (as torch)
    assert r.unexpected_keys == ["extra"] and r.missing_keys == ["fc1.bias"]
    bad = dict(sd)
    bad["fc1.weight"] = brasa.zeros(5, 5)
    with pytest.raises(RuntimeError, match="size mismatch for fc1.weight"):
        b.load_state_dict(bad)


def test_state_dict_loads_torch_weights_and_computes_the_same():
    b, t = Net(), TorchNet()
    copy_state(b, t)
    x = torch.randn(5, 4)
    out_b = b(brasa.from_numpy(x.numpy()))
    assert out_b.detach().numpy() == pytest.approx(t(x).detach().numpy(), abs=1e-6)


def test_train_eval_zero_grad_requires_grad_apply():
    m = Net()
    assert m.training and m.block[1].training
    m.eval()
    assert not m.training and not m.block[0].training
    m.train()
    assert m.block[1].training
    m(brasa.ones(2, 4)).sum().backward()
    assert m.fc1.weight.grad is not None
    m.zero_grad()  # torch 1.13: zeroes in place by default
    assert m.fc1.weight.grad.abs().sum().item() == 0
    m.zero_grad(set_to_none=True)
    assert m.fc1.weight.grad is None
    m.requires_grad_(False)
    assert not any(p.requires_grad for p in m.parameters())
    seen = []
    m.apply(lambda mod: seen.append(type(mod).__name__))
    assert seen == ["Linear", "Linear", "ReLU", "Sequential", "Net"]


def test_to_double_keeps_parameter_objects():
    m = nn.Linear(2, 2)
    w = m.weight
    m.double()
    assert m.weight is w and w.dtype == brasa.float64 and isinstance(w, nn.Parameter)
    m.to(brasa.float32)
    assert m.weight.dtype == brasa.float32
    assert m.to("cpu") is m
    with pytest.raises(TypeError):
        m.to(brasa.int64)


def test_forward_hooks():
    m = nn.Linear(2, 2)
    calls = []
    h1 = m.register_forward_pre_hook(lambda mod, args: calls.append("pre"))
    h2 = m.register_forward_hook(lambda mod, args, out: out * 0)
    out = m(brasa.ones(1, 2))
    assert calls == ["pre"] and out.abs().sum().item() == 0
    h1.remove()
    h2.remove()
    assert m(brasa.ones(1, 2)).abs().sum().item() != 0


def test_repr_matches_torch():
    b = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
                      nn.MaxPool2d(2), nn.Dropout(0.25), nn.Flatten(), nn.Linear(4, 2, bias=False),
                      nn.LayerNorm(2), nn.Embedding(5, 2, padding_idx=0), nn.GELU(),
                      nn.CrossEntropyLoss())
    t = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3, padding=1), torch.nn.BatchNorm2d(4),
                            torch.nn.ReLU(inplace=True), torch.nn.MaxPool2d(2),
                            torch.nn.Dropout(0.25), torch.nn.Flatten(),
                            torch.nn.Linear(4, 2, bias=False), torch.nn.LayerNorm(2),
                            torch.nn.Embedding(5, 2, padding_idx=0), torch.nn.GELU(),
                            torch.nn.CrossEntropyLoss())
    assert repr(b) == repr(t)
    p = nn.Parameter(brasa.ones(2))
    assert str(p) == str(torch.nn.Parameter(torch.ones(2))).replace("torch", "brasa")


def test_containers():
    ml = nn.ModuleList([nn.Linear(1, 1) for _ in range(3)])
    ml.append(nn.ReLU())
    assert len(ml) == 4 and isinstance(ml[-1], nn.ReLU) and len(list(ml.parameters())) == 6
    md = nn.ModuleDict({"a": nn.Linear(1, 2)})
    md["b"] = nn.Linear(2, 1)
    assert list(md.keys()) == ["a", "b"] and [n for n, _ in md.named_parameters()] == [
        "a.weight", "a.bias", "b.weight", "b.bias"]
    seq = nn.Sequential(collections.OrderedDict([("l", nn.Linear(2, 2)), ("r", nn.ReLU())]))
    assert isinstance(seq.l, nn.Linear) and len(seq[:1]) == 1
    pl = nn.ParameterList([nn.Parameter(brasa.ones(1)), brasa.zeros(1)])
    assert all(isinstance(p, nn.Parameter) for p in pl) and len(list(pl.parameters())) == 2
    with pytest.raises(IndexError):
        ml[7]


def test_parameter_is_a_detached_alias():
    base = brasa.ones(3)
    p = nn.Parameter(base)
    assert p.requires_grad and p.is_leaf and type(p) is nn.Parameter
    with brasa.no_grad():
        p.mul_(2)
    assert base.tolist() == [2.0, 2.0, 2.0]  # shares memory, like torch
    assert not nn.Parameter(base, requires_grad=False).requires_grad
    q = p * 1
    assert type(q) is brasa.Tensor


def test_full_backward_hook_matches_torch():
    def run(m):
        lin = m.nn.Linear(3, 2)
        with m.no_grad():
            lin.weight.copy_(m.tensor([[1.0, 2, 3], [4, 5, 6]]))
            lin.bias.fill_(0)
        seen = []

        def hook(mod, gi, go):
            assert mod is lin
            seen.append(([None if g is None else g.tolist() for g in gi], [g.tolist() for g in go]))
            return None if gi[0] is None else (gi[0] * 2,)
        h = lin.register_full_backward_hook(hook)
        x = m.tensor([[1.0, 1, 1]], requires_grad=True)
        (lin(x) * m.tensor([[1.0, 10.0]])).sum().backward()
        lin(m.ones(1, 3)).sum().backward()  # no input requires grad: grad_input (None,)
        h.remove()
        lin(x).sum().backward()
        return seen, x.grad.tolist(), lin.weight.grad.tolist()
    assert run(brasa) == run(torch)


def test_module_deepcopy_and_pickle():
    import copy
    import pickle
    m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    for clone in (copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        assert [n for n, _ in clone.named_parameters()] == [n for n, _ in m.named_parameters()]
        assert isinstance(clone[0].weight, nn.Parameter) and clone[0].weight.requires_grad
        assert clone[0].weight.tolist() == m[0].weight.tolist()
        assert not clone[0].weight._is_same(m[0].weight)
        assert clone[1].running_var.tolist() == [1.0, 1.0, 1.0]
    x = brasa.ones(4, 2)
    assert copy.deepcopy(m)(x).tolist() == m(x).tolist()
