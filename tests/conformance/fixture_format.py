"""Writer of the conformance fixture format (read by fixture.cpp; the layout is documented in README.md).

Everything is little-endian. A fixture file is:
    magic b"BRCF", u32 version, u32 case_count, then case_count cases.
A case is:
    str op, str label, u32 flags, f64 rtol, f64 atol,
    u32 arg_count, Value args..., u32 kwarg_count, (str name, Value)...,
    u8 outcome (0 = value follows, 1 = error: str message follows), Value expected | str message.
A Value is a u8 tag and its payload (see TAG_*). A tensor is written with its real geometry over its real
storage, so the C++ side rebuilds exactly the same view (same sizes, strides and storage offset).
"""

import struct

import torch

MAGIC = b"BRCF"
VERSION = 2

TAG_NONE, TAG_BOOL, TAG_INT, TAG_FLOAT, TAG_STR, TAG_DTYPE, TAG_TENSOR, TAG_LIST, TAG_ELLIPSIS, TAG_SLICE = range(10)

FLAG_CHECK_STRIDES = 1  # compare the output's strides, not only its values
FLAG_SKIP_VALUES = 2  # compare dtype and shape only (empty, empty_like)

# c10::ScalarType codes, which brasa::ScalarType keeps.
DTYPE_CODE = {
    torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3, torch.int64: 4,
    torch.float16: 5, torch.float32: 6, torch.float64: 7, torch.complex64: 9, torch.complex128: 10,
    torch.bool: 11, torch.bfloat16: 15,
}


class Ellipsis_:
    """The `...` index (Python's Ellipsis also works)."""


class Slice:
    """A Slice(start, stop, step) index; None parts are absent."""

    def __init__(self, start=None, stop=None, step=None):
        self.start, self.stop, self.step = start, stop, step

    def py(self):
        return slice(self.start, self.stop, self.step)


class Expected:
    """What a case expects: a value, or an error (message kept for the report)."""

    def __init__(self, value=None, error=None):
        self.value, self.error = value, error


class GradCase:
    """PyTorch's gradients for a case: grad_outputs (one per float output that requires grad) and,
    per differentiable input slot ("arg", index) or ("kw", name), the expected gradient or None."""

    def __init__(self, grad_outputs, inputs, rtol, atol):
        self.grad_outputs, self.inputs, self.rtol, self.atol = grad_outputs, inputs, rtol, atol


class Case:
    def __init__(self, op, label, args, kwargs, expected, rtol, atol, flags=0):
        self.op, self.label, self.args, self.kwargs = op, label, list(args), dict(kwargs)
        self.expected, self.rtol, self.atol, self.flags = expected, rtol, atol, flags
        self.grad = None


def _str(out, s):
    b = s.encode()
    out += struct.pack("<I", len(b)) + b


def _storage_tensor(t):
    """The whole storage of t as a flat contiguous tensor of t's dtype."""
    storage = t.storage()
    return torch.empty(0, dtype=t.dtype).set_(storage, 0, (storage.size(),), (1,))


def _tensor(out, t):
    # A lazily conjugated (or negated) view keeps the unconjugated values in its storage, which is
    # what gets written: materialize it first (PyTorch's gradient of conj() is such a view).
    t = t.detach().resolve_conj().resolve_neg()
    flat = _storage_tensor(t)
    out += struct.pack("<BI", DTYPE_CODE[t.dtype], t.dim())
    out += struct.pack(f"<{t.dim()}q", *t.shape)
    out += struct.pack(f"<{t.dim()}q", *t.stride())
    out += struct.pack("<qQ", t.storage_offset(), flat.numel())
    raw = flat.view(torch.uint8) if flat.dtype != torch.bool else flat.to(torch.uint8)
    out += raw.numpy().tobytes()


def write_value(out, v):
    if v is None:
        out += bytes([TAG_NONE])
    elif isinstance(v, bool):
        out += struct.pack("<B?", TAG_BOOL, v)
    elif isinstance(v, int):
        out += struct.pack("<Bq", TAG_INT, v)
    elif isinstance(v, float):
        out += struct.pack("<Bd", TAG_FLOAT, v)
    elif isinstance(v, str):
        out += bytes([TAG_STR])
        _str(out, v)
    elif isinstance(v, torch.dtype):
        out += struct.pack("<BB", TAG_DTYPE, DTYPE_CODE[v])
    elif isinstance(v, torch.Tensor):
        out += bytes([TAG_TENSOR])
        _tensor(out, v)
    elif isinstance(v, (list, tuple)):
        out += struct.pack("<BI", TAG_LIST, len(v))
        for x in v:
            write_value(out, x)
    elif v is Ellipsis or isinstance(v, Ellipsis_):
        out += bytes([TAG_ELLIPSIS])
    elif isinstance(v, Slice):
        out += bytes([TAG_SLICE])
        for x in (v.start, v.stop, v.step):
            write_value(out, x)
    else:
        raise TypeError(f"fixture: cannot encode {type(v)}")


def _grad(out, g):
    if g is None:
        out += bytes([0])
        return
    out += struct.pack("<Bdd", 1, g.rtol, g.atol)
    out += struct.pack("<I", len(g.grad_outputs))
    for t in g.grad_outputs:
        write_value(out, t)
    out += struct.pack("<I", len(g.inputs))
    for kind, key, expected in g.inputs:
        if kind == "arg":
            out += struct.pack("<BI", 0, key)
        else:
            out += bytes([1])
            _str(out, key)
        write_value(out, expected)


def write_fixture(path, cases):
    out = bytearray(MAGIC + struct.pack("<II", VERSION, len(cases)))
    for c in cases:
        _str(out, c.op)
        _str(out, c.label)
        out += struct.pack("<Idd", c.flags, c.rtol, c.atol)
        out += struct.pack("<I", len(c.args))
        for a in c.args:
            write_value(out, a)
        out += struct.pack("<I", len(c.kwargs))
        for k, a in c.kwargs.items():
            _str(out, k)
            write_value(out, a)
        if c.expected.error is not None:
            out += bytes([1])
            _str(out, c.expected.error)
        else:
            out += bytes([0])
            write_value(out, c.expected.value)
        _grad(out, getattr(c, "grad", None))
    with open(path, "wb") as f:
        f.write(out)
