"""brasa.optim and lr_scheduler against torch 1.13: the same parameters and gradients give the
same trajectories; param groups, state_dict, zero_grad."""
import pytest
import torch

import brasa
import brasa.nn as nn
from nn_support import assert_close, copy_state, step_both_and_compare

CONFIGS = [
    ("SGD", dict(lr=0.1)), ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("SGD", dict(lr=0.1, momentum=0.5, dampening=0.3, maximize=True)),
    ("Adam", dict(lr=0.01)), ("Adam", dict(lr=0.01, weight_decay=0.1, amsgrad=True)),
    ("Adam", dict(lr=0.01, betas=(0.8, 0.9), maximize=True)),
    ("AdamW", dict(lr=0.01)), ("AdamW", dict(lr=0.01, weight_decay=0.5, amsgrad=True)),
    ("RMSprop", dict()), ("RMSprop", dict(momentum=0.9, centered=True, weight_decay=0.1)),
    ("Adagrad", dict()), ("Adagrad", dict(lr_decay=0.1, initial_accumulator_value=0.5,
                                          weight_decay=0.1, maximize=True)),
]


def models():
    torch.manual_seed(0)
    t = torch.nn.Sequential(torch.nn.Linear(5, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    b = nn.Sequential(nn.Linear(5, 4), nn.Tanh(), nn.Linear(4, 2))
    copy_state(b, t)
    return b, t


@pytest.mark.parametrize("name,kw", CONFIGS, ids=[f"{n}-{k}" for n, k in CONFIGS])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_trajectory_matches_torch(name, kw, dtype):
    b, t = models()
    b.to(getattr(brasa, dtype))
    t.to(getattr(torch, dtype))
    ob, ot = getattr(brasa.optim, name)(b.parameters(), **kw), getattr(torch.optim, name)(
        t.parameters(), **kw)
    step_both_and_compare(ob, ot, b, t, dtype, steps=5)


def test_non_contiguous_parameter_takes_the_unfused_path():
    wb = nn.Parameter(brasa.ones(3, 2).t())
    wt = torch.nn.Parameter(torch.ones(3, 2).t())
    ob, ot = brasa.optim.Adam([wb], lr=0.1), torch.optim.Adam([wt], lr=0.1)
    for _ in range(3):
        (wb * brasa.arange(6.0).view(2, 3)).sum().backward()
        (wt * torch.arange(6.0).view(2, 3)).sum().backward()
        ob.step()
        ot.step()
    assert_close(wb, wt)


def test_param_groups_state_dict_and_zero_grad():
    b, _ = models()
    opt = brasa.optim.SGD([{"params": b[0].parameters()},
                           {"params": b[2].parameters(), "lr": 0.5}], lr=0.1, momentum=0.9)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    assert opt.param_groups[1]["momentum"] == 0.9
    b(brasa.ones(1, 5)).sum().backward()
    opt.step()
    sd = opt.state_dict()
    assert sorted(sd["state"]) == [0, 1, 2, 3]
    assert [g["params"] for g in sd["param_groups"]] == [[0, 1], [2, 3]]
    assert set(sd["state"][0]) == {"momentum_buffer"}
    b2, _ = models()
    opt2 = brasa.optim.SGD([{"params": b2[0].parameters()},
                            {"params": b2[2].parameters(), "lr": 0.5}], lr=0.1, momentum=0.9)
    opt2.load_state_dict(sd)
    buf = opt2.state[b2[0].weight]["momentum_buffer"]
    assert buf.tolist() == opt.state[b[0].weight]["momentum_buffer"].tolist()
    assert opt2.param_groups[1]["lr"] == 0.5
    opt.zero_grad()
    assert b[0].weight.grad.abs().sum().item() == 0  # 1.13 default: zeroed, not None
    opt.zero_grad(set_to_none=True)
    assert b[0].weight.grad is None
    with pytest.raises(ValueError, match="empty parameter list"):
        brasa.optim.SGD([], lr=0.1)
    with pytest.raises(ValueError, match="more than one parameter group"):
        brasa.optim.SGD([{"params": [b[0].weight]}, {"params": [b[0].weight]}], lr=0.1)


def test_adam_state_matches_torch_layout():
    b, t = models()
    ob, ot = brasa.optim.Adam(b.parameters(), amsgrad=True), torch.optim.Adam(t.parameters(),
                                                                              amsgrad=True)
    b(brasa.ones(1, 5)).sum().backward()
    t(torch.ones(1, 5)).sum().backward()
    ob.step()
    ot.step()
    sb, st = ob.state_dict(), ot.state_dict()
    assert set(sb["state"][0]) == set(st["state"][0])
    assert sb["state"][0]["step"].item() == st["state"][0]["step"].item() == 1
    assert set(sb["param_groups"][0]) == set(st["param_groups"][0])


SCHEDULERS = [
    ("StepLR", dict(step_size=3, gamma=0.5)), ("MultiStepLR", dict(milestones=[2, 5, 5])),
    ("ExponentialLR", dict(gamma=0.9)), ("CosineAnnealingLR", dict(T_max=4, eta_min=0.01)),
    ("LambdaLR", dict(lr_lambda=lambda e: 1 / (e + 1))), ("LinearLR", dict(total_iters=4)),
    ("MultiplicativeLR", dict(lr_lambda=lambda e: 0.95)),
    ("OneCycleLR", dict(max_lr=1.0, total_steps=13)),
    ("OneCycleLR", dict(max_lr=0.5, total_steps=13, anneal_strategy="linear", three_phase=True)),
    ("ConstantLR", dict(factor=0.5, total_iters=3)), ("PolynomialLR", dict(total_iters=6, power=2.0)),
    ("CosineAnnealingWarmRestarts", dict(T_0=3, T_mult=2, eta_min=0.01)),
    ("CosineAnnealingWarmRestarts", dict(T_0=4)),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=3)),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=2, step_size_down=3, mode="triangular2")),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=2, mode="exp_range", gamma=0.9)),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=2, scale_fn=lambda x: 0.5 ** x,
                      scale_mode="iterations", base_momentum=0.7)),
]


@pytest.mark.parametrize("name,kw", SCHEDULERS, ids=[f"{n}{i}" for i, (n, _) in
                                                     enumerate(SCHEDULERS)])
def test_scheduler_matches_torch(name, kw):
    pb, pt = nn.Parameter(brasa.ones(1)), torch.nn.Parameter(torch.ones(1))
    ob = brasa.optim.SGD([pb], lr=0.1, momentum=0.9)
    ot = torch.optim.SGD([pt], lr=0.1, momentum=0.9)
    sb = getattr(brasa.optim.lr_scheduler, name)(ob, **kw)
    st = getattr(torch.optim.lr_scheduler, name)(ot, **kw)
    lrs_b, lrs_t = [], []
    for _ in range(12):
        ob.step()
        ot.step()
        sb.step()
        st.step()
        lrs_b.append(sb.get_last_lr()[0])
        lrs_t.append(st.get_last_lr()[0])
    assert lrs_b == pytest.approx(lrs_t, rel=1e-12)
    assert ob.param_groups[0]["initial_lr"] == ot.param_groups[0]["initial_lr"]
    assert ob.param_groups[0]["momentum"] == pytest.approx(ot.param_groups[0]["momentum"])


@pytest.mark.filterwarnings("ignore:The epoch parameter")  # SequentialLR's step(0), as torch
def test_reduce_lr_on_plateau_and_sequential_match_torch():
    pb, pt = nn.Parameter(brasa.ones(1)), torch.nn.Parameter(torch.ones(1))
    ob, ot = brasa.optim.Adam([pb], lr=0.1), torch.optim.Adam([pt], lr=0.1)
    sb = brasa.optim.lr_scheduler.ReduceLROnPlateau(ob, patience=1, cooldown=1, factor=0.5)
    st = torch.optim.lr_scheduler.ReduceLROnPlateau(ot, patience=1, cooldown=1, factor=0.5)
    for metric in [5, 4, 4, 4, 4, 3, 3, 3, 3, 3, 2.99999]:
        sb.step(metric)
        st.step(metric)
        assert ob.param_groups[0]["lr"] == ot.param_groups[0]["lr"]
    ob, ot = brasa.optim.SGD([pb], lr=0.1), torch.optim.SGD([pt], lr=0.1)
    sched_b = brasa.optim.lr_scheduler
    sched_t = torch.optim.lr_scheduler
    sb = sched_b.SequentialLR(ob, [sched_b.LinearLR(ob, 0.1, total_iters=3),
                                   sched_b.ExponentialLR(ob, 0.9)], milestones=[3])
    st = sched_t.SequentialLR(ot, [sched_t.LinearLR(ot, 0.1, total_iters=3),
                                   sched_t.ExponentialLR(ot, 0.9)], milestones=[3])
    for _ in range(8):
        ob.step()
        ot.step()
        sb.step()
        st.step()
        assert sb.get_last_lr()[0] == pytest.approx(st.get_last_lr()[0], rel=1e-12)


def test_nn_training_loop_memory_is_flat():
    import gc
    import brasa.nn.functional as F
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 3))
    opt = brasa.optim.AdamW(model.parameters(), lr=1e-3)
    x, y = brasa.randn(32, 8), brasa.tensor([0, 1, 2, 1] * 8)

    def step():
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    for _ in range(20):
        step()
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(200):
        step()
    gc.collect()
    assert len(gc.get_objects()) <= before + 5


def test_step_with_closure_returns_the_loss_and_runs_with_grad():
    b, _ = models()
    opt = brasa.optim.SGD(b.parameters(), lr=0.1)

    def closure():
        opt.zero_grad()
        loss = b(brasa.ones(2, 5)).sum()
        loss.backward()
        return loss
    with brasa.no_grad():
        loss = opt.step(closure)
    assert loss.requires_grad and b[0].weight.grad is not None
    assert brasa.is_grad_enabled()


def test_chained_and_epoch_stepped_schedulers_match_torch():
    pb, pt = nn.Parameter(brasa.ones(1)), torch.nn.Parameter(torch.ones(1))
    ob, ot = brasa.optim.SGD([pb], lr=1.0), torch.optim.SGD([pt], lr=1.0)
    lb, lt = brasa.optim.lr_scheduler, torch.optim.lr_scheduler
    cb = lb.ChainedScheduler([lb.ConstantLR(ob, factor=0.1, total_iters=2), lb.ExponentialLR(ob, 0.9)])
    ct = lt.ChainedScheduler([lt.ConstantLR(ot, factor=0.1, total_iters=2), lt.ExponentialLR(ot, 0.9)])
    for _ in range(6):
        cb.step()
        ct.step()
        assert cb.get_last_lr() == pytest.approx(ct.get_last_lr(), rel=1e-12)
    assert set(cb.state_dict()) == set(ct.state_dict())
    ob.param_groups[0]["lr"], ot.param_groups[0]["lr"] = 0.5, 0.5
    wb = lb.CosineAnnealingWarmRestarts(ob, T_0=2, T_mult=3)
    wt = lt.CosineAnnealingWarmRestarts(ot, T_0=2, T_mult=3)
    for epoch in [0.5, 1.0, 2.25, 7.9, 8.0, 30.0, 3]:
        wb.step(epoch)
        wt.step(epoch)
        assert wb.get_last_lr() == pytest.approx(wt.get_last_lr(), rel=1e-12)
        assert (wb.T_i, wb.last_epoch) == (wt.T_i, wt.last_epoch)


def test_new_scheduler_errors_are_value_errors():
    opt = brasa.optim.SGD([nn.Parameter(brasa.ones(1))], lr=1.0)
    adam = brasa.optim.Adam([nn.Parameter(brasa.ones(1))], lr=1.0)
    lb = brasa.optim.lr_scheduler
    with pytest.raises(ValueError, match="factor"):
        lb.ConstantLR(opt, factor=2.0)
    with pytest.raises(ValueError, match="T_0"):
        lb.CosineAnnealingWarmRestarts(opt, T_0=0)
    with pytest.raises(ValueError, match="T_mult"):
        lb.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=0)
    with pytest.raises(ValueError, match="mode"):
        lb.CyclicLR(opt, 0.1, 1.0, mode="sawtooth")
    with pytest.raises(ValueError, match="momentum"):
        lb.CyclicLR(adam, 0.1, 1.0)
    with pytest.raises(ValueError, match="expected 1 values for max_lr"):
        lb.CyclicLR(opt, 0.1, [1.0, 2.0])
