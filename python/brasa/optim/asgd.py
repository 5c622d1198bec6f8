"""ASGD (torch 1.13's update and defaults): SGD with a decaying step eta and a running average
`ax` of the iterates, started after t0 steps."""
from .. import tensor, zeros_like
from ._checks import check_non_negative
from .optimizer import Optimizer


class ASGD(Optimizer):
    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False):
        check_non_negative(learning_rate=lr, weight_decay_value=weight_decay)
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0,
                                      weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize))

    def _step_group(self, group):
        lr, lambd, alpha, t0, wd = (group[k] for k in ("lr", "lambd", "alpha", "t0",
                                                       "weight_decay"))
        for p in self._params_with_grad(group):
            g = -p.grad if group["maximize"] else p.grad
            state = self.state[p]
            if not state:
                state.update(step=tensor(0.0), eta=tensor(float(lr)), mu=tensor(1.0),
                             ax=zeros_like(p))
            state["step"].add_(1)
            step = state["step"].item()
            if wd != 0:
                g = g.add(p, alpha=wd)
            eta, mu = state["eta"].item(), state["mu"].item()
            p.mul_(1 - lambd * eta)
            p.add_(g, alpha=-eta)
            if mu != 1:
                state["ax"].add_((p - state["ax"]).mul_(mu))
            else:
                state["ax"].copy_(p)
            state["eta"].fill_(lr / ((1 + lambd * lr * step) ** alpha))
            state["mu"].fill_(1 / max(1, step - t0))
