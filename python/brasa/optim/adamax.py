"""Adamax (torch 1.13's update and defaults): Adam with the infinity norm of past gradients."""
from .. import _ops, tensor, zeros_like
from ._checks import check_betas, check_non_negative
from .optimizer import Optimizer


class Adamax(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False):
        check_non_negative(learning_rate=lr, epsilon_value=eps, weight_decay_value=weight_decay)
        check_betas(betas)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize))

    def _step_group(self, group):
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], \
            group["weight_decay"]
        for p in self._params_with_grad(group):
            g = -p.grad if group["maximize"] else p.grad
            state = self.state[p]
            if not state:
                state.update(step=tensor(0.0), exp_avg=zeros_like(p), exp_inf=zeros_like(p))
            state["step"].add_(1)
            step = state["step"].item()
            if wd != 0:
                g = g.add(p, alpha=wd)
            exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
            exp_avg.mul_(beta1).add_(g, alpha=1 - beta1)
            exp_inf.copy_(_ops.maximum(exp_inf * beta2, g.abs().add_(eps)))
            p.add_(exp_avg / exp_inf, alpha=-lr / (1 - beta1 ** step))
