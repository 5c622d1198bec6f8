"""Tensor printing with torch 1.13's layout and number formatting (precision 4, threshold 1000,
edge items 3, line width 80), written from its observable behaviour; dtypes print as `brasa.X`.
The values are read through NumPy (half precision types as float32)."""
import math

import numpy as np

PRECISION = 4
THRESHOLD = 1000
EDGEITEMS = 3
LINEWIDTH = 80
SCI_MODE = None  # None: chosen per tensor; True / False: forced (set_printoptions)

_PROFILES = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80),
             "full": (4, float("inf"), 3, 80)}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """torch.set_printoptions: a profile ("default", "short", "full") first, then the options
    given; sci_mode=None lets each tensor choose again."""
    global PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH, SCI_MODE
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(f"set_printoptions: unknown profile {profile!r}, expected one of "
                             f"{sorted(_PROFILES)}")
        PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH = _PROFILES[profile]
    PRECISION = PRECISION if precision is None else precision
    THRESHOLD = THRESHOLD if threshold is None else threshold
    EDGEITEMS = EDGEITEMS if edgeitems is None else edgeitems
    LINEWIDTH = LINEWIDTH if linewidth is None else linewidth
    SCI_MODE = sci_mode


class _Formatter:
    """Chooses integer, fixed or scientific notation for a whole tensor, and the common width."""

    def __init__(self, values, floating):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        flat = values.reshape(-1)
        if not floating:
            for v in flat.tolist():
                self.width = max(self.width, len(str(v)))
            return
        # Only the finite nonzero values choose the notation and the width: nan, inf and 0 are
        # padded to it (and may be wider, as in torch).
        shown = flat[np.isfinite(flat) & (flat != 0)]
        if shown.size == 0:
            return
        magnitudes = np.abs(shown.astype(np.float64))
        lo, hi = float(magnitudes.min()), float(magnitudes.max())
        self.int_mode = bool(np.all(shown == np.ceil(shown)))
        if self.int_mode:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8
        else:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        if SCI_MODE is not None:
            self.sci_mode = SCI_MODE
        for v in shown.tolist():
            self.width = max(self.width, len(self.format(v)))

    def format(self, v):
        if not self.floating:
            text = str(v)
        elif self.sci_mode:
            text = f"{v:.{PRECISION}e}"
        elif self.int_mode:
            text = f"{v:.0f}"
            if not (math.isinf(v) or math.isnan(v)):
                text += "."
        else:
            text = f"{v:.{PRECISION}f}"
        return " " * (self.width - len(text)) + text


def _summarized(a):
    """Keeps the first and last EDGEITEMS of every dim longer than 2 * EDGEITEMS."""
    if a.ndim == 0:
        return a
    if a.shape[0] > 2 * EDGEITEMS:
        parts = [a[:EDGEITEMS], a[-EDGEITEMS:]]
        return np.concatenate([_summarized_rows(p) for p in parts])
    return _summarized_rows(a)


def _summarized_rows(a):
    if a.ndim <= 1:
        return a
    return np.stack([_summarized(row) for row in a]) if a.shape[0] else a


def _vector_str(a, indent, summarize, fmt):
    element_length = fmt.width + 2
    per_line = max(1, int(math.floor((LINEWIDTH - indent) / element_length)))
    values = a.tolist()
    if summarize and len(values) > 2 * EDGEITEMS:
        data = [fmt.format(v) for v in values[:EDGEITEMS]] + [" ..."]
        data += [fmt.format(v) for v in values[-EDGEITEMS:]]
    else:
        data = [fmt.format(v) for v in values]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(a, indent, summarize, fmt):
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        return _vector_str(a, indent, summarize, fmt)
    rows = range(a.shape[0])
    if summarize and a.shape[0] > 2 * EDGEITEMS:
        head = [_nested_str(a[i], indent + 1, summarize, fmt) for i in rows[:EDGEITEMS]]
        tail = [_nested_str(a[i], indent + 1, summarize, fmt) for i in rows[-EDGEITEMS:]]
        slices = head + ["..."] + tail
    else:
        slices = [_nested_str(a[i], indent + 1, summarize, fmt) for i in rows]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _add_suffixes(text, suffixes, indent):
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(t):
    import brasa

    prefix = "tensor("
    indent = len(prefix)
    suffixes = []
    default = brasa.get_default_dtype()
    if t.numel() == 0 and t.dim() != 0:
        if t.dim() != 1:
            suffixes.append("size=" + str(tuple(t.shape)))
        if t.dtype != default:
            suffixes.append("dtype=" + repr(t.dtype))
        body = "[]"
    else:
        if t.dtype not in (default, brasa.int64, brasa.bool):
            suffixes.append("dtype=" + repr(t.dtype))
        a = t._numpy_for_print()
        summarize = a.size > THRESHOLD
        shown = _summarized(a) if summarize else a
        fmt = _Formatter(shown, t.dtype.is_floating_point)
        body = _nested_str(a if not summarize else a, indent, summarize, fmt)
    if t._grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{t._grad_fn_name}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
