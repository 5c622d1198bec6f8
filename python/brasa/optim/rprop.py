"""Rprop (torch 1.13's update and defaults): per-element step sizes grown by etaplus while the
gradient keeps its sign and shrunk by etaminus when it flips (that step then skips the element)."""
from .. import _ops, full_like, tensor, zeros_like
from ._checks import check_non_negative
from .optimizer import Optimizer


class Rprop(Optimizer):
    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), foreach=None,
                 maximize=False):
        check_non_negative(learning_rate=lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach,
                                      maximize=maximize))

    def _step_group(self, group):
        (etaminus, etaplus), (step_min, step_max) = group["etas"], group["step_sizes"]
        for p in self._params_with_grad(group):
            g = -p.grad if group["maximize"] else p.grad
            state = self.state[p]
            if not state:
                state.update(step=tensor(0.0), prev=zeros_like(p),
                             step_size=full_like(g, group["lr"]))
            state["step"].add_(1)
            sign = (g * state["prev"]).sign()
            factor = _ops.where(sign > 0, full_like(g, etaplus),
                                _ops.where(sign < 0, full_like(g, etaminus), full_like(g, 1.0)))
            step_size = state["step_size"]
            step_size.mul_(factor).clamp_(step_min, step_max)
            g = _ops.where(sign < 0, zeros_like(g), g)
            p.add_(g.sign() * step_size, alpha=-1)
            state["prev"].copy_(g)
