"""RAdam (torch 1.13's update and defaults): Adam whose adaptive step is rectified by the
variance of its estimate, and plain momentum SGD while that variance is intractable (rho_t <= 5)."""
import math

from .. import tensor, zeros_like
from ._checks import check_betas, check_non_negative
from .optimizer import Optimizer


class RAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None):
        check_non_negative(learning_rate=lr, epsilon_value=eps, weight_decay_value=weight_decay)
        check_betas(betas)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      foreach=foreach))

    def _step_group(self, group):
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], \
            group["weight_decay"]
        rho_inf = 2 / (1 - beta2) - 1
        for p in self._params_with_grad(group):
            g = p.grad
            state = self.state[p]
            if not state:
                state.update(step=tensor(0.0), exp_avg=zeros_like(p), exp_avg_sq=zeros_like(p))
            state["step"].add_(1)
            step = state["step"].item()
            if wd != 0:
                g = g.add(p, alpha=wd)
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            exp_avg.mul_(beta1).add_(g, alpha=1 - beta1)
            exp_avg_sq.mul_(beta2).add_(g * g, alpha=1 - beta2)
            bc1, bc2 = 1 - beta1 ** step, 1 - beta2 ** step
            corrected = exp_avg / bc1
            rho_t = rho_inf - 2 * step * beta2 ** step / bc2
            if rho_t > 5.0:
                rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf
                                 / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
                adaptive = exp_avg_sq.sqrt().add_(eps).reciprocal_().mul_(math.sqrt(bc2))
                p.add_(corrected * adaptive, alpha=-lr * rect)
            else:
                p.add_(corrected, alpha=-lr)
