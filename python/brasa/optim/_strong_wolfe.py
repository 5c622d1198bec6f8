"""The strong-Wolfe line search LBFGS uses with line_search_fn="strong_wolfe": bracketing then
zoom with safeguarded cubic interpolation (Nocedal & Wright, Numerical Optimization, algorithms
3.5 and 3.6, in the form of minFunc / torch7's lswolfe that torch 1.13 follows).

Step sizes, losses and directional derivatives keep the types torch 1.13 gives them: losses are
Python floats, directional derivatives 0-d tensors of the parameters' dtype, and a step computed
by interpolation is such a tensor too. The comparisons then promote the same way (a float32
derivative compares in float32), so the search takes the same branches and the same steps as
torch's."""

C1 = 1e-4  # sufficient decrease (Armijo)
C2 = 0.9  # curvature
MAX_LS = 25


def cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1 and g2, clamped to
    `bounds` (default: the interval between x1 and x2); the bounds' midpoint when the cubic has
    no real minimiser."""
    lo, hi = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    a = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    disc = a ** 2 - g1 * g2
    if not disc >= 0:
        return (lo + hi) / 2.
    b = disc.sqrt()
    # measured from the farther of the two points, as the reference formula is written
    if x1 <= x2:
        x = x2 - (x2 - x1) * ((g2 + b - a) / (g2 - g1 + 2 * b))
    else:
        x = x1 - (x1 - x2) * ((g1 + b - a) / (g1 - g2 + 2 * b))
    return min(max(x, lo), hi)


class _Point:
    """A trial step: its size, loss, gradient and directional derivative."""
    __slots__ = ("t", "f", "g", "gtd")

    def __init__(self, t, f, g, gtd):
        self.t, self.f, self.g, self.gtd = t, f, g, gtd


def strong_wolfe(evaluate, t, d, f, g, gtd, tolerance_change=1e-9):
    """Searches along `d` from the current point (loss f, gradient g, directional derivative gtd)
    starting with step t. evaluate(t) gives (loss, flat gradient) at step t along d.

    Returns (loss, gradient, step, evaluations) of the accepted step."""
    d_norm = d.abs().max()
    start = _Point(0, f, g.clone(), gtd)
    evals = 0

    def trial(step):
        nonlocal evals
        loss, grad = evaluate(step)
        evals += 1
        return _Point(step, loss, grad, grad.dot(d))

    def armijo_fails(p):
        return p.f > (f + C1 * p.t * gtd)

    def curvature_holds(p):
        return abs(p.gtd) <= -C2 * gtd

    # Phase 1: grow the step until an interval [lo, hi] brackets acceptable steps, or one is.
    prev, cur = start, trial(t)
    bracket = None  # [a, b] of _Point; found: the accepted point
    found = None
    iters = 0
    while iters < MAX_LS:
        if armijo_fails(cur) or (iters > 1 and cur.f >= prev.f):
            bracket = [prev, _Point(cur.t, cur.f, cur.g.clone(), cur.gtd)]
            break
        if curvature_holds(cur):
            found = cur
            break
        if cur.gtd >= 0:
            bracket = [prev, _Point(cur.t, cur.f, cur.g.clone(), cur.gtd)]
            break
        nxt = cubic_minimum(prev.t, prev.f, prev.gtd, cur.t, cur.f, cur.gtd,
                            bounds=(cur.t + 0.01 * (cur.t - prev.t), cur.t * 10))
        prev = _Point(cur.t, cur.f, cur.g.clone(), cur.gtd)
        cur = trial(nxt)
        iters += 1
    if found is None and bracket is None:  # out of evaluations: [0, last step]
        bracket = [start, cur]
    if found is not None:
        return found.f, found.g, found.t, evals

    # Phase 2 (zoom): shrink the bracket around a step meeting both conditions. `low` indexes
    # the end with the lower loss (the first on ties).
    low = 0 if bracket[0].f <= bracket[-1].f else 1
    stalled = False
    done = False
    while not done and iters < MAX_LS:
        a, b = bracket
        if abs(b.t - a.t) * d_norm < tolerance_change:
            break
        step = cubic_minimum(a.t, a.f, a.gtd, b.t, b.f, b.gtd)
        left, right = min(a.t, b.t), max(a.t, b.t)
        margin = 0.1 * (right - left)
        # Safeguard: a step hugging an end of the bracket twice running (or outside it) is
        # moved a tenth of the bracket inwards from the nearer end.
        if min(right - step, step - left) < margin:
            if stalled or step >= right or step <= left:
                step = right - margin if abs(step - right) < abs(step - left) else left + margin
                stalled = False
            else:
                stalled = True
        else:
            stalled = False
        p = trial(step)
        iters += 1
        high = 1 - low
        if armijo_fails(p) or p.f >= bracket[low].f:
            bracket[high] = _Point(p.t, p.f, p.g.clone(), p.gtd)
            low = 0 if bracket[0].f <= bracket[1].f else 1
        else:
            if curvature_holds(p):
                done = True
            elif p.gtd * (bracket[high].t - bracket[low].t) >= 0:
                bracket[high] = bracket[low]
            bracket[low] = _Point(p.t, p.f, p.g.clone(), p.gtd)
    best = bracket[low]
    return best.f, best.g, best.t, evals
