"""Complex dtypes (complex64 = ComplexFloat, complex128 = ComplexDouble): factories, conversions to and
from every real dtype, arithmetic and comparisons with promotion against every real dtype, the parts
(real, imag, conj, abs, angle), the views (view_as_real, view_as_complex), complex() and polar(), and
complex sums; over layouts, broadcasting, 0-d and empty tensors. Gradients (complex grad_outputs for
complex results) follow Note [Gradient conformance]. Results that PyTorch returns as views of complex
storage are cloned here, so the fixture holds their values (brasa's view geometry is tested in
tests/ops/test_complex.cpp)."""

import torch

from common import ALL, FLOATS, SHORT, domain_any, domain_nonzero, make_case, make_tensor

COMPLEX = [torch.complex64, torch.complex128]
LAYOUTS = ["contiguous", "transposed", "strided", "expanded"]


def domain_complex(dtype, n):
    if dtype.is_complex:
        return (torch.randn(n, dtype=torch.complex128) * 2).to(dtype)
    return domain_any(dtype, n)


def domain_complex_nonzero(dtype, n):
    """Divisors: |z| in [0.5, 2.5]."""
    if dtype.is_complex:
        z = torch.randn(n, dtype=torch.complex128)
        return (z / z.abs() * (torch.rand(n, dtype=torch.float64) * 2 + 0.5)).to(dtype)
    return domain_nonzero(dtype, n)


def parts_cases():
    out = []
    unary = {
        "real": lambda t: torch.real(t).clone(),
        "imag": lambda t: torch.imag(t).clone(),
        "conj": lambda t: torch.conj(t).resolve_conj().clone(),
        "conj_physical": torch.conj_physical,
        "abs": torch.abs,
        "angle": torch.angle,
        "neg": torch.neg,
        "view_as_real": lambda t: torch.view_as_real(t).clone(),
        "sum": torch.sum,
    }
    for d in COMPLEX:
        for name, fn in unary.items():
            for layout in LAYOUTS:
                a = make_tensor((3, 4), d, domain_complex, layout)
                out.append(make_case(name, f"{SHORT[d]} {layout}", fn, [a], k=8))
            out.append(make_case(name, f"{SHORT[d]} 0-d", fn, [make_tensor((), d, domain_complex)], k=8))
            out.append(make_case(name, f"{SHORT[d]} empty", fn, [make_tensor((0, 3), d, domain_complex)], k=8))
        out.append(make_case("sum", f"{SHORT[d]} dim 1", torch.sum, [
            make_tensor((3, 5), d, domain_complex, "transposed")], {"dim": 1}, k=8))
        # abs and angle at 0 and on the axes (their gradients are defined as 0 at 0, like sgn).
        z = torch.tensor([0, 1, -1, 1j, -1j, 3 - 4j], dtype=d)
        out.append(make_case("abs", f"{SHORT[d]} axes and 0", torch.abs, [z]))
        out.append(make_case("angle", f"{SHORT[d]} axes and 0", torch.angle, [z], grad=False))
    # Real inputs: real() is the tensor itself, imag() raises, angle() is 0 or pi.
    for d in [torch.float32, torch.float64, torch.int64, torch.bool]:
        a = make_tensor((2, 3), d)
        out.append(make_case("real", f"{SHORT[d]} real input", lambda t: torch.real(t).clone(), [a], grad=False))
        out.append(make_case("imag", f"{SHORT[d]} real input", torch.imag, [a], grad=False))
        out.append(make_case("conj", f"{SHORT[d]} real input", lambda t: torch.conj(t).clone(), [a], grad=False))
    for d in [torch.float32, torch.float64, torch.int64, torch.int32]:
        v = torch.tensor([-2, 0, 3, -1, 5], dtype=torch.float64)
        if d.is_floating_point:
            v = torch.cat([v, torch.tensor([float("nan"), float("-inf"), -0.5])])
        out.append(make_case("angle", f"{SHORT[d]} real input", torch.angle, [v.to(d)], grad=False))
    return out


def view_cases():
    out = []
    for d in [torch.float32, torch.float64]:
        for shape in [(3, 2), (2, 3, 2), (2,)]:
            out.append(make_case("view_as_complex", f"{SHORT[d]} {shape}",
                                 lambda t: torch.view_as_complex(t).clone(), [make_tensor(shape, d)]))
        for shape, what in [((3, 3), "last dim 3"), ((), "0-d")]:
            out.append(make_case("view_as_complex", f"{SHORT[d]} {what}", torch.view_as_complex,
                                 [make_tensor(shape, d)], grad=False))
        out.append(make_case("view_as_complex", f"{SHORT[d]} last stride 2", torch.view_as_complex,
                             [make_tensor((2, 3), d).t()], grad=False))
    for d in [torch.bfloat16, torch.int64]:
        out.append(make_case("view_as_complex", f"{SHORT[d]} dtype", torch.view_as_complex,
                             [make_tensor((3, 2), d)], grad=False))
    for d in [torch.float32, torch.int64]:
        out.append(make_case("view_as_real", f"{SHORT[d]} real input", torch.view_as_real,
                             [make_tensor((3,), d)], grad=False))
    for d in [torch.float32, torch.float64]:
        re, im = make_tensor((2, 3), d), make_tensor((3,), d)
        out.append(make_case("complex", f"{SHORT[d]} broadcast", torch.complex, [re, im]))
        out.append(make_case("complex", f"{SHORT[d]} transposed", torch.complex,
                             [make_tensor((3, 4), d, layout="transposed"), make_tensor((3, 4), d)]))
        r = make_tensor((4,), d, lambda dt, n: (torch.rand(n, dtype=torch.float64) + 0.1).to(dt))
        out.append(make_case("polar", f"{SHORT[d]}", torch.polar, [r, make_tensor((2, 4), d)]))
    out.append(make_case("complex", "f32 f64", torch.complex,
                         [make_tensor((2,), torch.float32), make_tensor((2,), torch.float64)], grad=False))
    return out


def arith_cases():
    out = []
    ops = {"add": (torch.add, domain_complex), "sub": (torch.sub, domain_complex),
           "mul": (torch.mul, domain_complex), "div": (torch.div, domain_complex_nonzero),
           "eq": (torch.eq, domain_complex), "ne": (torch.ne, domain_complex)}
    for name, (fn, dom) in ops.items():
        for c in COMPLEX:
            # complex with every dtype, both orders (promotion table and kernels)
            for other in ALL + COMPLEX:
                a = make_tensor((2, 3), c, domain_complex)
                b = make_tensor((2, 3), other, dom)
                out.append(make_case(name, f"{SHORT[c]} {SHORT[other]}", fn, [a, b]))
                out.append(make_case(name, f"{SHORT[other]} {SHORT[c]}", fn,
                                     [make_tensor((2, 3), other, domain_complex), make_tensor((2, 3), c, dom)]))
            for layout in LAYOUTS:
                a = make_tensor((3, 4), c, domain_complex, layout)
                b = make_tensor((3, 4), c, dom, "transposed")
                out.append(make_case(name, f"{SHORT[c]} {layout}", fn, [a, b]))
            out.append(make_case(name, f"{SHORT[c]} broadcast", fn,
                                 [make_tensor((3, 1), c, domain_complex), make_tensor((4,), c, dom)]))
            out.append(make_case(name, f"{SHORT[c]} empty", fn,
                                 [make_tensor((0, 2), c, domain_complex), make_tensor((2,), c, dom)]))
            # 0-d operands of the other category (lower priority): float tensor with 0-d complex,
            # complex tensor with 0-d double, and Python float scalars.
            for d in [torch.float32, torch.float64, torch.int64]:
                out.append(make_case(name, f"{SHORT[d]} dim, 0-d {SHORT[c]}", fn,
                                     [make_tensor((3,), d, domain_complex), make_tensor((), c, dom)]))
                out.append(make_case(name, f"{SHORT[c]} dim, 0-d {SHORT[d]}", fn,
                                     [make_tensor((3,), c, domain_complex), make_tensor((), d, dom)]))
            out.append(make_case(name, f"{SHORT[c]} python float", fn, [make_tensor((3,), c, domain_complex), 2.5]))
        out.append(make_case(name, "f32 c64 broadcast grads", fn,
                             [make_tensor((2, 3), torch.float32, domain_complex),
                              make_tensor((3,), torch.complex64, dom)]))
    # alpha on complex add/sub
    for c in COMPLEX:
        a, b = make_tensor((4,), c, domain_complex), make_tensor((4,), c, domain_complex)
        out.append(make_case("add", f"{SHORT[c]} alpha 2.5", torch.add, [a, b], {"alpha": 2.5}))
        out.append(make_case("sub", f"{SHORT[c]} alpha -3", torch.sub, [a, b], {"alpha": -3}))
    return out


def conversion_cases():
    out = []
    for c in COMPLEX:
        for d in ALL + COMPLEX:
            if d in FLOATS or d in COMPLEX or d == torch.bool:
                a = make_tensor((3, 4), c, domain_complex, "transposed")
            else:
                # Integral targets: values inside the target's range (C++ leaves others undefined).
                a = make_tensor((3, 4), c, lambda dt, n: (torch.randint(0, 100, (n,)) + 1j * torch.randn(n)).to(dt))
            out.append(make_case("to", f"{SHORT[c]} -> {SHORT[d]}", lambda t, dt: t.to(dt), [a, d]))
            out.append(make_case("to", f"{SHORT[d]} -> {SHORT[c]}", lambda t, dt: t.to(dt),
                                 [make_tensor((3, 4), d, layout="strided"), c]))
            dst = make_tensor((2, 3), d, layout="transposed")
            out.append(make_case("copy_", f"{SHORT[c]} into {SHORT[d]}", lambda x, s: x.copy_(s),
                                 [dst, make_tensor((3,), c, domain_complex)]))
            out.append(make_case("copy_", f"{SHORT[d]} into {SHORT[c]}", lambda x, s: x.copy_(s),
                                 [make_tensor((2, 3), c, domain_complex, "transposed"), make_tensor((2, 3), d)]))
    return out


def factory_cases():
    out = []
    for c in COMPLEX:
        for name, fn in (("zeros", torch.zeros), ("ones", torch.ones)):
            out.append(make_case(name, f"{SHORT[c]}", fn, [[2, 3]], {"dtype": c}))
        out.append(make_case("full", f"{SHORT[c]} 2.5", torch.full, [[2, 2], 2.5], {"dtype": c}))
    return out


def cases():
    return parts_cases() + view_cases() + arith_cases() + conversion_cases() + factory_cases()
