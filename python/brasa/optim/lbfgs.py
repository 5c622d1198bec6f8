"""L-BFGS (torch 1.13's algorithm and defaults, without line search): the step needs a closure
that re-evaluates the loss; directions come from the two-loop recursion over the last
`history_size` curvature pairs. Only one parameter group, as in torch."""
from .. import _C, cat, enable_grad, zeros
from .optimizer import Optimizer


class LBFGS(Optimizer):
    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None):
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        if line_search_fn is not None:
            if line_search_fn != "strong_wolfe":
                raise RuntimeError("only 'strong_wolfe' is supported")
            raise NotImplementedError("brasa.optim.LBFGS: line_search_fn='strong_wolfe' is not "
                                      "implemented; use line_search_fn=None")
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
        offset = 0
        for p in self._params:
            n = p.numel()
            p.add_(d[offset:offset + n].view_as(p), alpha=t)
            offset += n

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
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = self._evaluate(closure)
        loss = float(orig_loss)
        evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max().item() <= tol_grad:
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
                if ys.item() > 1e-10:
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
                t = min(1.0, 1.0 / flat_grad.abs().sum().item()) * lr
            else:
                t = lr
            if flat_grad.dot(d).item() > -tol_change:
                break
            self._add(t, d)
            more = 0
            opt_cond = False
            if n_iter != max_iter:
                loss = float(self._evaluate(closure))
                flat_grad = self._flat_grad()
                opt_cond = flat_grad.abs().max().item() <= tol_grad
                more = 1
            evals += more
            state["func_evals"] += more
            if n_iter == max_iter or evals >= max_eval or opt_cond:
                break
            if d.mul(t).abs().max().item() <= tol_change or abs(loss - prev_loss) < tol_change:
                break
        state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=h_diag,
                     prev_flat_grad=prev_grad, prev_loss=prev_loss)
        return orig_loss
