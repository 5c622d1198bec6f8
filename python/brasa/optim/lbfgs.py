"""L-BFGS (torch 1.13's algorithm and defaults): the step needs a closure that re-evaluates the
loss; directions come from the two-loop recursion over the last `history_size` curvature pairs;
the step along them is `lr` (the first one scaled by the gradient's size) or, with
line_search_fn="strong_wolfe", what the strong-Wolfe line search accepts. Only one parameter
group, as in torch. Scalars that torch keeps as 0-d tensors (step sizes, curvature products,
directional derivatives) are 0-d tensors here too, so every comparison promotes as torch's does
and the trajectories match."""
from .. import _C, Tensor, cat, enable_grad, zeros
from ._strong_wolfe import strong_wolfe
from .optimizer import Optimizer


class LBFGS(Optimizer):
    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None):
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        if line_search_fn not in (None, "strong_wolfe"):
            raise RuntimeError("only 'strong_wolfe' is supported")
        super().__init__(params, dict(lr=lr, max_iter=max_iter, max_eval=max_eval,
                                      tolerance_grad=tolerance_grad,
                                      tolerance_change=tolerance_change,
                                      history_size=history_size, line_search_fn=line_search_fn))
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def _flat_grad(self):
        return cat([p.grad.reshape(-1) if p.grad is not None else zeros(p.numel(), dtype=p.dtype)
                    for p in self._params])

    def _add(self, t, d):
        alpha = t.item() if isinstance(t, Tensor) else t  # a 0-d tensor alpha, as torch reads it
        offset = 0
        for p in self._params:
            n = p.numel()
            p.add_(d[offset:offset + n].view_as(p), alpha=alpha)
            offset += n

    def _evaluate_along(self, closure, x, t, d):
        """(loss, flat gradient) at the parameters x + t * d; the parameters are x again after."""
        self._add(t, d)
        loss = float(self._evaluate(closure))
        flat_grad = self._flat_grad()
        for p, saved in zip(self._params, x):
            p.copy_(saved)
        return loss, flat_grad

    def step(self, closure):
        """Runs up to max_iter iterations; returns the loss of the first closure call."""
        if closure is None:
            raise RuntimeError("LBFGS requires a closure that reevaluates the model")
        prev = _C.is_grad_enabled()
        _C._set_grad_enabled(False)
        try:
            return self._run(closure)
        finally:
            _C._set_grad_enabled(prev)

    def _evaluate(self, closure):
        with enable_grad():
            return closure()

    def _run(self, closure):
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tol_grad, tol_change = group["tolerance_grad"], group["tolerance_change"]
        history = group["history_size"]
        line_search = group["line_search_fn"]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = self._evaluate(closure)
        loss = float(orig_loss)
        evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max() <= tol_grad:
            return orig_loss
        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        h_diag, prev_grad = state.get("H_diag"), state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = flat_grad.neg()
                old_dirs, old_stps, ro, h_diag = [], [], [], 1
            else:
                y = flat_grad.sub(prev_grad)
                s = d.mul(t)
                ys = y.dot(s)
                if ys > 1e-10:
                    if len(old_dirs) == history:
                        old_dirs.pop(0), old_stps.pop(0), ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / y.dot(y)
                al = [None] * len(old_dirs)
                q = flat_grad.neg()
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q.add_(old_dirs[i], alpha=-al[i].item())
                d = r = q * h_diag
                for i in range(len(old_dirs)):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r.add_(old_stps[i], alpha=(al[i] - be_i).item())
            prev_grad = flat_grad.clone() if prev_grad is None else prev_grad.copy_(flat_grad)
            prev_loss = loss
            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr
            else:
                t = lr
            gtd = flat_grad.dot(d)
            if gtd > -tol_change:
                break
            more = 0
            opt_cond = False
            if line_search is not None:
                x = [p.clone() for p in self._params]
                loss, flat_grad, t, more = strong_wolfe(
                    lambda step: self._evaluate_along(closure, x, step, d), t, d, loss, flat_grad,
                    gtd)
                self._add(t, d)
                opt_cond = bool(flat_grad.abs().max() <= tol_grad)
            else:
                self._add(t, d)
                if n_iter != max_iter:
                    loss = float(self._evaluate(closure))
                    flat_grad = self._flat_grad()
                    opt_cond = bool(flat_grad.abs().max() <= tol_grad)
                    more = 1
            evals += more
            state["func_evals"] += more
            if n_iter == max_iter or evals >= max_eval or opt_cond:
                break
            if d.mul(t).abs().max() <= tol_change or abs(loss - prev_loss) < tol_change:
                break
        state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=h_diag,
                     prev_flat_grad=prev_grad, prev_loss=prev_loss)
        return orig_loss
