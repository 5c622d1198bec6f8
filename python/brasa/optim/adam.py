"""Adam and AdamW: the registry's _fused_adam_ (the step C++'s brasa::optim::Adam/AdamW take)
when the tensors allow, the same formula otherwise. State as torch 1.13 keeps it: step (a 0-d
tensor), exp_avg, exp_avg_sq, max_exp_avg_sq when amsgrad."""
import math

from .. import _C, _ops, tensor, zeros_like
from .optimizer import Optimizer


class Adam(Optimizer):
    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)

    def _step_group(self, group):
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        wd, amsgrad, maximize = group["weight_decay"], group["amsgrad"], group["maximize"]
        decoupled = self._decoupled
        for p in self._params_with_grad(group):
            grad = p.grad
            state = self.state[p]
            if not state:
                state["step"] = tensor(0.0)
                state["exp_avg"] = zeros_like(p)
                state["exp_avg_sq"] = zeros_like(p)
                if amsgrad:
                    state["max_exp_avg_sq"] = zeros_like(p)
            step_t = state["step"]
            step_t.add_(1)
            step = step_t.item()
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            max_sq = state.get("max_exp_avg_sq") if amsgrad else None
            bc1 = 1 - beta1 ** step
            bc2_sqrt = math.sqrt(1 - beta2 ** step)
            step_size = lr / bc1
            tensors = (p, grad, exp_avg, exp_avg_sq) + ((max_sq,) if amsgrad else ())
            if p.dtype in (_C.float32, _C.float64) and all(
                    t.is_contiguous() and t.dtype == p.dtype and t.shape == p.shape
                    for t in tensors):
                _ops._fused_adam_(p, grad, exp_avg, exp_avg_sq, max_sq, beta1, beta2, eps,
                                  0.0 if decoupled else wd, 1 - lr * wd if decoupled else 1.0,
                                  step_size, bc2_sqrt, maximize)
                continue
            g = grad.neg() if maximize else grad
            if decoupled:
                p.mul_(1 - lr * wd)
            elif wd != 0:
                g = g.add(p, alpha=wd)
            exp_avg.mul_(beta1).add_(g, alpha=1 - beta1)
            exp_avg_sq.mul_(beta2).add_(g * g, alpha=1 - beta2)
            second = exp_avg_sq
            if amsgrad:
                max_sq.copy_(_ops.maximum(max_sq, exp_avg_sq))
                second = max_sq
            denom = (second.sqrt() / bc2_sqrt).add_(eps)
            p.add_(exp_avg / denom, alpha=-step_size)


class AdamW(Adam):
    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused)
