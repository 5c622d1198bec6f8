"""SGD with momentum, dampening, Nesterov and weight decay: the registry's _fused_sgd_ (the same
step as C++'s brasa::optim::SGD) when the tensors allow, the same formula otherwise."""
from .. import _C, _ops
from .optimizer import Optimizer, required


def _fusable(t, p):
    return (t.is_contiguous() and t.dtype == p.dtype and t.shape == p.shape)


class SGD(Optimizer):
    def __init__(self, params, lr=required, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False, foreach=None, differentiable=False):
        if lr is not required and lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov,
                                      maximize=maximize, foreach=foreach,
                                      differentiable=differentiable))

    def _step_group(self, group):
        lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
        wd, nesterov, maximize = group["weight_decay"], group["nesterov"], group["maximize"]
        for p in self._params_with_grad(group):
            grad = p.grad
            state = self.state[p]
            buf = state.get("momentum_buffer") if momentum != 0 else None
            if (buf is not None and p.is_floating_point() and p.dtype in (_C.float32, _C.float64)
                    and _fusable(p, p) and _fusable(grad, p) and _fusable(buf, p)):
                _ops._fused_sgd_(p, grad, buf, lr, momentum, dampening, wd, nesterov, maximize)
                continue
            d_p = grad.neg() if maximize else grad
            if wd != 0:
                d_p = d_p.add(p, alpha=wd)
            if momentum != 0:
                if buf is None:
                    buf = state["momentum_buffer"] = d_p.clone()
                else:
                    buf.mul_(momentum).add_(d_p, alpha=1 - dampening)
                d_p = d_p.add(buf, alpha=momentum) if nesterov else buf
            elif "momentum_buffer" not in state:
                state["momentum_buffer"] = None
            p.add_(d_p, alpha=-lr)
