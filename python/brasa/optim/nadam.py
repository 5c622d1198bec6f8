"""NAdam (torch 1.13's update and defaults): Adam with Nesterov momentum and the momentum
schedule mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay)).

The second term's step uses 1 - mu_1...mu_t * mu_{t+1}, as the paper and torch 1.13's foreach
path (and torch >= 2.0 everywhere) do; torch 1.13's default single-tensor path multiplies by mu_t
once more."""
from .. import tensor, zeros_like
from ._checks import check_betas, check_non_negative
from .optimizer import Optimizer


class NAdam(Optimizer):
    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, foreach=None):
        check_non_negative(learning_rate=lr, epsilon_value=eps, weight_decay_value=weight_decay,
                           momentum_decay=momentum_decay)
        check_betas(betas)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay, foreach=foreach))

    def _step_group(self, group):
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        wd, psi = group["weight_decay"], group["momentum_decay"]
        for p in self._params_with_grad(group):
            g = p.grad
            state = self.state[p]
            if not state:
                state.update(step=tensor(0.0), mu_product=tensor(1.0), exp_avg=zeros_like(p),
                             exp_avg_sq=zeros_like(p))
            state["step"].add_(1)
            step = state["step"].item()
            if wd != 0:
                g = g.add(p, alpha=wd)
            mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * psi))
            mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * psi))
            state["mu_product"].mul_(mu)
            mu_product = state["mu_product"].item()
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            exp_avg.mul_(beta1).add_(g, alpha=1 - beta1)
            exp_avg_sq.mul_(beta2).add_(g * g, alpha=1 - beta2)
            denom = exp_avg_sq.div(1 - beta2 ** step).sqrt_().add_(eps)
            p.add_(g / denom, alpha=-lr * (1 - mu) / (1 - mu_product))
            p.add_(exp_avg / denom, alpha=-lr * mu_next / (1 - mu_product * mu_next))


