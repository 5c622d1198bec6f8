"""RMSprop (torch 1.13's update, state and defaults; tensor ops, no fused kernel)."""
from .. import tensor, zeros_like
from .optimizer import Optimizer


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, foreach=None, maximize=False, differentiable=False):
        for name, v in (("learning rate", lr), ("epsilon value", eps), ("momentum value", momentum),
                        ("weight_decay value", weight_decay), ("alpha value", alpha)):
            if v < 0.0:
                raise ValueError(f"Invalid {name}: {v}")
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps,
                                      centered=centered, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize,
                                      differentiable=differentiable))

    def _step_group(self, group):
        lr, alpha, eps, wd = group["lr"], group["alpha"], group["eps"], group["weight_decay"]
        momentum, centered = group["momentum"], group["centered"]
        for p in self._params_with_grad(group):
            grad = p.grad
            state = self.state[p]
            if not state:
                state["step"] = tensor(0.0)
                state["square_avg"] = zeros_like(p)
                if momentum > 0:
                    state["momentum_buffer"] = zeros_like(p)
                if centered:
                    state["grad_avg"] = zeros_like(p)
            state["step"].add_(1)
            if group["maximize"]:
                grad = -grad
            if wd != 0:
                grad = grad.add(p, alpha=wd)
            sq = state["square_avg"]
            sq.mul_(alpha).add_(grad * grad, alpha=1 - alpha)
            if centered:
                ga = state["grad_avg"]
                ga.mul_(alpha).add_(grad, alpha=1 - alpha)
                avg = (sq - ga * ga).sqrt_().add_(eps)
            else:
                avg = sq.sqrt().add_(eps)
            if momentum > 0:
                buf = state["momentum_buffer"]
                buf.mul_(momentum).add_(grad / avg)
                p.add_(buf, alpha=-lr)
            else:
                p.add_(grad / avg, alpha=-lr)
