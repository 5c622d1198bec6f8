#!/usr/bin/env python3
"""Drives brasa's Python API with the conformance suite's own cases (issue 19).

Note [Conformance through Python]
generate.py turns each case of cases_<family>.py into a fixture that the C++ runner replays through
libbrasa; this script replays the same cases through `import brasa` instead. Every case keeps the
PyTorch callable it was built from (Case.fn: `torch.var`, `lambda x: x.sum(1, keepdim=True)`,
`lambda a, b: F.conv2d(a, b, stride=2)`, ...). The callable is rebound to brasa: a function of
torch (or a method of torch.Tensor) becomes brasa's function of the same name in the same
namespace, and a function written in a cases file gets a copy whose globals and closure cells name
brasa's modules, dtypes and functions where they named torch's. Its inputs become brasa tensors
with the same values and geometry (storage, strides, offset), and its result is compared with
PyTorch's under the case's tolerances, as the C++ runner does; where PyTorch raised, brasa must
raise. Cases that record gradients replay them through brasa.autograd.grad.

Known gaps are listed in python_known_failures.txt (kind | op regex | label regex | reason), like
the C++ runner's known_failures.txt. Exit 0 when every failure is excused, 1 otherwise.

    drive_python.py --families unary,binary [--all] [--limit N]
"""
import argparse
import builtins
import functools
import importlib
import os
import re
import sys
import time
import types
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import torch  # noqa: E402

import brasa  # noqa: E402

# ---- torch -> brasa ------------------------------------------------------------------------------
_NAMESPACES = [("torch", torch, brasa), ("torch.Tensor", torch.Tensor, brasa.Tensor)]
for _sub in ("nn", "nn.functional", "nn.init", "linalg", "fft", "special", "autograd"):
    _t = importlib.import_module("torch." + _sub)
    try:
        _b = importlib.import_module("brasa." + _sub)
    except ImportError:
        _b = None
    _NAMESPACES.append(("torch." + _sub, _t, _b))


class Missing:
    """What a torch name becomes when brasa has no counterpart: calling or using it raises."""

    def __init__(self, what):
        self.what = what

    def __call__(self, *a, **k):
        raise NoCounterpart(self.what)

    def __getattr__(self, name):
        raise NoCounterpart(f"{self.what}.{name}")


class NoCounterpart(Exception):
    pass


@functools.lru_cache(maxsize=None)
def _reverse_map():
    """id(torch object) -> brasa object, for every public name of the torch namespaces."""
    m = {}
    for label, t_ns, b_ns in _NAMESPACES:
        for name in dir(t_ns):
            if name.startswith("__") and label != "torch.Tensor":
                continue
            try:
                obj = getattr(t_ns, name)
            except Exception:  # noqa: BLE001
                continue
            if isinstance(obj, (int, float, str, bool)) or obj is None:
                continue
            # A module may hold an object under a second name (torch.obj, a leftover loop
            # variable): the entry under the object's own name wins.
            own = getattr(obj, "__name__", name) == name
            if id(obj) in m and not own:
                continue
            b = getattr(b_ns, name, None) if b_ns is not None else None
            m[id(obj)] = (b if b is not None else Missing(f"brasa counterpart of {label}.{name}"), obj)
    return m


def _module_counterpart(mod):
    name = "brasa" + mod.__name__[len("torch"):]
    try:
        return importlib.import_module(name)
    except ImportError:
        return Missing(name)


_DTYPES = {getattr(torch, n): getattr(brasa, n) for n in
           ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
            "float64", "complex64", "complex128") if hasattr(brasa, n)}


def to_brasa(v, memo=None):
    """A torch value (tensor, dtype, function, module, container) as brasa's."""
    if memo is None:
        memo = {}
    key = id(v)
    if key in memo:
        return memo[key][0]
    r = _to_brasa(v, memo)
    memo[key] = (r, v)  # v kept alive so its id is not reused
    return r


def _tensor(t):
    n = t.storage().size()
    flat = torch.empty(0, dtype=t.dtype).set_(t.storage(), 0, (n,), (1,)).clone()
    if t.dtype == torch.bfloat16:  # NumPy has no bfloat16
        b = brasa.from_dlpack(flat)
    else:
        b = brasa.from_numpy(flat.numpy())
    b = b.clone()  # brasa's own memory, which an out= argument may grow as PyTorch's does
    return b.as_strided(list(t.shape), list(t.stride()), t.storage_offset())


def _to_brasa(v, memo):
    if isinstance(v, torch.Tensor):
        return _tensor(v.detach())
    if isinstance(v, torch.dtype):
        return _DTYPES.get(v) or Missing(f"brasa dtype {v}")
    if isinstance(v, torch.Size):
        return tuple(v)
    if isinstance(v, torch.device):
        return brasa.device(str(v))
    if isinstance(v, (torch.layout, torch.memory_format)):
        return getattr(brasa, str(v).split(".")[-1], Missing(str(v)))
    if isinstance(v, list):
        return [to_brasa(x, memo) for x in v]
    if isinstance(v, tuple):
        return tuple(to_brasa(x, memo) for x in v)
    if isinstance(v, dict):
        return {k: to_brasa(x, memo) for k, x in v.items()}
    if isinstance(v, types.ModuleType):
        return _module_counterpart(v) if v.__name__.split(".")[0] == "torch" else v
    if isinstance(v, (int, float, complex, str, bool, type(None), type(Ellipsis), slice, range)):
        return v
    hit = _reverse_map().get(id(v))
    if hit is not None:
        return hit[0]
    if isinstance(v, functools.partial):
        return functools.partial(to_brasa(v.func, memo), *to_brasa(v.args, memo),
                                 **to_brasa(v.keywords, memo))
    if isinstance(v, types.FunctionType):
        if (v.__module__ or "").split(".")[0] == "torch":
            return Missing(f"brasa counterpart of {v.__module__}.{v.__qualname__}")
        return _rebind(v, memo)
    if isinstance(v, types.MethodType) and isinstance(v.__self__, torch.Tensor):
        return getattr(to_brasa(v.__self__, memo), v.__name__)
    if isinstance(v, type) and (v.__module__ or "").startswith("torch"):
        return Missing(f"brasa counterpart of {v.__module__}.{v.__qualname__}")
    if isinstance(v, (types.BuiltinFunctionType, types.BuiltinMethodType)) and \
            (getattr(v, "__module__", None) or "").startswith("torch"):
        home = _BUILTIN_HOMES.get(v.__module__)
        if home is not None:  # torch._C._fft.fft_fft -> brasa.fft.fft
            name = v.__name__.removeprefix(home[1])
            found = getattr(importlib.import_module(home[0]), name, None)
            if found is not None:
                return found
        return Missing(f"brasa counterpart of {v.__module__}.{v.__name__}")
    if isinstance(v, (torch._ops.OpOverloadPacket, torch._ops.OpOverload)):
        # torch.ops.aten.x(.overload) -> brasa.ops.aten.x (the registry op of that aten name)
        packet = v if isinstance(v, torch._ops.OpOverloadPacket) else v.overloadpacket
        namespace, name = packet._qualified_op_name.split("::")
        found = getattr(brasa.ops, namespace, None)
        found = getattr(found, name, None) if found is not None else None
        return found if found is not None else Missing(f"brasa counterpart of {v!r}")
    if (type(v).__module__ or "").split(".")[0] == "torch":  # torch.finfo, ...
        return Missing(f"brasa counterpart of {v!r}")
    return v  # numpy values, the cases' own objects, ...


# The C modules behind torch's public namespaces: their builtins' brasa home and the prefix they
# drop. torch._C._nn's functions take aten's arguments (reduction as an int), as brasa._C._nn's
# do (the C++ nn functions nn.functional is written over), not nn.functional's.
_BUILTIN_HOMES = {"torch._C._fft": ("brasa.fft", "fft_"),
                  "torch._C._linalg": ("brasa.linalg", "linalg_"),
                  "torch._C._special": ("brasa.special", "special_"),
                  "torch._C._nn": ("brasa._C._nn", ""),
                  "torch._C._VariableFunctions": ("brasa", "")}
_GLOBALS = {}


def _rebind(fn, memo):
    """A copy of fn (written in a cases file) whose globals, closure cells and defaults name brasa."""
    gid = id(fn.__globals__)
    g = _GLOBALS.get(gid)
    if g is None:
        g = _LazyGlobals(fn.__globals__)
        _GLOBALS[gid] = g
    cells = None
    if fn.__closure__:
        cells = tuple(types.CellType(to_brasa(c.cell_contents, memo)) if _filled(c) else c
                      for c in fn.__closure__)
    defaults = to_brasa(fn.__defaults__, memo) if fn.__defaults__ else None
    f = types.FunctionType(fn.__code__, g.table(fn.__code__), fn.__name__, defaults, cells)
    f.__kwdefaults__ = to_brasa(fn.__kwdefaults__, memo) if fn.__kwdefaults__ else None
    return f


def _filled(cell):
    try:
        cell.cell_contents
        return True
    except ValueError:
        return False


class _LazyGlobals:
    """The brasa version of a module's globals, converted name by name as code reads them."""

    def __init__(self, source):
        self.source = source
        self.converted = {"__builtins__": builtins}

    def table(self, code):
        names = set(code.co_names)
        for c in code.co_consts:  # nested lambdas and comprehensions read globals too
            if isinstance(c, types.CodeType):
                names |= set(c.co_names)
        for n in names:
            if n not in self.converted and n in self.source:
                self.converted[n] = to_brasa(self.source[n], {})
        return self.converted


# ---- brasa -> numbers to compare -----------------------------------------------------------------
def _short(d):
    return str(d).split(".")[-1]


def _as_torch(b):
    """brasa tensor -> torch tensor with the same values (bfloat16 through float32)."""
    b = b.detach()
    if _short(b.dtype) == "bfloat16":
        return torch.from_numpy(b.to(brasa.float32).contiguous().numpy().copy()).to(torch.bfloat16)
    return torch.from_numpy(np.array(b.contiguous().numpy(), copy=True))


def _close(actual, expected, rtol, atol):
    if expected.dtype == torch.bool or not (expected.is_floating_point() or expected.is_complex()):
        return torch.equal(actual, expected)
    if expected.is_complex():
        return _close(actual.real, expected.real, rtol, atol) and \
            _close(actual.imag, expected.imag, rtol, atol)
    a, e = actual.double(), expected.double()
    both_nan = torch.isnan(a) & torch.isnan(e)
    inf = torch.isinf(e) | torch.isinf(a)
    ok = both_nan | (inf & (a == e)) | (~inf & ((a - e).abs() <= atol + rtol * e.abs()))
    return bool(ok.all())


def compare(actual, expected, rtol, atol, flags):
    """None when actual (brasa) matches expected (PyTorch); else (kind, detail)."""
    if isinstance(expected, torch.Tensor):
        if not isinstance(actual, brasa.Tensor):
            return "values", f"expected a tensor, got {type(actual).__name__}"
        if _short(actual.dtype) != _short(expected.dtype):
            return "dtype", f"{_short(actual.dtype)} vs {_short(expected.dtype)}"
        if list(actual.shape) != list(expected.shape):
            return "shape", f"{list(actual.shape)} vs {list(expected.shape)}"
        if flags & 2:
            return None
        if flags & 1 and expected.numel() > 1 and list(actual.stride()) != list(expected.stride()):
            return "strides", f"{list(actual.stride())} vs {list(expected.stride())}"
        if not _close(_as_torch(actual), expected, rtol, atol):
            return "values", "values differ"
        return None
    if isinstance(expected, (list, tuple)):
        if not isinstance(actual, (list, tuple)) or len(actual) != len(expected):
            return "values", f"expected a sequence of {len(expected)}, got {type(actual).__name__}"
        for a, e in zip(actual, expected):
            r = compare(a, e, rtol, atol, flags)
            if r:
                return r
        return None
    if isinstance(expected, torch.dtype):
        return None if _short(actual) == _short(expected) else ("dtype", f"{actual} vs {expected}")
    if isinstance(expected, bool) or expected is None or isinstance(expected, str):
        return None if actual == expected else ("values", f"{actual!r} vs {expected!r}")
    if isinstance(expected, (int, float, complex)):
        if isinstance(actual, brasa.Tensor) or not isinstance(actual, (int, float, complex)):
            return "values", f"expected a Python number, got {type(actual).__name__}"
        if expected != expected:
            return None if actual != actual else ("values", f"{actual!r} vs nan")
        return None if abs(actual - expected) <= atol + rtol * abs(expected) or actual == expected \
            else ("values", f"{actual!r} vs {expected!r}")
    return None if actual == expected else ("values", f"{actual!r} vs {expected!r}")


# ---- one case ------------------------------------------------------------------------------------
def run_case(case):
    """None when brasa agrees with PyTorch; else (kind, detail)."""
    memo = {}
    try:
        fn = to_brasa(case.fn, memo)
        args = [to_brasa(a, memo) for a in case.args]
        kwargs = {k: to_brasa(v, memo) for k, v in case.kwargs.items()}
    except NoCounterpart as e:
        return "no-counterpart", str(e)
    try:
        actual = fn(*args, **kwargs)
    except NoCounterpart as e:
        return "no-counterpart", str(e)
    except Exception as e:  # noqa: BLE001 - any brasa error
        if case.expected.error is not None:
            return None
        return "unexpected-error", f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
    if case.expected.error is not None:
        return "missing-error", f"PyTorch: {case.expected.error[:120]}"
    r = compare(actual, case.expected.value, case.rtol, case.atol, case.flags)
    if r is None and case.grad is not None:
        r = run_gradient(case)
    return r


def run_gradient(case):
    memo = {}
    fn = to_brasa(case.fn, memo)
    leaves = {}
    args = []
    for i, a in enumerate(case.args):
        b = to_brasa(a, {})
        if any(kind == "arg" and key == i for kind, key, _ in case.grad.inputs):
            b = b.detach().requires_grad_()
            leaves[("arg", i)] = b
        args.append(b)
    kwargs = {}
    for n, v in case.kwargs.items():
        b = to_brasa(v, {})
        if any(kind == "kw" and key == n for kind, key, _ in case.grad.inputs):
            b = b.detach().requires_grad_()
            leaves[("kw", n)] = b
        kwargs[n] = b
    try:
        out = fn(*args, **kwargs)
        outs = [o for o in (out if isinstance(out, (list, tuple)) else [out])
                if isinstance(o, brasa.Tensor) and o.requires_grad]
        if len(outs) != len(case.grad.grad_outputs):
            return "grad", f"{len(outs)} outputs require grad, PyTorch: {len(case.grad.grad_outputs)}"
        inputs = [leaves[(kind, key)] for kind, key, _ in case.grad.inputs]
        grads = brasa.autograd.grad(outs, inputs, [to_brasa(g) for g in case.grad.grad_outputs],
                                    allow_unused=True)
    except Exception as e:  # noqa: BLE001
        return "grad", f"{type(e).__name__}: {str(e).splitlines()[0][:160]}"
    for (kind, key, want), got in zip(case.grad.inputs, grads):
        if want is None:
            continue  # unused in PyTorch: brasa may give None or zeros
        if got is None:
            return "grad", f"no gradient for {kind} {key}"
        r = compare(got, want, case.grad.rtol, case.grad.atol, 0)
        if r:
            return "grad", f"{kind} {key}: {r[1]}"
    return None


# ---- known failures, report ----------------------------------------------------------------------
def load_known(path):
    known = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        kind, op, label, reason = [p.strip() for p in line.split(" | ", 3)]
        known.append([kind, re.compile(op), re.compile(label), reason, 0, line, path])
    return known


def excused(known, kind, case):
    for k in known:
        if (k[0] == kind or k[0] == "*") and k[1].fullmatch(case.op) and k[2].fullmatch(case.label):
            k[4] += 1
            return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--families", required=True)
    ap.add_argument("--known", action="append",
                    help="known-failure files (default: known_failures.txt, which the C++ runner "
                         "uses too, and python_known_failures.txt)")
    ap.add_argument("--all", action="store_true", help="print every failure (default: 60)")
    ap.add_argument("--limit", type=int, default=0, help="cases per family (0: all)")
    ap.add_argument("--record", action="store_true",
                    help="append a line per new (kind, op) failure to python_known_failures.txt")
    ap.add_argument("--prune", action="store_true",
                    help="delete the lines of python_known_failures.txt that excused nothing "
                         "(run it over every family)")
    args = ap.parse_args()
    torch.set_num_threads(1)
    brasa.set_num_threads(1)
    known = []
    for path in args.known or [os.path.join(HERE, "known_failures.txt"),
                               os.path.join(HERE, "python_known_failures.txt")]:
        known += load_known(path)
    failures, by_op, checked, ops = [], {}, 0, set()
    start = time.time()
    for family in args.families.split(","):
        torch.manual_seed(zlib.crc32(family.encode()))  # generate.py's inputs
        cases = importlib.import_module(f"cases_{family}").cases()
        if args.limit:
            cases = cases[:args.limit]
        for case in cases:
            checked += 1
            ops.add(case.op)
            r = run_case(case)
            if r is None or excused(known, r[0], case):
                continue
            failures.append((family, case.op, case.label, r[0], r[1]))
            by_op[(case.op, r[0])] = by_op.get((case.op, r[0]), 0) + 1
    for f in failures[: None if args.all else 60]:
        print("FAIL [%s] %s | %s | %s: %s" % f)
    if by_op:
        print("failures by op:")
        for (op, kind), n in sorted(by_op.items(), key=lambda x: -x[1]):
            print(f"  {op} ({kind}): {n}")
    for k in known:  # the lines of the Python list that no case needed (a subset of families runs
        if k[4] == 0 and k[6].endswith("python_known_failures.txt") and not args.limit:
            print(f"note: known failure no longer excuses anything: {k[5]}")
    if args.record and not args.limit:  # new gaps: one line per (kind, op), its first message
        seen, lines = set(), []
        for family, op, label, kind, detail in failures:
            if (kind, op) not in seen:
                seen.add((kind, op))
                n = sum(1 for f in failures if f[1] == op and f[3] == kind)
                lines.append(f"{kind} | {re.escape(op)} | .* | {detail.replace(' | ', ' / ')[:140]}"
                             f" ({n} cases)\n")
        with open(os.path.join(HERE, "python_known_failures.txt"), "a") as f:
            f.writelines(lines)
        print(f"recorded {len(lines)} lines")
    if args.prune and not args.limit:
        stale = {k[5] for k in known if k[4] == 0 and k[6].endswith("python_known_failures.txt")}
        path = os.path.join(HERE, "python_known_failures.txt")
        lines = open(path).read().splitlines(keepends=True)
        open(path, "w").write("".join(x for x in lines if x.strip() not in stale))
        print(f"pruned {len(stale)} lines from {path}")
    print(f"python conformance: {len(ops)} ops, {checked} cases checked, {len(failures)} failed "
          f"({time.time() - start:.0f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
