"""Adadelta (torch 1.13's update and defaults): per-element steps from running averages of the
squared gradients and of the squared updates."""
from .. import tensor, zeros_like
from ._checks import check_non_negative
from .optimizer import Optimizer


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 maximize=False):
        check_non_negative(learning_rate=lr, epsilon_value=eps, weight_decay_value=weight_decay)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize))

    def _step_group(self, group):
        lr, rho, eps, wd = group["lr"], group["rho"], group["eps"], group["weight_decay"]
        for p in self._params_with_grad(group):
            g = -p.grad if group["maximize"] else p.grad
            state = self.state[p]
            if not state:
                state.update(step=tensor(0.0), square_avg=zeros_like(p),
                             acc_delta=zeros_like(p))
            state["step"].add_(1)
            if wd != 0:
                g = g.add(p, alpha=wd)
            square_avg, acc_delta = state["square_avg"], state["acc_delta"]
            square_avg.mul_(rho).add_(g * g, alpha=1 - rho)
            delta = (acc_delta + eps).sqrt_().div_((square_avg + eps).sqrt_()).mul_(g)
            acc_delta.mul_(rho).add_(delta * delta, alpha=1 - rho)
            p.add_(delta, alpha=-lr)
