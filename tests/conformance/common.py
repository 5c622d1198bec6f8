"""Shared pieces of the case tables: dtypes, tolerances, input makers (layouts and value domains), and
`reference`, which runs PyTorch and turns its result or its error into an Expected."""

import zlib

import torch

from fixture_format import Case, Expected, GradCase

BOOL = [torch.bool]
UNSIGNED = [torch.uint8]
SIGNED_INTS = [torch.int8, torch.int16, torch.int32, torch.int64]
INTS = UNSIGNED + SIGNED_INTS
REDUCED = [torch.float16, torch.bfloat16]
FLOATS = REDUCED + [torch.float32, torch.float64]
ALL = BOOL + INTS + FLOATS

SHORT = {
    torch.bool: "b8", torch.uint8: "u8", torch.int8: "i8", torch.int16: "i16", torch.int32: "i32",
    torch.int64: "i64", torch.float16: "f16", torch.bfloat16: "bf16", torch.float32: "f32",
    torch.float64: "f64", torch.complex64: "c64", torch.complex128: "c128",
}

# PyTorch's own assert_close defaults; `k` widens rtol for ops whose kernels may differ by a few ulp.
TOLERANCE = {
    torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5),
    torch.float32: (1.3e-6, 1e-5), torch.float64: (1e-7, 1e-7),
    torch.complex64: (1.3e-6, 1e-5), torch.complex128: (1e-7, 1e-7),
}


def tolerance(dtypes, k=1.0):
    """rtol/atol for a result computed from inputs of these dtypes: the loosest one applies."""
    rtol, atol = 0.0, 0.0
    for d in dtypes:
        r, a = TOLERANCE.get(d, (0.0, 0.0))
        rtol, atol = max(rtol, r * k), max(atol, a)
    return rtol, atol


# ---- value domains: (dtype, numel) -> flat tensor of that dtype ----

def _ints(lo, hi):
    def make(dtype, n):
        if dtype == torch.bool:
            return torch.randint(0, 2, (n,)).bool()
        if dtype == torch.uint8:
            return torch.randint(max(lo, 0), hi + 1, (n,)).to(dtype)
        if dtype.is_floating_point:
            return (torch.randn(n, dtype=torch.float64) * max(abs(lo), abs(hi)) / 2).to(dtype)
        return torch.randint(lo, hi + 1, (n,)).to(dtype)
    return make


def domain_any(dtype, n):
    return _ints(-9, 9)(dtype, n)


def domain_nonzero(dtype, n):
    """Divisors: integral values avoid 0 (int division by zero raises); floats stay away from 0."""
    if dtype == torch.bool:
        return torch.ones(n, dtype=dtype)
    if dtype.is_floating_point:
        v = torch.rand(n, dtype=torch.float64) * 4 + 0.5
        sign = torch.randint(0, 2, (n,)) * 2 - 1
        return (v * sign).to(dtype)
    v = _ints(1, 9)(dtype, n)
    if dtype != torch.uint8:
        v = v * (torch.randint(0, 2, (n,)) * 2 - 1).to(dtype)
    return v


def domain_positive(dtype, n):
    if dtype == torch.bool:
        return torch.ones(n, dtype=dtype)
    if dtype.is_floating_point:
        return (torch.rand(n, dtype=torch.float64) * 3 + 0.1).to(dtype)
    return _ints(1, 3)(dtype, n)


def domain_small(dtype, n):
    """Small magnitudes: pow bases and exponents (integral pow must not overflow)."""
    if dtype.is_floating_point:
        return (torch.rand(n, dtype=torch.float64) * 4 - 2).to(dtype)
    return _ints(-3, 3)(dtype, n) if dtype != torch.uint8 else _ints(0, 3)(dtype, n)


def domain_exponent(dtype, n):
    if dtype.is_floating_point:
        return (torch.rand(n, dtype=torch.float64) * 4 - 2).to(dtype)
    return _ints(0, 3)(dtype, n)


SPECIALS = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 1.0, -1.0, 2.5]


def special_pair(dtype):
    """Every pair of special float values, as two flat tensors (a[i], b[i])."""
    v = torch.tensor(SPECIALS, dtype=torch.float64)
    return v.repeat_interleave(len(SPECIALS)).to(dtype), v.repeat(len(SPECIALS)).to(dtype)


# ---- layouts: how a tensor of `shape` is viewed out of a base storage ----

LAYOUTS = ["contiguous", "transposed", "strided", "expanded"]


def make_tensor(shape, dtype, domain=domain_any, layout="contiguous"):
    """A tensor of `shape` whose values come from `domain`, laid out as `layout`:
    transposed (last two dims swapped in memory), strided (every other element, non-zero offset),
    expanded (size-1 dims broadcast with stride 0). Layouts that don't apply fall back to contiguous."""
    shape = tuple(shape)
    numel = 1
    for s in shape:
        numel *= s
    if layout == "transposed" and len(shape) >= 2:
        base_shape = shape[:-2] + (shape[-1], shape[-2])
        return domain(dtype, numel).reshape(base_shape).transpose(-1, -2)
    if layout == "strided" and len(shape) >= 1:
        base_shape = (shape[0] + 1,) + shape[1:-1] + (shape[-1] * 2,) if len(shape) > 1 \
            else (shape[0] * 2 + 1,)
        base_numel = 1
        for s in base_shape:
            base_numel *= s
        base = domain(dtype, base_numel).reshape(base_shape)
        return base[1:, ..., ::2] if len(shape) > 1 else base[1::2]
    if layout == "expanded" and len(shape) >= 1 and numel > 0:
        small = (1,) + shape[1:]
        n = numel // shape[0]
        return domain(dtype, n).reshape(small).expand(shape)
    return domain(dtype, numel).reshape(shape)


def clone_like_layout(t):
    """A fresh tensor with t's values and t's exact geometry (for in-place targets)."""
    storage = torch.empty(0, dtype=t.dtype).set_(t.storage(), 0, (t.storage().size(),), (1,)).clone()
    return torch.empty(0, dtype=t.dtype).set_(storage.storage(), t.storage_offset(), t.shape, t.stride())


# ---- running the reference ----

def _is_reduced_unimplemented(e, dtypes):
    msg = str(e)
    return "not implemented for 'Half'" in msg or "not implemented for 'BFloat16'" in msg


def reference(fn, args, kwargs, upcast_reduced=True):
    """Runs PyTorch. Returns (Expected, note). When CPU PyTorch 1.13 lacks a Half/BFloat16 kernel, the
    reference is computed in float32 and rounded to the reduced dtype (note = "upcast")."""
    try:
        return Expected(value=_detach(fn(*args, **kwargs))), ""
    except Exception as e:  # noqa: BLE001 - any PyTorch error is an expected error
        if upcast_reduced and _is_reduced_unimplemented(e, None):
            return _upcast_reference(fn, args, kwargs), "upcast"
        return Expected(error=f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"), ""


def _detach(v):
    if isinstance(v, torch.Tensor):
        return v.detach()
    if isinstance(v, (list, tuple)):
        return [_detach(x) for x in v]
    return v


def _upcast_reference(fn, args, kwargs):
    def up(x):
        if isinstance(x, torch.Tensor) and x.dtype in REDUCED:
            return x.float()
        return x
    reduced = [a.dtype for a in list(args) + list(kwargs.values())
               if isinstance(a, torch.Tensor) and a.dtype in REDUCED]
    try:
        r = fn(*[up(a) for a in args], **{k: up(v) for k, v in kwargs.items()})
    except Exception as e:  # noqa: BLE001
        return Expected(error=f"{type(e).__name__}: {str(e).splitlines()[0][:200]}")
    target = reduced[0] if reduced else None

    def down(x):
        if isinstance(x, torch.Tensor) and x.dtype == torch.float32 and target is not None:
            return x.to(target)
        return x
    return Expected(value=_detach(down(r)) if not isinstance(r, (list, tuple)) else [down(x) for x in r])


# Note [Error memo]: PyTorch 1.13 spends ~10 ms building a C++ backtrace for every error it raises, which
# dominates generation time. An error that a signature (op, kwargs, scalar values, tensor dtypes, shapes
# and whether they have stride-0 dims) once raised is reused for the same signature; cases whose error
# depends on tensor values (integer division by zero) pass cache_errors=False.
_ERROR_MEMO = {}


def _signature(op, args, kwargs):
    def sig(v):
        if isinstance(v, torch.Tensor):
            return ("T", v.dtype, tuple(v.shape), 0 in v.stride())
        if isinstance(v, (list, tuple)):
            return tuple(sig(x) for x in v)
        return (type(v).__name__, repr(v))
    return (op, tuple(sig(a) for a in args), tuple((k, sig(v)) for k, v in kwargs.items()))


def _input_magnitude(args):
    m = 0.0
    for a in args:
        if isinstance(a, torch.Tensor) and a.numel() > 0:
            v = a.double().abs()
            v = v[torch.isfinite(v)]
            if v.numel() > 0:
                m = max(m, v.max().item())
        elif isinstance(a, (int, float)) and not isinstance(a, bool) and abs(a) != float("inf"):
            m = max(m, abs(float(a)))
    return m


def make_case(op, label, fn, args, kwargs=None, k=1.0, flags=0, upcast_reduced=True,
              tol_dtypes=None, cache_errors=True, grad=True):
    """Runs the reference on copies of the inputs (so in-place ops don't change the recorded inputs)
    and returns a Case. Tolerance follows the float dtypes among inputs and output."""
    kwargs = kwargs or {}
    key = _signature(op, args, kwargs)
    if cache_errors and key in _ERROR_MEMO:
        case = Case(op, label, args, kwargs, _ERROR_MEMO[key], 0.0, 0.0, flags)
        case.fn = fn
        return case
    run_args = [clone_like_layout(a) if isinstance(a, torch.Tensor) else a for a in args]
    run_kwargs = {n: clone_like_layout(v) if isinstance(v, torch.Tensor) else v for n, v in kwargs.items()}
    expected, note = reference(fn, run_args, run_kwargs, upcast_reduced)
    if cache_errors and expected.error is not None:
        _ERROR_MEMO[key] = expected
    dtypes = list(tol_dtypes or [])
    for v in list(args) + list(kwargs.values()) + [expected.value]:
        if isinstance(v, torch.Tensor):
            dtypes.append(v.dtype)
        if isinstance(v, (list, tuple)):
            dtypes += [x.dtype for x in v if isinstance(x, torch.Tensor)]
    if note == "upcast":
        k *= 2
        label += " [ref upcast]"
    rtol, atol = tolerance(dtypes, k)
    if any(d in REDUCED for d in dtypes):
        # Note [Reduced-precision cancellation]: PyTorch may round an intermediate (alpha * other) to
        # Half/BFloat16 where brasa keeps float, so results that cancel differ by an ulp of the inputs.
        atol = max(atol, rtol * _input_magnitude(args))
    case = Case(op, label, args, kwargs, expected, rtol, atol, flags)
    case.fn = fn  # not in the fixture: drive_python.py replays it through brasa's Python API
    if expected.error is None and grad:
        case.grad = gradient_reference(op, label, fn, args, kwargs, rtol)
    return case


# Note [Gradient conformance]: every case whose forward succeeds also records PyTorch's gradients
# when the op is differentiable there: the float32/float64 tensor inputs become leaves that require
# grad, the float outputs get seeded random grad_outputs, and torch.autograd.grad gives the input
# gradients (None where an input is unused). The runner replays this through brasa's autograd.
# In-place and out= forms are skipped (their inputs are not leaves that may be modified).
GRAD_DTYPES = (torch.float32, torch.float64, torch.complex64, torch.complex128)
GRAD_MAX_NUMEL = 4096


def _float_outputs(v):
    items = v if isinstance(v, (list, tuple)) else [v]
    return [x for x in items if isinstance(x, torch.Tensor) and x.requires_grad]


def gradient_reference(op, label, fn, args, kwargs, rtol):
    if op.endswith("_") or op.endswith("_out") or "out" in kwargs:
        return None
    slots = [("arg", i, a) for i, a in enumerate(args)] + [("kw", n, v) for n, v in kwargs.items()]
    slots = [s for s in slots if isinstance(s[2], torch.Tensor) and s[2].dtype in GRAD_DTYPES
             and 0 < s[2].numel() <= GRAD_MAX_NUMEL]
    if not slots:
        return None
    leaves = {(kind, key): clone_like_layout(t).requires_grad_() for kind, key, t in slots}
    run_args = [leaves.get(("arg", i), clone_like_layout(a) if isinstance(a, torch.Tensor) else a)
                for i, a in enumerate(args)]
    run_kwargs = {n: leaves.get(("kw", n), clone_like_layout(v) if isinstance(v, torch.Tensor) else v)
                  for n, v in kwargs.items()}
    try:
        outs = _float_outputs(fn(*run_args, **run_kwargs))
        if not outs:
            return None
        # Its own generator, so the inputs of later cases do not depend on whether this one had grads.
        gen = torch.Generator().manual_seed(zlib.crc32((op + label).encode()))
        # A complex output gets a complex grad_output (both parts random), so the conjugations of
        # the complex chain rule are all exercised.
        grad_outputs = [torch.randn(o.shape, dtype=torch.complex128 if o.is_complex() else torch.float64,
                                    generator=gen).to(o.dtype)
                        for o in outs]
        inputs = [leaves[(kind, key)] for kind, key, _ in slots]
        grads = torch.autograd.grad(outs, inputs, grad_outputs, allow_unused=True)
    except Exception:  # noqa: BLE001 - not differentiable in PyTorch: nothing to compare
        return None
    scale = max([g.detach().abs().max().item() for g in grads if g is not None and g.numel()] + [1.0])
    grtol = max(rtol * 8, 1e-6)
    gatol = max(1e-5, grtol * scale)
    return GradCase(grad_outputs, [(kind, key, None if g is None else g.detach())
                                   for (kind, key, _), g in zip(slots, grads)], grtol, gatol)
