#!/usr/bin/python3
"""Writes reference_trajectories.h: PyTorch's (1.13) loss and lr trajectories for the optimizer
equivalence tests. Model, data and cases must match tests/optim/optim_model.h and the case
table of test_optim_equivalence.cpp. Run: /usr/bin/python3 tests/optim/generate_reference.py"""
import math
import os

import torch
import torch.nn.functional as F

STEPS = 100


def formula(n, a, b, scale):
    return (torch.arange(n, dtype=torch.float64) * a + b).sin() * scale


def init_params():
    w1 = formula(16 * 8, 0.7, 1.0, 0.3).float().reshape(16, 8)
    b1 = formula(16, 1.1, 0.5, 0.1).float()
    w2 = formula(4 * 16, 1.3, 2.0, 0.25).float().reshape(4, 16)
    b2 = formula(4, 0.9, 0.2, 0.05).float()
    return [p.requires_grad_() for p in (w1, b1, w2, b2)]


def batch(k):
    x = formula(16 * 8, 0.5, 1.7 * k, 1.0).float().reshape(16, 8)
    y = formula(16 * 4, 0.3, k + 0.25, 1.0).float().reshape(16, 4)
    cls = (torch.arange(16) * 3 + k) % 4
    return x, y, cls


def loss_fn(params, step, kind):
    w1, b1, w2, b2 = params
    x, y, cls = batch(step % 4)
    out = F.linear(F.relu(F.linear(x, w1, b1)), w2, b2)
    return F.cross_entropy(out, cls) if kind == "ce" else F.mse_loss(out, y)


O = torch.optim
S = torch.optim.lr_scheduler

# name -> (optimizer factory over the param list, loss kind, scheduler factory or None)
CASES = {
    "sgd_momentum": (lambda p: O.SGD(p, lr=0.05, momentum=0.9), "mse", None),
    "sgd_nesterov_wd": (lambda p: O.SGD(p, lr=0.05, momentum=0.9, nesterov=True,
                                        weight_decay=1e-2), "mse", None),
    "sgd_dampening_ce": (lambda p: O.SGD(p, lr=0.2, momentum=0.5, dampening=0.3,
                                         weight_decay=1e-3), "ce", None),
    "sgd_groups": (lambda p: O.SGD([{"params": p[:2]},
                                    {"params": p[2:], "lr": 0.01, "momentum": 0.9}], lr=0.05),
                   "mse", None),
    "adam": (lambda p: O.Adam(p, lr=1e-2), "mse", None),
    "adam_amsgrad_wd_ce": (lambda p: O.Adam(p, lr=1e-2, amsgrad=True, weight_decay=1e-2), "ce",
                           None),
    "adamw": (lambda p: O.AdamW(p, lr=1e-2, weight_decay=0.1), "mse", None),
    "adamw_amsgrad": (lambda p: O.AdamW(p, lr=5e-3, betas=(0.8, 0.99), amsgrad=True), "mse",
                      None),
    "rmsprop": (lambda p: O.RMSprop(p, lr=1e-3), "mse", None),
    "rmsprop_centered_momentum": (lambda p: O.RMSprop(p, lr=1e-3, momentum=0.9, centered=True,
                                                      weight_decay=1e-2), "mse", None),
    "adagrad": (lambda p: O.Adagrad(p, lr=0.05, lr_decay=1e-3, weight_decay=1e-3,
                                    initial_accumulator_value=0.1), "mse", None),
    "sgd_steplr": (lambda p: O.SGD(p, lr=0.1, momentum=0.9), "mse",
                   lambda o: S.StepLR(o, step_size=30, gamma=0.5)),
    "sgd_multisteplr": (lambda p: O.SGD(p, lr=0.1), "mse",
                        lambda o: S.MultiStepLR(o, milestones=[20, 50, 50], gamma=0.5)),
    "adam_exponentiallr": (lambda p: O.Adam(p, lr=1e-2), "mse",
                           lambda o: S.ExponentialLR(o, gamma=0.98)),
    "sgd_cosine": (lambda p: O.SGD(p, lr=0.1), "mse",
                   lambda o: S.CosineAnnealingLR(o, T_max=40, eta_min=1e-3)),
    "sgd_onecycle": (lambda p: O.SGD(p, lr=0.1, momentum=0.9), "mse",
                     lambda o: S.OneCycleLR(o, max_lr=0.1, total_steps=100)),
    "adam_onecycle_linear3": (lambda p: O.Adam(p, lr=1e-2), "mse",
                              lambda o: S.OneCycleLR(o, max_lr=1e-2, total_steps=100,
                                                     anneal_strategy="linear",
                                                     three_phase=True)),
    "sgd_warmup_cosine": (lambda p: O.SGD(p, lr=0.1), "mse",
                          lambda o: S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1,
                                                                  total_iters=10),
                                                       S.CosineAnnealingLR(o, T_max=90)],
                                                   milestones=[10])),
    "sgd_chained": (lambda p: O.SGD(p, lr=0.1), "mse",
                    lambda o: S.ChainedScheduler([S.LinearLR(o, start_factor=0.5, total_iters=4),
                                                  S.ExponentialLR(o, gamma=0.97)])),
}


def run_case(make_opt, kind, make_sched):
    params = init_params()
    opt = make_opt(params)
    sched = make_sched(opt) if make_sched else None
    losses, lrs = [], []
    for step in range(STEPS):
        opt.zero_grad()
        loss = loss_fn(params, step, kind)
        loss.backward()
        opt.step()
        if sched:
            sched.step()
        losses.append(loss.item())
        lrs.append(opt.param_groups[0]["lr"])
    return losses, lrs


def rosenbrock(x):
    return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2


A = torch.tensor([[4.0, 1.0, 0.5, 0.0], [1.0, 3.0, 0.2, 0.1], [0.5, 0.2, 2.0, 0.3],
                  [0.0, 0.1, 0.3, 1.0]], dtype=torch.float64)
B = torch.tensor([1.0, -2.0, 0.5, 3.0], dtype=torch.float64)


def quadratic(x):
    return 0.5 * x @ A @ x - B @ x


def run_lbfgs(fn, x0, steps, **kw):
    x = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
    opt = O.LBFGS([x], **kw)
    losses = []

    def closure():
        opt.zero_grad()
        loss = fn(x)
        loss.backward()
        return loss

    for _ in range(steps):
        losses.append(opt.step(closure).item())
    return losses, x.detach().tolist()


def plateau_lrs(mode, metrics, **kw):
    p = torch.zeros(1, requires_grad=True)
    opt = O.SGD([p], lr=1.0)
    sched = S.ReduceLROnPlateau(opt, mode=mode, **kw)
    out = []
    for m in metrics:
        sched.step(m)
        out.append(opt.param_groups[0]["lr"])
    return out


def fmt(values):
    return "{" + ", ".join(repr(float(v)) for v in values) + "}"


def main():
    lines = ["#pragma once", "// clang-format off",
             "// Generated by tests/optim/generate_reference.py from PyTorch " + torch.__version__
             + "; do not edit.", "", "#include <map>", "#include <string>", "#include <vector>",
             "", "namespace optim_reference {", "",
             "struct Trajectory {", "  std::vector<double> loss;", "  std::vector<double> lr;",
             "};", "",
             "inline const std::map<std::string, Trajectory>& trajectories() {",
             "  static const std::map<std::string, Trajectory> t = {"]
    for name, (make_opt, kind, make_sched) in CASES.items():
        losses, lrs = run_case(make_opt, kind, make_sched)
        lines.append(f'      {{"{name}", {{{fmt(losses)}, {fmt(lrs)}}}}},')
    lines += ["  };", "  return t;", "}", ""]
    rl, rx = run_lbfgs(rosenbrock, [-1.5, 2.0], 5, line_search_fn="strong_wolfe")
    ql, qx = run_lbfgs(quadratic, [0.0, 0.0, 0.0, 0.0], 3, max_iter=5, history_size=3)
    lines += [f"inline const std::vector<double> kRosenbrockLoss = {fmt(rl)};",
              f"inline const std::vector<double> kRosenbrockX = {fmt(rx)};",
              f"inline const std::vector<double> kQuadraticLoss = {fmt(ql)};",
              f"inline const std::vector<double> kQuadraticX = {fmt(qx)};"]
    metrics = [1.0, 0.9, 0.95, 0.93, 0.92, 0.91, 0.95, 0.89, 0.9, 0.9, 0.9, 0.9, 0.8, 0.85]
    lines += [f"inline const std::vector<double> kPlateauMetrics = {fmt(metrics)};",
              "inline const std::vector<double> kPlateauMinLrs = " + fmt(plateau_lrs(
                  "min", metrics, factor=0.5, patience=2, threshold=0.01, cooldown=1,
                  min_lr=0.2)) + ";",
              "inline const std::vector<double> kPlateauMaxLrs = " + fmt(plateau_lrs(
                  "max", metrics, factor=0.1, patience=1, threshold=0.05,
                  threshold_mode="abs")) + ";",
              "", "}  // namespace optim_reference", ""]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference_trajectories.h")
    with open(out, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
