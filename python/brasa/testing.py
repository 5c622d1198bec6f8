"""brasa.testing.assert_close: torch.testing.assert_close's comparison (|a - e| <= atol + rtol *
|e| elementwise, default tolerances by dtype, dtype / device / shape checked) and its message."""
import numpy as _np

from . import _C

# torch 1.13's defaults (rtol, atol) by dtype; integers and bool compare exactly.
_TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
               "float64": (1e-7, 1e-7), "complex64": (1.3e-6, 1e-5),
               "complex128": (1e-7, 1e-7)}


def _as_tensor(x):
    import brasa
    return x if isinstance(x, _C.Tensor) else brasa.as_tensor(x)


def _name(dtype):
    return repr(dtype).split(".")[-1]


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    if (rtol is None) != (atol is None):
        raise ValueError("assert_close: rtol and atol must both be given or both be omitted, got "
                         f"rtol={rtol}, atol={atol}")
    options = dict(rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=check_device,
                   check_dtype=check_dtype, check_stride=check_stride, msg=msg)
    if isinstance(actual, (list, tuple)) and isinstance(expected, (list, tuple)) and \
            any(isinstance(x, _C.Tensor) for x in list(actual) + list(expected)):
        if len(actual) != len(expected):
            raise AssertionError(f"The length of the sequences mismatch: {len(actual)} != "
                                 f"{len(expected)}")
        for a, e in zip(actual, expected):
            assert_close(a, e, **options)
        return
    if isinstance(actual, dict) and isinstance(expected, dict):
        if actual.keys() != expected.keys():
            raise AssertionError(f"The keys of the mappings do not match: {sorted(actual)} != "
                                 f"{sorted(expected)}")
        for k in actual:
            assert_close(actual[k], expected[k], **options)
        return
    a, e = _as_tensor(actual), _as_tensor(expected)

    def fail(text):
        raise AssertionError(msg if isinstance(msg, str) else text)

    if tuple(a.shape) != tuple(e.shape):
        fail(f"The values for attribute 'shape' do not match: {a.shape} != {e.shape}.")
    if check_device and a.device != e.device:
        fail(f"The values for attribute 'device' do not match: {a.device} != {e.device}.")
    if check_dtype and a.dtype != e.dtype:
        fail(f"The values for attribute 'dtype' do not match: {a.dtype} != {e.dtype}.")
    if check_stride and a.stride() != e.stride():
        fail(f"The values for attribute 'stride()' do not match: {a.stride()} != {e.stride()}.")
    if rtol is None:
        rtol_a, atol_a = _TOLERANCES.get(_name(a.dtype), (0.0, 0.0))
        rtol_e, atol_e = _TOLERANCES.get(_name(e.dtype), (0.0, 0.0))
        rtol, atol = max(rtol_a, rtol_e), max(atol_a, atol_e)
    av = a.detach().to("cpu").numpy().astype(_np.complex128 if a.is_complex() else _np.float64)
    ev = e.detach().to("cpu").numpy().astype(av.dtype)
    close = _np.isclose(av, ev, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if close.all():
        return
    diff = _np.abs(av - ev)
    kind = "Scalars" if a.dim() == 0 else "Tensor-likes"
    total, bad = close.size, int((~close).sum())
    with _np.errstate(divide="ignore", invalid="ignore"):
        rel = diff / _np.abs(ev)
    diff_f = _np.where(_np.isnan(diff), _np.inf, diff)
    rel_f = _np.where(_np.isnan(rel), _np.inf, rel)
    i_abs = _np.unravel_index(int(_np.argmax(diff_f)), diff.shape) if diff.ndim else ()
    i_rel = _np.unravel_index(int(_np.argmax(rel_f)), rel.shape) if rel.ndim else ()
    where = lambda i: f" at index {tuple(int(j) for j in i)}" if a.dim() else ""  # noqa: E731
    text = (f"{kind} are not close!\n\n"
            f"Mismatched elements: {bad} / {total} ({100.0 * bad / total:.1f}%)\n"
            f"Greatest absolute difference: {float(diff[i_abs])}{where(i_abs)} "
            f"(up to {atol} allowed)\n"
            f"Greatest relative difference: {float(rel[i_rel])}{where(i_rel)} "
            f"(up to {rtol} allowed)")
    fail(text)
