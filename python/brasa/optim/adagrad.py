"""Adagrad (torch 1.13's update, state (created at construction, as torch does) and defaults)."""
from .. import full_like, tensor
from .optimizer import Optimizer


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False):
        for name, v in (("learning rate", lr), ("lr_decay value", lr_decay),
                        ("weight_decay value", weight_decay),
                        ("initial_accumulator_value value", initial_accumulator_value),
                        ("epsilon value", eps)):
            if v < 0.0:
                raise ValueError(f"Invalid {name}: {v}")
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps,
                                      weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value,
                                      foreach=foreach, maximize=maximize,
                                      differentiable=differentiable))
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p] = {"step": tensor(0.0),
                                 "sum": full_like(p, group["initial_accumulator_value"])}

    def _step_group(self, group):
        lr, lr_decay, wd, eps = group["lr"], group["lr_decay"], group["weight_decay"], group["eps"]
        for p in self._params_with_grad(group):
            grad = p.grad
            state = self.state[p]
            state["step"].add_(1)
            step = state["step"].item()
            if group["maximize"]:
                grad = -grad
            if wd != 0:
                grad = grad.add(p, alpha=wd)
            clr = lr / (1 + (step - 1) * lr_decay)
            state["sum"].add_(grad * grad)
            p.add_(grad / state["sum"].sqrt().add_(eps), alpha=-clr)
