"""Math ops of brasa/ops/math.h, special.h and statistics.h: libtorch's aliases and composites (arccos,
greater_equal, addcdiv, logaddexp, xlogy, float_power, isclose, isin, ...), the special functions (lgamma,
digamma, polygamma, Bessel I0/I1, ndtri, erfcx, zeta, incomplete gamma, and the special_ names), and the
order statistics, NaN-ignoring reductions, cumulative ops, histograms and numerical calculus (median,
kthvalue, mode, quantile, nansum, cummax, logcumsumexp, histc, bincount, diff, trapezoid, cov, ...).
Every op: float32/float64 (and integral or reduced dtypes where the op takes them) over layouts, broadcast,
0-d and empty inputs, out= forms, values at the edges of the domain, errors; gradients as in
Note [Gradient conformance]. Inputs of ops that return indices have distinct values."""

import torch

from common import SHORT, domain_any, make_case, make_tensor

F = [torch.float32, torch.float64]
LAYOUTS = ["contiguous", "transposed", "strided", "expanded"]


def uniform(lo, hi):
    def make(dtype, n):
        return (torch.rand(n, dtype=torch.float64) * (hi - lo) + lo).to(dtype)
    return make


def distinct(dtype, n):
    v = torch.randperm(n).double() - n // 2
    if dtype.is_floating_point:
        v = v * 0.5 + 0.25
    return v.to(dtype)


ANY = domain_any
UNIT = uniform(-0.95, 0.95)
POS = uniform(0.1, 6.0)
OPEN01 = uniform(0.02, 0.98)

# name -> (torch function, domain, extra dtypes beyond float32/float64, gradient)
UNARY = {
    "arccos": (torch.arccos, UNIT, [torch.int64], True),
    "arcsin": (torch.arcsin, UNIT, [], True),
    "arctan": (torch.arctan, ANY, [torch.int32], True),
    "arccosh": (torch.arccosh, uniform(1.1, 6.0), [], True),
    "arcsinh": (torch.arcsinh, ANY, [torch.int64], True),
    "arctanh": (torch.arctanh, UNIT, [], True),
    "acosh": (torch.acosh, uniform(1.1, 6.0), [torch.float16], True),
    "asinh": (torch.asinh, ANY, [torch.bfloat16], True),
    "atanh": (torch.atanh, UNIT, [], True),
    "fix": (torch.fix, ANY, [torch.int64], True),
    "sgn": (torch.sgn, ANY, [torch.int64, torch.complex64], True),
    "deg2rad": (torch.deg2rad, ANY, [torch.int64], True),
    "rad2deg": (torch.rad2deg, ANY, [torch.int32], True),
    "sinc": (torch.sinc, ANY, [torch.int64], True),
    "erfc": (torch.erfc, ANY, [torch.int64, torch.float16], True),
    "lgamma": (torch.lgamma, uniform(-4.5, 8.0), [torch.int64], True),
    "digamma": (torch.digamma, uniform(-4.5, 8.0), [], True),
    "i0": (torch.i0, uniform(-12, 12), [torch.int64], True),
    "special_i0e": (torch.special.i0e, uniform(-40, 40), [], True),
    "special_i1": (torch.special.i1, uniform(-12, 12), [], True),
    "special_i1e": (torch.special.i1e, uniform(-40, 40), [], True),
    "special_ndtri": (torch.special.ndtri, OPEN01, [], True),
    "special_erfcx": (torch.special.erfcx, uniform(-3, 30), [], True),
    "special_ndtr": (torch.special.ndtr, ANY, [torch.int64], True),
    "special_log_ndtr": (torch.special.log_ndtr, uniform(-30, 8), [], True),
    "special_entr": (torch.special.entr, POS, [], True),
    "special_expit": (torch.special.expit, ANY, [], True),
    "special_exp2": (torch.special.exp2, ANY, [], True),
    "special_expm1": (torch.special.expm1, ANY, [], True),
    "special_log1p": (torch.special.log1p, POS, [], True),
    "special_erf": (torch.special.erf, ANY, [], True),
    "special_erfc": (torch.special.erfc, ANY, [], True),
    "special_erfinv": (torch.special.erfinv, UNIT, [], True),
    "special_gammaln": (torch.special.gammaln, POS, [], True),
    "special_digamma": (torch.special.digamma, POS, [], True),
    "special_psi": (torch.special.psi, POS, [], True),
    "special_i0": (torch.special.i0, ANY, [], True),
    "special_sinc": (torch.special.sinc, ANY, [], True),
    "special_round": (torch.special.round, ANY, [], True),
    "signbit": (torch.signbit, ANY, [torch.int64, torch.int8, torch.uint8, torch.bool], False),
    "isneginf": (torch.isneginf, ANY, [torch.int64], False),
    "isposinf": (torch.isposinf, ANY, [torch.int64], False),
    "isreal": (torch.isreal, ANY, [torch.int64, torch.complex64], False),
    "positive": (torch.positive, ANY, [torch.int64], True),
    "logit": (torch.logit, OPEN01, [], True),
    "special_logit": (torch.special.logit, OPEN01, [], True),
}
OUT_FORMS = {"arccos", "arcsinh", "fix", "sgn", "deg2rad", "sinc", "erfc", "lgamma", "digamma", "i0",
             "special_i0e", "special_i1", "special_i1e", "special_ndtri", "special_erfcx", "special_ndtr",
             "special_log_ndtr", "special_entr", "signbit", "isneginf", "logit"}
SPECIAL_VALUES = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 3.0, -2.5, 1e-8,
                  40.0, -40.0, 1e3]


def unary_cases():
    out = []
    for name, (fn, dom, extra, grad) in UNARY.items():
        for d in F + extra:
            dom_d = dom if d.is_floating_point or d.is_complex else ANY
            for layout in LAYOUTS:
                t = make_tensor((3, 4), d, dom_d, layout)
                out.append(make_case(name, f"{SHORT[d]} {layout}", fn, [t], k=8, grad=grad))
            out.append(make_case(name, f"{SHORT[d]} 0-d", fn, [make_tensor((), d, dom_d)], k=8, grad=grad))
            out.append(make_case(name, f"{SHORT[d]} empty", fn, [make_tensor((0, 3), d, dom_d)], k=8))
        out.append(make_case(name, "f64 special values", fn,
                             [torch.tensor(SPECIAL_VALUES, dtype=torch.float64)], k=8, grad=False))
        if name in OUT_FORMS:
            for od in [torch.float32, torch.float64, torch.bool, torch.int64]:
                t = make_tensor((2, 3), torch.float32, dom)
                out.append(make_case(name + "_out", f"out {SHORT[od]}", fn, [t], {"out": torch.empty(0, dtype=od)},
                                     k=8))
    # eps keyword of logit, decimals of special.round, integral inputs where PyTorch refuses them
    for eps in [0.0, 1e-6, 0.1, 0.6]:
        t = make_tensor((5,), torch.float64, uniform(-0.2, 1.2))
        out.append(make_case("logit", f"eps {eps}", torch.logit, [t], {"eps": eps}, k=8))
    for dec in [-1, 0, 2, 3]:
        t = make_tensor((6,), torch.float64, uniform(-200, 200))
        out.append(make_case("special_round", f"decimals {dec}", torch.special.round, [t], {"decimals": dec},
                             k=8))
    out.append(make_case("positive", "bool", torch.positive, [torch.tensor([True, False])]))
    for name in ["isneginf", "deg2rad", "sgn"]:
        out.append(make_case(name, "c128", UNARY[name][0], [make_tensor((3,), torch.complex128)], grad=False))
    return out


# name -> (torch function, domain of self, domain of other, gradient)
BINARY = {
    "greater_equal": (torch.greater_equal, ANY, ANY, False),
    "less_equal": (torch.less_equal, ANY, ANY, False),
    "not_equal": (torch.not_equal, ANY, ANY, False),
    "arctan2": (torch.arctan2, ANY, ANY, True),
    "float_power": (torch.float_power, POS, uniform(-2, 2), True),
    "fmax": (torch.fmax, ANY, ANY, True),
    "fmin": (torch.fmin, ANY, ANY, True),
    "ldexp": (torch.ldexp, ANY, uniform(-3, 3), True),
    "logaddexp": (torch.logaddexp, ANY, ANY, True),
    "logaddexp2": (torch.logaddexp2, ANY, ANY, True),
    "xlogy": (torch.xlogy, ANY, POS, True),
    "special_xlogy": (torch.special.xlogy, ANY, POS, True),
    "special_xlog1py": (torch.special.xlog1py, ANY, POS, True),
    "copysign": (lambda a, b, **kw: torch.copysign(a, b.detach() if isinstance(b, torch.Tensor) else b, **kw), ANY,
                 ANY, True),
    "heaviside": (torch.heaviside, ANY, ANY, False),
    "igamma": (torch.igamma, POS, POS, True),
    "igammac": (torch.igammac, POS, POS, True),
    "special_gammainc": (torch.special.gammainc, POS, POS, True),
    "special_gammaincc": (torch.special.gammaincc, POS, POS, True),
    "special_zeta": (torch.special.zeta, uniform(1.5, 6), POS, True),
    "isclose": (torch.isclose, ANY, ANY, False),
}
BINARY_INTS = {"greater_equal", "less_equal", "not_equal", "arctan2", "float_power", "fmax", "fmin", "xlogy",
               "copysign", "heaviside", "isclose", "igamma", "special_zeta"}


# PyTorch differentiates these only in `other` and raises for `self`, as brasa does; the harness makes every
# float input require grad, so their gradients are checked in tests/ops/test_special.cpp instead.
OTHER_ONLY = {"igamma", "igammac", "special_gammainc", "special_gammaincc", "special_zeta"}


def binary_cases():
    out = []
    for name, (fn, da, db, grad) in BINARY.items():
        ref = fn
        grad = grad and name not in OTHER_ONLY
        for d in F:
            for layout in LAYOUTS:
                a, b = make_tensor((3, 4), d, da, layout), make_tensor((3, 4), d, db, "transposed")
                out.append(make_case(name, f"{SHORT[d]} {layout}", ref, [a, b], k=16, grad=grad))
            a, b = make_tensor((3, 1), d, da), make_tensor((4,), d, db)
            out.append(make_case(name, f"{SHORT[d]} broadcast", ref, [a, b], k=16, grad=grad))
            out.append(make_case(name, f"{SHORT[d]} 0-d other", ref, [make_tensor((2, 3), d, da),
                                                                     make_tensor((), d, db)], k=16, grad=grad))
            out.append(make_case(name, f"{SHORT[d]} empty", fn, [make_tensor((0, 3), d, da),
                                                               make_tensor((3,), d, db)], k=16))
        if name in BINARY_INTS:
            out.append(make_case(name, "i64 i64", fn, [make_tensor((2, 3), torch.int64, ANY),
                                                       make_tensor((2, 3), torch.int64, ANY).abs() + 1], k=16))
            out.append(make_case(name, "i32 f32", fn, [make_tensor((2, 3), torch.int32, ANY).abs() + 1,
                                                       make_tensor((2, 3), torch.float32, db)], k=16))
        v = torch.tensor([float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 1.0, -1.0, 2.5], dtype=torch.float64)
        a, b = v.repeat_interleave(8), v.repeat(8)
        out.append(make_case(name, "f64 special pairs", fn, [a, b], k=16, grad=False))
        if name != "isclose":
            out.append(make_case(name + "_out", "out f64", fn,
                                 [make_tensor((2, 3), torch.float64, da), make_tensor((2, 3), torch.float64, db)],
                                 {"out": torch.empty(0, dtype=torch.float64)}, k=16))
        out.append(make_case(name, "shape mismatch", fn, [make_tensor((2, 3), torch.float32, da),
                                                         make_tensor((4,), torch.float32, db)]))
    # Scalar operands (Python numbers)
    for name, fn, a, s in [("xlogy", torch.xlogy, make_tensor((3,), torch.float32), 2.5),
                           ("special_xlog1py", torch.special.xlog1py, make_tensor((3,), torch.float64), 1.5),
                           ("special_zeta", torch.special.zeta, make_tensor((3,), torch.float64, uniform(1.5, 4)), 2.0),
                           ("copysign", torch.copysign, make_tensor((3,), torch.float64), -0.0),
                           ("float_power", torch.float_power, make_tensor((3,), torch.float32, POS), 2),
                           ("greater_equal", torch.greater_equal, make_tensor((3,), torch.int64), 1),
                           ("not_equal", torch.not_equal, make_tensor((3,), torch.float32), 0.5)]:
        out.append(make_case(name, "scalar other", fn, [a, s], k=16))
    for name, fn, s, b in [("xlogy", torch.xlogy, 2.0, make_tensor((3,), torch.float32, POS)),
                           ("special_zeta", torch.special.zeta, 3.0, make_tensor((3,), torch.float64, POS)),
                           ("float_power", torch.float_power, 2.0, make_tensor((3,), torch.float32))]:
        out.append(make_case(name + "_scalar_self", "scalar self", fn, [s, b], k=16))
    # dtype rules
    out.append(make_case("heaviside", "f32 f64", torch.heaviside, [make_tensor((3,), torch.float32),
                                                                  make_tensor((3,), torch.float64)]))
    out.append(make_case("isclose", "f32 f64", torch.isclose, [make_tensor((3,), torch.float32),
                                                              make_tensor((3,), torch.float64)]))
    out.append(make_case("logaddexp", "i64", torch.logaddexp, [make_tensor((3,), torch.int64),
                                                              make_tensor((3,), torch.int64)]))
    a = torch.tensor([1.0, 1.0, float("nan"), float("inf"), 1e-9, 100.0])
    b = torch.tensor([1.0 + 1e-6, 1.1, float("nan"), float("inf"), 0.0, 100.00001])
    for kw in [{}, {"equal_nan": True}, {"rtol": 0.2, "atol": 0.0}, {"rtol": 0.0, "atol": 1e-8}]:
        out.append(make_case("isclose", f"edges {kw}", torch.isclose, [a, b], kw))
    return out


POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
               "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
               "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
               "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p"]


def integral_and_polynomial_cases():
    out = []
    ints = [torch.int64, torch.int32, torch.int16, torch.uint8]
    small = lambda dt, n: torch.randint(0, 60, (n,)).to(dt)
    signed = lambda dt, n: torch.randint(-60, 60, (n,)).to(dt)
    for name, fn in [("gcd", torch.gcd), ("lcm", torch.lcm)]:
        for d in ints:
            dom = small if d == torch.uint8 else signed
            for layout in LAYOUTS:
                out.append(make_case(name, f"{SHORT[d]} {layout}", fn,
                                     [make_tensor((3, 4), d, dom, layout), make_tensor((3, 4), d, dom, "transposed")]))
            out.append(make_case(name, f"{SHORT[d]} broadcast", fn, [make_tensor((3, 1), d, dom),
                                                                      make_tensor((4,), d, dom)]))
        out.append(make_case(name, "zeros", fn, [torch.tensor([0, 0, 5, -6]), torch.tensor([0, 7, 0, 4])]))
        out.append(make_case(name, "i32 i64", fn, [make_tensor((3,), torch.int32, signed),
                                                   make_tensor((3,), torch.int64, signed)]))
        out.append(make_case(name, "0-d", fn, [make_tensor((), torch.int64, signed), make_tensor((3,), torch.int64, signed)]))
        out.append(make_case(name, "empty", fn, [make_tensor((0,), torch.int64), make_tensor((0,), torch.int64)]))
        out.append(make_case(name + "_out", "out", fn, [make_tensor((3,), torch.int64, signed),
                                                        make_tensor((3,), torch.int64, signed)],
                             {"out": torch.empty(0, dtype=torch.int64)}))
        for d in [torch.float32, torch.bool]:
            out.append(make_case(name, f"{SHORT[d]}", fn, [make_tensor((3,), d), make_tensor((3,), d)]))
    shifts = lambda dt, n: torch.randint(0, 8, (n,)).to(dt)
    for name, fn in [("bitwise_left_shift", torch.bitwise_left_shift),
                     ("bitwise_right_shift", torch.bitwise_right_shift)]:
        for d in ints + [torch.int8]:
            dom = small if d == torch.uint8 else signed
            for layout in LAYOUTS:
                out.append(make_case(name, f"{SHORT[d]} {layout}", fn,
                                     [make_tensor((3, 4), d, dom, layout), make_tensor((3, 4), d, shifts)]))
        # Up to width - 1 only: PyTorch 1.13 shifts by the width or more with C++'s undefined behaviour (on x86
        # the count wraps); brasa gives 0 (left) or the sign (right), as later PyTorch releases do.
        wide = torch.tensor([5, -7, 3, -1, 100, -100])
        out.append(make_case(name, "i64 shift width - 1", fn, [wide, torch.tensor([63, 63, 62, 1, 0, 63])]))
        out.append(make_case(name, "i8 shift width - 1", fn, [wide.to(torch.int8), torch.tensor([7, 7, 6, 1, 0, 7],
                                                                                               dtype=torch.int8)]))
        out.append(make_case(name, "scalar other", fn, [make_tensor((4,), torch.int64, signed), 3]))
        out.append(make_case(name + "_out", "out", fn, [make_tensor((4,), torch.int32, signed),
                                                        make_tensor((4,), torch.int32, shifts)],
                             {"out": torch.empty(0, dtype=torch.int32)}))
        out.append(make_case(name, "f32", fn, [make_tensor((3,), torch.float32), make_tensor((3,), torch.float32)]))
        out.append(make_case(name, "0-d", fn, [make_tensor((), torch.int64, signed), make_tensor((3,), torch.int64, shifts)]))
    # (float16/bfloat16: PyTorch 1.13 has no nextafter kernel to compare with.)
    for d in [torch.float32, torch.float64]:
        for layout in LAYOUTS:
            out.append(make_case("nextafter", f"{SHORT[d]} {layout}", torch.nextafter,
                                 [make_tensor((3, 4), d, ANY, layout), make_tensor((3, 4), d, ANY, "transposed")]))
        v = torch.tensor([0.0, -0.0, 1.0, -1.0, float("inf"), float("nan"), 2.5, 1e-30], dtype=d)
        w = torch.tensor([1.0, -1.0, 2.0, -2.0, 0.0, 1.0, 2.5, 0.0], dtype=d)
        out.append(make_case("nextafter", f"{SHORT[d]} specials", torch.nextafter, [v, w], k=0))
    for d in [torch.float32, torch.float64, torch.float16, torch.bfloat16]:
        v = torch.tensor([0.0, -0.0, 1.0, -1.0, float("inf"), float("nan"), 2.5, 1e-30], dtype=d)
        out.append(make_case("frexp", f"{SHORT[d]} transposed", torch.frexp, [make_tensor((3, 4), d, ANY, "transposed")]))
        out.append(make_case("frexp", f"{SHORT[d]} specials", torch.frexp, [v], grad=False))
    out.append(make_case("nextafter", "f32 f64", torch.nextafter, [make_tensor((3,), torch.float32),
                                                                  make_tensor((3,), torch.float64)]))
    out.append(make_case("nextafter", "i64", torch.nextafter, [make_tensor((3,), torch.int64),
                                                              make_tensor((3,), torch.int64)]))
    out.append(make_case("nextafter_out", "out", torch.nextafter,
                         [make_tensor((3,), torch.float64), make_tensor((3,), torch.float64)],
                         {"out": torch.empty(0, dtype=torch.float64)}))
    out.append(make_case("frexp", "f64 subnormal", torch.frexp, [torch.tensor([1e-310, -3e-320], dtype=torch.float64)]))
    out.append(make_case("frexp", "0-d", torch.frexp, [make_tensor((), torch.float64)]))
    out.append(make_case("frexp", "empty", torch.frexp, [make_tensor((0, 2), torch.float32)]))
    out.append(make_case("frexp", "i64", torch.frexp, [make_tensor((3,), torch.int64)]))
    degrees = lambda dt, n: torch.randint(-1, 9, (n,)).to(dt)
    for name in POLYNOMIALS:
        fn = getattr(torch.special, name)
        for d in F:
            for layout in ["contiguous", "transposed", "expanded"]:
                out.append(make_case("special_" + name, f"{SHORT[d]} {layout}", fn,
                                     [make_tensor((3, 4), d, uniform(-1.2, 1.2), layout), make_tensor((3, 4), d, degrees)],
                                     k=64))
            out.append(make_case("special_" + name, f"{SHORT[d]} scalar n", fn,
                                 [make_tensor((5,), d, uniform(-1, 1)), 4], k=64))
            out.append(make_case("special_" + name + "_scalar_x", f"{SHORT[d]} scalar x", fn,
                                 [0.3, make_tensor((5,), d, degrees)], k=64))
        out.append(make_case("special_" + name, "i64 n", fn, [make_tensor((4,), torch.float32, uniform(-1, 1)),
                                                            torch.tensor([0, 1, 5, -2])], k=64))
        out.append(make_case("special_" + name + "_out", "out", fn,
                             [make_tensor((4,), torch.float64, uniform(-1, 1)), torch.tensor([0.0, 1.0, 5.0, 7.0],
                                                                                             dtype=torch.float64)],
                             {"out": torch.empty(0, dtype=torch.float64)}, k=64))
    for name in ["modified_bessel_i0", "modified_bessel_i1", "spherical_bessel_j0"]:
        fn = getattr(torch.special, name)
        for d in F:
            out.append(make_case("special_" + name, f"{SHORT[d]}", fn, [make_tensor((3, 4), d, uniform(-10, 10),
                                                                                     "transposed")], k=16, grad=False))
        out.append(make_case("special_" + name, "0", fn, [torch.tensor([0.0, -0.0, 1e-9])], k=16, grad=False))
    return out


# The Bessel and Airy functions of torch.special (not differentiable in PyTorch). f64 domains leave
# out where PyTorch 1.13's own approximations are off by up to 4e-7 (j0 and y1 on (5, 5.6), airy_ai
# on (-2.5, -2.09); brasa's values there agree with mpmath to 1e-15): those ranges are checked in
# f32 only.
def _split(lo, mid_lo, mid_hi, hi):
    """Uniform on [lo, mid_lo] and [mid_hi, hi]."""
    def make(dtype, n):
        u = torch.rand(n, dtype=torch.float64)
        left = u * (mid_lo - lo) + lo
        right = u * (hi - mid_hi) + mid_hi
        return torch.where(torch.rand(n) < 0.5, left, right).to(dtype)
    return make


BESSEL = {  # name -> (f32 domain, f64 domain)
    "bessel_j0": (uniform(-30, 30), _split(-30, -5.6, -5.0, 5.0)),
    "bessel_j1": (uniform(-30, 30), uniform(-30, 30)),
    "bessel_y0": (uniform(0.05, 30), uniform(0.05, 30)),
    "bessel_y1": (uniform(0.05, 30), _split(0.05, 5.0, 5.6, 30)),
    "modified_bessel_k0": (uniform(0.05, 20), uniform(0.05, 40)),
    "modified_bessel_k1": (uniform(0.05, 20), uniform(0.05, 40)),
    "scaled_modified_bessel_k0": (uniform(0.05, 60), uniform(0.05, 900)),
    "scaled_modified_bessel_k1": (uniform(0.05, 60), uniform(0.05, 900)),
    "airy_ai": (uniform(-20, 8), _split(-60, -2.6, -2.0, 30)),
}
BESSEL_EDGES = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 1e-300, 1e-12, -1e-12, 1.0, -1.0, 3.0,
                -7.5, 40.0, 104.0, 700.5, 750.0, 1e4, -1e4, 1e10, 1e300]


def bessel_cases():
    out = []
    for name, (dom32, dom64) in BESSEL.items():
        fn = getattr(torch.special, name)
        op = "special_" + name
        for d, dom in [(torch.float32, dom32), (torch.float64, dom64)]:
            for layout in LAYOUTS:
                out.append(make_case(op, f"{SHORT[d]} {layout}", fn, [make_tensor((3, 4), d, dom, layout)], k=16))
            out.append(make_case(op, f"{SHORT[d]} 0-d", fn, [make_tensor((), d, dom)], k=16))
            out.append(make_case(op, f"{SHORT[d]} empty", fn, [make_tensor((0, 3), d, dom)], k=16))
        out.append(make_case(op, "f64 edges", fn, [torch.tensor(BESSEL_EDGES, dtype=torch.float64)], k=16))
        out.append(make_case(op, "i64 promotes", fn, [torch.tensor([1, 2, 7, 30])], k=16))
        for bad in [torch.float16, torch.bfloat16, torch.complex64]:
            out.append(make_case(op, f"{SHORT[bad]} refused", fn, [torch.ones(3, dtype=bad)], upcast_reduced=False))
        for od in [torch.float32, torch.float64, torch.int64]:
            out.append(make_case(op + "_out", f"out {SHORT[od]}", fn, [make_tensor((2, 3), torch.float64, dom64)],
                                 {"out": torch.empty(0, dtype=od)}, k=16))
    return out


# torch.gradient (every spacing form, dims, edge orders), histogramdd and segment_reduce.
def numerics_cases():
    out = []
    g = torch.gradient
    for d in F:
        for layout in LAYOUTS:
            t = make_tensor((4, 5), d, ANY, layout)
            out.append(make_case("gradient", f"{SHORT[d]} {layout}", g, [t], k=8))
        t = make_tensor((4, 5, 3), d, ANY, "transposed")
        coords = [torch.sort(make_tensor((n,), d, uniform(-3, 3))).values for n in (4, 5, 3)]
        for kw in [{"spacing": 2.5}, {"spacing": 0.5, "dim": 1}, {"dim": [0, 2]}, {"dim": -1, "edge_order": 2},
                   {"spacing": [1.5, 0.5, 2.0]}, {"spacing": [1.5], "dim": 1}, {"spacing": [0.5, 3.0], "dim": [2, 0]},
                   {"spacing": coords}, {"spacing": coords, "edge_order": 2}, {"spacing": coords[1:2], "dim": 1},
                   {"spacing": [coords[2], coords[0]], "dim": [2, 0], "edge_order": 2}, {"edge_order": 2}]:
            label = ", ".join(f"{k}={'tensors' if k == 'spacing' and isinstance(v, list) and isinstance(v[0], torch.Tensor) else v}"
                              for k, v in kw.items())
            out.append(make_case("gradient", f"{SHORT[d]} {label}", g, [t], kw, k=16))
        out.append(make_case("gradient", f"{SHORT[d]} 2 samples", g, [make_tensor((2, 3), d)], k=8))
        out.append(make_case("gradient", f"{SHORT[d]} 0-d", g, [make_tensor((), d)]))
        out.append(make_case("gradient", f"{SHORT[d]} empty other dim", g, [make_tensor((0, 3), d)], {"dim": 1}))
    out.append(make_case("gradient", "i64", g, [make_tensor((6,), torch.int64)]))
    out.append(make_case("gradient", "i64 coords", g, [make_tensor((4,), torch.float32)],
                         {"spacing": [torch.tensor([0, 1, 3, 4])]}))
    out.append(make_case("gradient", "f32 f64 coords", g, [make_tensor((4,), torch.float32)],
                         {"spacing": [torch.tensor([0.0, 1.0, 3.0, 4.5], dtype=torch.float64)]}))
    out.append(make_case("gradient", "f16", g, [make_tensor((5,), torch.float16)]))
    for bad in [{"edge_order": 3}, {"dim": [0, 0]}, {"dim": 2}, {"spacing": [1.0, 2.0, 3.0]},
                {"spacing": [1.0, 2.0], "dim": 0}, {"edge_order": 2, "dim": 0}]:
        out.append(make_case("gradient", f"error {bad}", g, [make_tensor((2, 4), torch.float32)], bad))
    out.append(make_case("gradient", "error too short", g, [make_tensor((1, 3), torch.float32)]))
    out.append(make_case("gradient", "error 2-d coords", g, [make_tensor((3, 3), torch.float32)],
                         {"spacing": [torch.ones(3, 3), torch.ones(3)]}))
    out.append(make_case("gradient", "error bool", g, [torch.tensor([True, False, True])]))

    h = torch.histogramdd
    for d in F:
        pts = make_tensor((30, 2), d, uniform(-2, 2), "transposed")
        for kw in [{"bins": 4}, {"bins": [3, 5]}, {"bins": [2, 3], "range": [-1.0, 1.0, 0.0, 2.0]},
                   {"bins": 3, "density": True}, {"bins": 3, "weight": make_tensor((30,), d, uniform(0, 2))},
                   {"bins": [4, 2], "weight": make_tensor((30,), d, uniform(0, 2)), "density": True}]:
            label = ", ".join(f"{k}={v if k != 'weight' else 'w'}" for k, v in kw.items())
            out.append(make_case("histogramdd", f"{SHORT[d]} {label}", h, [pts], kw, grad=False))
        edges = [torch.tensor([-2.0, -0.5, 0.0, 2.0], dtype=d), torch.tensor([-1.0, 1.0, 1.5], dtype=d)]
        out.append(make_case("histogramdd", f"{SHORT[d]} edges", h, [pts], {"bins": edges}, grad=False))
        out.append(make_case("histogramdd", f"{SHORT[d]} edges density", h, [pts], {"bins": edges, "density": True},
                             grad=False))
        out.append(make_case("histogramdd", f"{SHORT[d]} 3-d points", h, [make_tensor((2, 5, 3), d)], {"bins": 2},
                             grad=False))
        out.append(make_case("histogramdd", f"{SHORT[d]} one point", h, [torch.ones(4, 2, dtype=d)], {"bins": 2},
                             grad=False))
        out.append(make_case("histogramdd", f"{SHORT[d]} empty", h, [make_tensor((0, 2), d)], {"bins": 2},
                             grad=False))
    pts = make_tensor((6, 2), torch.float32)
    for label, kw in [("range length", {"bins": 2, "range": [0.0, 1.0]}), ("min > max", {"bins": 2, "range": [1.0, 0.0, 0.0, 1.0]}),
                      ("bins 0", {"bins": 0}), ("weight shape", {"bins": 2, "weight": torch.ones(5)}),
                      ("weight dtype", {"bins": 2, "weight": torch.ones(6, dtype=torch.float64)}),
                      ("edges dtype", {"bins": [torch.tensor([0.0, 1.0], dtype=torch.float64)] * 2})]:
        out.append(make_case("histogramdd", f"error {label}", h, [pts], kw, grad=False))
    out.append(make_case("histogramdd", "error 1-d", h, [torch.rand(4)], {"bins": 2}, grad=False))
    out.append(make_case("histogramdd", "error i64", h, [torch.ones(3, 2, dtype=torch.int64)], {"bins": 2}, grad=False))
    out.append(make_case("histogramdd", "error nan", h, [torch.tensor([[float("nan"), 0.0]])], {"bins": 2},
                         grad=False))

    s = torch.segment_reduce
    lengths = torch.tensor([2, 0, 3, 1])
    offsets = torch.tensor([0, 2, 2, 5, 6])
    for d in F:
        data = make_tensor((6, 3), d, ANY, "transposed")
        ties = torch.tensor([1.0, 1.0, 2.0, 0.0, 2.0, 5.0], dtype=d)
        zeros = torch.tensor([2.0, 0.0, 1.0, 0.0, 0.0, 3.0], dtype=d)
        for r in ["sum", "mean", "max", "min", "prod"]:
            out.append(make_case("segment_reduce", f"{SHORT[d]} {r} lengths", s, [data, r], {"lengths": lengths}, k=8))
            out.append(make_case("segment_reduce", f"{SHORT[d]} {r} offsets", s, [data, r], {"offsets": offsets}, k=8))
            out.append(make_case("segment_reduce", f"{SHORT[d]} {r} initial", s, [data, r],
                                 {"lengths": lengths, "initial": 0.5}, k=8))
            out.append(make_case("segment_reduce", f"{SHORT[d]} {r} ties", s, [ties, r], {"lengths": lengths}, k=8))
            out.append(make_case("segment_reduce", f"{SHORT[d]} {r} zeros", s, [zeros, r],
                                 {"lengths": torch.tensor([3, 2, 1])}, k=8))
            out.append(make_case("segment_reduce", f"{SHORT[d]} {r} 2-d lengths", s,
                                 [make_tensor((2, 5, 2), d), r], {"lengths": torch.tensor([[1, 4], [5, 0]]), "axis": 1},
                                 k=8))
            out.append(make_case("segment_reduce", f"{SHORT[d]} {r} empty", s, [make_tensor((0, 2), d), r],
                                 {"lengths": torch.tensor([0, 0])}, k=8))
    data = make_tensor((6,), torch.float32)
    out.append(make_case("segment_reduce", "unsafe", s, [data, "sum"], {"lengths": torch.tensor([2, 3]), "unsafe": True}))
    for label, args, kw in [("reduce name", [data, "avg"], {"lengths": lengths}),
                            ("no lengths", [data, "sum"], {}),
                            ("indices", [data, "sum"], {"indices": torch.tensor([0, 1])}),
                            ("lengths sum", [data, "sum"], {"lengths": torch.tensor([1, 4])}),
                            ("negative length", [data, "sum"], {"lengths": torch.tensor([-1, 7])}),
                            ("float lengths", [data, "sum"], {"lengths": torch.tensor([1.0, 5.0])}),
                            ("axis", [make_tensor((3, 2), torch.float32), "sum"], {"lengths": torch.tensor([1, 1]), "axis": 1}),
                            ("i64 data", [torch.arange(6), "sum"], {"lengths": torch.tensor([1, 5])})]:
        out.append(make_case("segment_reduce", f"error {label}", s, args, kw))
    return out


def isin_cases():
    out = []
    for d in [torch.int64, torch.float32, torch.float64]:
        e = make_tensor((3, 4), d, ANY, "transposed")
        t = make_tensor((5,), d, ANY)
        for kw in [{}, {"invert": True}, {"assume_unique": True}]:
            out.append(make_case("isin", f"{SHORT[d]} {kw}", torch.isin, [e, t], kw))
        out.append(make_case("isin", f"{SHORT[d]} 2-d test", torch.isin, [e, make_tensor((2, 3), d, ANY)]))
        out.append(make_case("isin", f"{SHORT[d]} empty test", torch.isin, [e, make_tensor((0,), d, ANY)]))
        out.append(make_case("isin", f"{SHORT[d]} 0-d", torch.isin, [make_tensor((), d, ANY), t]))
        out.append(make_case("isin", f"{SHORT[d]} empty", torch.isin, [make_tensor((0, 2), d, ANY), t]))
        out.append(make_case("isin_scalar", f"{SHORT[d]} scalar test", torch.isin, [e, 3]))
    out.append(make_case("isin", "i64 f64", torch.isin, [make_tensor((6,), torch.int64),
                                                        torch.tensor([1.0, 2.5, -3.0], dtype=torch.float64)]))
    out.append(make_case("isin", "nan", torch.isin, [torch.tensor([float("nan"), 1.0]),
                                                    torch.tensor([float("nan"), 1.0])]))
    return out


def ternary_cases():
    out = []
    for name, fn in [("addcdiv", torch.addcdiv), ("addcmul", torch.addcmul)]:
        for d in F:
            for layout in LAYOUTS:
                a = make_tensor((3, 4), d, ANY, layout)
                t1 = make_tensor((3, 4), d, ANY, "transposed")
                t2 = make_tensor((3, 4), d, uniform(0.5, 3.0))
                out.append(make_case(name, f"{SHORT[d]} {layout}", fn, [a, t1, t2], k=8))
            out.append(make_case(name, f"{SHORT[d]} broadcast value", fn,
                                 [make_tensor((3, 1), d), make_tensor((4,), d), make_tensor((3, 4), d, uniform(0.5, 2))],
                                 {"value": 0.5}, k=8))
            out.append(make_case(name, f"{SHORT[d]} 0-d", fn, [make_tensor((), d), make_tensor((), d),
                                                               make_tensor((), d, uniform(0.5, 2))], k=8))
            out.append(make_case(name, f"{SHORT[d]} empty", fn, [make_tensor((0, 2), d), make_tensor((2,), d),
                                                                 make_tensor((2,), d, uniform(0.5, 2))], k=8))
        out.append(make_case(name, "i64", fn, [make_tensor((3,), torch.int64), make_tensor((3,), torch.int64),
                                              make_tensor((3,), torch.int64, uniform(1, 3)).long() + 1], {"value": 2}))
        out.append(make_case(name + "_out", "out f64", fn,
                             [make_tensor((3,), torch.float64), make_tensor((3,), torch.float64),
                              make_tensor((3,), torch.float64, uniform(0.5, 2))],
                             {"value": -1.5, "out": torch.empty(0, dtype=torch.float64)}))
        out.append(make_case(name, "shape mismatch", fn, [make_tensor((2,), torch.float32),
                                                         make_tensor((3,), torch.float32),
                                                         make_tensor((3,), torch.float32)]))
    return out


def gamma_family_cases():
    out = []
    for d in F:
        for n in [0, 1, 2, 3, 4]:
            t = make_tensor((3, 4), d, uniform(0.3, 6), "transposed")
            out.append(make_case("polygamma", f"{SHORT[d]} n={n}", torch.polygamma, [n, t], k=16))
            out.append(make_case("special_polygamma", f"{SHORT[d]} n={n}", torch.special.polygamma, [n, t], k=16))
        for p in [1, 2, 3, 5]:
            t = make_tensor((2, 3), d, uniform(p, p + 4), "strided")
            out.append(make_case("mvlgamma", f"{SHORT[d]} p={p}", torch.mvlgamma, [t, p], k=16))
            out.append(make_case("special_multigammaln", f"{SHORT[d]} p={p}", torch.special.multigammaln, [t, p],
                                 k=16))
    out.append(make_case("polygamma", "f64 0-d", torch.polygamma, [2, make_tensor((), torch.float64, POS)], k=16))
    out.append(make_case("polygamma", "f64 empty", torch.polygamma, [1, make_tensor((0,), torch.float64)]))
    out.append(make_case("polygamma", "i64", torch.polygamma, [1, make_tensor((3,), torch.int64).abs() + 1], k=16))
    out.append(make_case("polygamma", "negative n", torch.polygamma, [-1, make_tensor((3,), torch.float64)]))
    # (At the poles PyTorch's trigamma returns a large finite number from sin(pi x) rounding; brasa gives inf.)
    out.append(make_case("polygamma", "negative x", torch.polygamma, [1, torch.tensor([-1.5, -0.5, -2.5, 0.0])],
                         k=16, grad=False))
    out.append(make_case("mvlgamma", "below (p-1)/2", torch.mvlgamma, [torch.tensor([0.4, 3.0]), 3]))
    out.append(make_case("mvlgamma", "p=0", torch.mvlgamma, [torch.tensor([2.0]), 0]))
    return out


# ---- reductions and statistics ----
def selection_cases():
    out = []
    shapes = [((3, 5), "contiguous"), ((4, 5), "transposed"), ((2, 3, 4), "strided"), ((5,), "contiguous")]
    for d in F + [torch.int64]:
        for shape, layout in shapes:
            t = make_tensor(shape, d, distinct, layout)
            tag = f"{SHORT[d]} {list(shape)} {layout}"
            out.append(make_case("median", tag, torch.median, [t]))
            out.append(make_case("nanmedian", tag, torch.nanmedian, [t]))
            for dim, keep in [(0, False), (-1, True), (len(shape) - 1, False)]:
                kw = {"dim": dim, "keepdim": keep}
                out.append(make_case("median_dim", f"{tag} {kw}", torch.median, [t], kw))
                out.append(make_case("nanmedian_dim", f"{tag} {kw}", torch.nanmedian, [t], kw))
                out.append(make_case("kthvalue", f"{tag} {kw} k=2", torch.kthvalue, [t, 2], kw))
                out.append(make_case("cummax", f"{tag} dim {dim}", torch.cummax, [t], {"dim": dim}))
                out.append(make_case("cummin", f"{tag} dim {dim}", torch.cummin, [t], {"dim": dim}))
        out.append(make_case("median_dim", f"{SHORT[d]} 0-d", torch.median, [make_tensor((), d)], {"dim": 0}))
        out.append(make_case("kthvalue", f"{SHORT[d]} 0-d", torch.kthvalue, [make_tensor((), d), 1]))
        out.append(make_case("cummax", f"{SHORT[d]} 0-d", torch.cummax, [make_tensor((), d)], {"dim": 0}))
        out.append(make_case("median_dim", f"{SHORT[d]} empty rows", torch.median, [make_tensor((0, 3), d)],
                             {"dim": 1}))
        out.append(make_case("cummin", f"{SHORT[d]} empty", torch.cummin, [make_tensor((0, 3), d)], {"dim": 0}))
    # mode: repeated values (the smallest most frequent one, at its last occurrence)
    for d in F + [torch.int64, torch.int32]:
        t = make_tensor((4, 9), d, lambda dt, n: torch.randint(0, 4, (n,)).to(dt))
        out.append(make_case("mode", f"{SHORT[d]} repeats", torch.mode, [t], grad=False))
        out.append(make_case("mode", f"{SHORT[d]} dim 0 keepdim", torch.mode, [t], {"dim": 0, "keepdim": True},
                             grad=False))
        out.append(make_case("mode", f"{SHORT[d]} distinct", torch.mode, [make_tensor((3, 4), d, distinct)]))
        out.append(make_case("mode", f"{SHORT[d]} 0-d", torch.mode, [make_tensor((), d)]))
    # NaN handling and ties
    nan = float("nan")
    x = torch.tensor([[3.0, nan, 1.0, nan], [2.0, 5.0, -1.0, 4.0], [nan, nan, nan, nan]], dtype=torch.float64)
    for name, fn in [("median_dim", torch.median), ("nanmedian_dim", torch.nanmedian)]:
        # (The index PyTorch reports for an all-NaN row is an artifact of its partial sort: rows 0-1 only.)
        out.append(make_case(name, "nan rows", fn, [x[:2]], {"dim": 1}, grad=False))
    out.append(make_case("median", "nan", torch.median, [x], grad=False))
    out.append(make_case("nanmedian", "nan", torch.nanmedian, [x], grad=False))
    out.append(make_case("nanmedian", "all nan", torch.nanmedian, [x[2]], grad=False))
    out.append(make_case("cummax", "nan", torch.cummax, [x], {"dim": 1}, grad=False))
    out.append(make_case("cummin", "nan", torch.cummin, [x], {"dim": 1}, grad=False))
    ties = torch.tensor([1.0, 3.0, 3.0, 2.0, 3.0, 0.0], dtype=torch.float64)
    out.append(make_case("cummax", "ties", torch.cummax, [ties], {"dim": 0}))
    out.append(make_case("cummin", "ties", torch.cummin, [ties], {"dim": 0}))
    out.append(make_case("median", "empty", torch.median, [torch.zeros(0)]))
    out.append(make_case("kthvalue", "k out of range", torch.kthvalue, [make_tensor((3,), torch.float32), 4]))
    out.append(make_case("kthvalue", "k = 0", torch.kthvalue, [make_tensor((3,), torch.float32), 0]))
    out.append(make_case("median_dim", "dim out of range", torch.median, [make_tensor((3,), torch.float32)],
                         {"dim": 2}))
    out.append(make_case("cummax", "dim out of range", torch.cummax, [make_tensor((3,), torch.float32)], {"dim": 1}))
    empty_pair = [torch.empty(0), torch.empty(0, dtype=torch.long)]
    out.append(make_case("median_out", "out", lambda t, v, i: torch.median(t, 1, out=(v, i)),
                         [make_tensor((3, 4), torch.float32, distinct)] + empty_pair))
    out.append(make_case("kthvalue_out", "out", lambda t, v, i: torch.kthvalue(t, 3, 0, out=(v, i)),
                         [make_tensor((3, 4), torch.float32, distinct)] + empty_pair))
    return out


def quantile_cases():
    out = []
    nan = float("nan")
    for d in F:
        for layout in ["contiguous", "transposed", "strided"]:
            t = make_tensor((4, 6), d, distinct, layout)
            for interp in ["linear", "lower", "higher", "midpoint", "nearest"]:
                for q, qtag in [(0.3, "0.3"), (torch.tensor([0.0, 0.25, 0.5, 1.0], dtype=d), "1-d q")]:
                    for kw in [{}, {"dim": 1}, {"dim": 0, "keepdim": True}, {"keepdim": True}]:
                        kw = dict(kw, interpolation=interp)
                        tag = f"{SHORT[d]} {layout} q {qtag} {kw}"
                        out.append(make_case("quantile", tag, torch.quantile, [t, q], kw, k=8))
                        if layout == "contiguous":
                            out.append(make_case("nanquantile", tag, torch.nanquantile, [t, q], kw, k=8))
        x = torch.tensor([[3.0, nan, 1.0, nan, 2.0], [2.0, 5.0, -1.0, 4.0, 0.0], [nan] * 5], dtype=d)
        for name, fn in [("quantile", torch.quantile), ("nanquantile", torch.nanquantile)]:
            out.append(make_case(name, f"{SHORT[d]} nan rows", fn, [x, 0.4], {"dim": 1}, grad=False))
            out.append(make_case(name, f"{SHORT[d]} nan all", fn, [x, torch.tensor([0.1, 0.9], dtype=d)],
                                 grad=False))
            out.append(make_case(name, f"{SHORT[d]} 0-d", fn, [make_tensor((), d), 0.5]))
            out.append(make_case(name, f"{SHORT[d]} 0-d dim", fn, [make_tensor((), d), 0.5], {"dim": 0}))
    t = make_tensor((5,), torch.float32)
    out.append(make_case("quantile", "q > 1", torch.quantile, [t, 1.5]))
    out.append(make_case("quantile", "q dtype", torch.quantile, [t, torch.tensor([0.5], dtype=torch.float64)]))
    out.append(make_case("quantile", "q 2-d", torch.quantile, [t, torch.full((2, 2), 0.5)]))
    out.append(make_case("quantile", "int input", torch.quantile, [torch.arange(5), 0.5]))
    out.append(make_case("quantile", "empty", torch.quantile, [torch.zeros(0), 0.5]))
    out.append(make_case("quantile", "bad interpolation", torch.quantile, [t, 0.5], {"interpolation": "cubic"}))
    return out


def reduction_cases():
    out = []
    nan = float("nan")
    for d in F + [torch.float16]:
        for layout in ["contiguous", "transposed", "strided"]:
            t = make_tensor((3, 5), d, ANY, layout)
            # NaNs everywhere but one element of each row and column (an all-NaN slice's gradient is NaN in
            # PyTorch, 0 in brasa: its nansum gradient masks where PyTorch multiplies by the mask).
            keep = (torch.arange(5) % 3).unsqueeze(0) == torch.arange(3).unsqueeze(1)
            t = t.clone().masked_fill((torch.rand(t.shape) < 0.3) & ~keep, nan) if d.is_floating_point else t
            tag = f"{SHORT[d]} {layout}"
            for kw in [{}, {"dim": [1]}, {"dim": [0], "keepdim": True}, {"dim": [0, 1]}]:
                out.append(make_case("nansum", f"{tag} {kw}", torch.nansum, [t], kw, k=8))
                out.append(make_case("nanmean", f"{tag} {kw}", torch.nanmean, [t], kw, k=8))
        out.append(make_case("nansum", f"{SHORT[d]} 0-d", torch.nansum, [make_tensor((), d)]))
        out.append(make_case("nanmean", f"{SHORT[d]} empty", torch.nanmean, [make_tensor((0, 3), d)], {"dim": [0]}))
        all_nan = torch.tensor([[nan, 1.0], [nan, 2.0]], dtype=d)
        out.append(make_case("nanmean", f"{SHORT[d]} all-nan column", torch.nanmean, [all_nan], {"dim": [0]},
                             grad=False))
    out.append(make_case("nansum", "i64", torch.nansum, [make_tensor((3, 4), torch.int64)], {"dim": [1]}))
    out.append(make_case("nansum", "f32 dtype f64", torch.nansum, [make_tensor((3, 4), torch.float32)],
                         {"dtype": torch.float64}))
    out.append(make_case("nanmean", "i64", torch.nanmean, [make_tensor((3, 4), torch.int64)]))
    for d in F + [torch.int64]:
        for layout in ["contiguous", "transposed"]:
            t = make_tensor((3, 5), d, distinct, layout)
            for kw in [{}, {"dim": 1}, {"dim": 0, "keepdim": True}, {"keepdim": True}]:
                out.append(make_case("aminmax", f"{SHORT[d]} {layout} {kw}", torch.aminmax, [t], kw))
        out.append(make_case("aminmax", f"{SHORT[d]} 0-d", torch.aminmax, [make_tensor((), d)]))
    out.append(make_case("aminmax", "empty", torch.aminmax, [torch.zeros(0, 3)]))
    for d in F:
        t = make_tensor((4, 5), d, ANY, "transposed")
        for name, fn in [("var_mean", torch.var_mean), ("std_mean", torch.std_mean)]:
            out.append(make_case(name, f"{SHORT[d]} all", fn, [t], k=8))
            out.append(make_case(name, f"{SHORT[d]} unbiased False", fn, [t], {"unbiased": False}, k=8))
            out.append(make_case(name, f"{SHORT[d]} dim 1", fn, [t], {"dim": [1]}, k=8))
            out.append(make_case(name, f"{SHORT[d]} dim 0 keepdim unbiased False", fn, [t],
                                 {"dim": [0], "unbiased": False, "keepdim": True}, k=8))
            out.append(make_case(name, f"{SHORT[d]} correction 2", fn, [t], {"dim": [1], "correction": 2}, k=8))
            out.append(make_case(name, f"{SHORT[d]} 0-d", fn, [make_tensor((), d)], k=8))
    for d in F:
        for layout in ["contiguous", "transposed", "strided"]:
            t = make_tensor((4, 5), d, ANY, layout)
            for dim in [0, 1, -1]:
                out.append(make_case("logcumsumexp", f"{SHORT[d]} {layout} dim {dim}", torch.logcumsumexp, [t], {"dim": dim}, k=8))
        out.append(make_case("logcumsumexp", f"{SHORT[d]} 0-d", torch.logcumsumexp, [make_tensor((), d)], {"dim": 0}))
        out.append(make_case("logcumsumexp", f"{SHORT[d]} empty", torch.logcumsumexp, [make_tensor((0, 2), d)],
                             {"dim": 0}))
        wide = torch.tensor([-1000.0, 0.0, 1000.0, -float("inf"), 3.0], dtype=d)
        out.append(make_case("logcumsumexp", f"{SHORT[d]} wide range", torch.logcumsumexp, [wide], {"dim": 0},
                             k=8, grad=False))
        out.append(make_case("logcumsumexp", f"{SHORT[d]} large", torch.logcumsumexp,
                             [make_tensor((6,), d, uniform(-200, 200))], {"dim": 0}, k=8))
    out.append(make_case("logcumsumexp", "i64", torch.logcumsumexp, [make_tensor((4,), torch.int64)], {"dim": 0}))
    return out


def histogram_cases():
    out = []
    for d in F:
        t = make_tensor((4, 6), d, ANY, "transposed")
        for kw in [{}, {"bins": 7}, {"bins": 5, "min": -2, "max": 3}, {"bins": 4, "min": 1, "max": 1}]:
            out.append(make_case("histc", f"{SHORT[d]} {kw}", torch.histc, [t], kw))
        out.append(make_case("histc", f"{SHORT[d]} empty", torch.histc, [make_tensor((0,), d)], {"bins": 3}))
        out.append(make_case("histc", f"{SHORT[d]} 0-d", torch.histc, [make_tensor((), d)], {"bins": 3}))
        for kw in [{"bins": 4}, {"bins": 6, "range": (-3.0, 3.0)}, {"bins": 5, "density": True},
                   {"bins": 3, "weight": make_tensor((4, 6), d, uniform(0, 2))}]:
            out.append(make_case("histogram", f"{SHORT[d]} {list(kw)}", torch.histogram, [t], kw, grad=False))
        edges = torch.tensor([-4.0, -1.0, 0.0, 0.5, 4.0], dtype=d)
        out.append(make_case("histogram_edges", f"{SHORT[d]}", torch.histogram, [t, edges], grad=False))
        out.append(make_case("histogram_edges", f"{SHORT[d]} density weight", torch.histogram, [t, edges],
                             {"density": True, "weight": make_tensor((4, 6), d, uniform(0, 2))}, grad=False))
    out.append(make_case("histc", "i64", torch.histc, [torch.arange(5)]))
    out.append(make_case("histc", "bins 0", torch.histc, [torch.rand(3)], {"bins": 0}))
    out.append(make_case("histc", "min > max", torch.histc, [torch.rand(3)], {"min": 2, "max": 1}))
    for d in [torch.int64, torch.int32, torch.uint8]:
        t = make_tensor((12,), d, lambda dt, n: torch.randint(0, 6, (n,)).to(dt))
        out.append(make_case("bincount", f"{SHORT[d]}", torch.bincount, [t]))
        out.append(make_case("bincount", f"{SHORT[d]} minlength", torch.bincount, [t], {"minlength": 10}))
        for wd in [torch.float32, torch.float64, torch.float16]:
            out.append(make_case("bincount", f"{SHORT[d]} weights {SHORT[wd]}", torch.bincount, [t],
                                 {"weights": make_tensor((12,), wd, uniform(0, 2))}, grad=False))
    out.append(make_case("bincount", "empty", torch.bincount, [torch.zeros(0, dtype=torch.long)], {"minlength": 3}))
    out.append(make_case("bincount", "negative", torch.bincount, [torch.tensor([1, -1])]))
    out.append(make_case("bincount", "2-d", torch.bincount, [torch.ones(2, 2, dtype=torch.long)]))
    out.append(make_case("bincount", "float", torch.bincount, [torch.ones(2)]))
    return out


def calculus_cases():
    out = []
    for d in F + [torch.int64]:
        for layout in ["contiguous", "transposed", "strided"]:
            t = make_tensor((4, 5), d, ANY, layout)
            out.append(make_case("trace", f"{SHORT[d]} {layout}", torch.trace, [t]))
            for kw in [{}, {"n": 2}, {"dim": 0}, {"n": 3, "dim": 0}, {"n": 0}]:
                out.append(make_case("diff", f"{SHORT[d]} {layout} {kw}", torch.diff, [t], kw))
        out.append(make_case("diff", f"{SHORT[d]} prepend append", torch.diff, [make_tensor((3, 4), d)],
                             {"prepend": make_tensor((3, 2), d), "append": make_tensor((3, 1), d)}))
    out.append(make_case("diff", "bool", torch.diff, [torch.tensor([True, False, False, True])]))
    out.append(make_case("diff", "0-d", torch.diff, [torch.tensor(1.0)]))
    out.append(make_case("diff", "n > size", torch.diff, [make_tensor((3,), torch.float64)], {"n": 5}))
    out.append(make_case("trace", "1-d", torch.trace, [make_tensor((3,), torch.float32)]))
    out.append(make_case("trace", "empty", torch.trace, [make_tensor((0, 3), torch.float32)]))
    for d in F:
        y = make_tensor((3, 6), d, ANY, "transposed")
        x1 = torch.sort(make_tensor((6,), d, uniform(0, 5)))[0]
        x2 = torch.sort(make_tensor((3, 6), d, uniform(0, 5)), dim=1)[0]
        for name, fn in [("trapezoid", torch.trapezoid), ("trapz", torch.trapz),
                         ("cumulative_trapezoid", torch.cumulative_trapezoid)]:
            out.append(make_case(name + "_x", f"{SHORT[d]} 1-d x", fn, [y, x1], k=8))
            out.append(make_case(name + "_x", f"{SHORT[d]} 2-d x", fn, [y, x2], k=8))
            out.append(make_case(name + "_x", f"{SHORT[d]} dim 0", fn, [y, make_tensor((3,), d)], {"dim": 0}, k=8))
            out.append(make_case(name, f"{SHORT[d]} default dx", fn, [y], k=8))
            out.append(make_case(name, f"{SHORT[d]} dx dim 0", fn, [y], {"dx": 0.5, "dim": 0}, k=8))
            out.append(make_case(name, f"{SHORT[d]} empty", fn, [make_tensor((3, 0), d)], k=8))
            out.append(make_case(name, f"{SHORT[d]} one sample", fn, [make_tensor((3, 1), d)], k=8))
        out.append(make_case("trapezoid_x", f"{SHORT[d]} x size mismatch", torch.trapezoid, [y, make_tensor((4,), d)]))
    for d in F + [torch.int64]:
        for layout in ["contiguous", "transposed"]:
            t = make_tensor((3, 7), d, ANY, layout)
            out.append(make_case("cov", f"{SHORT[d]} {layout}", torch.cov, [t], k=8))
            out.append(make_case("corrcoef", f"{SHORT[d]} {layout}", torch.corrcoef, [t], k=8))
        out.append(make_case("cov", f"{SHORT[d]} 1-d", torch.cov, [make_tensor((7,), d)], k=8))
        out.append(make_case("corrcoef", f"{SHORT[d]} 1-d", torch.corrcoef, [make_tensor((7,), d)], k=8))
    t = make_tensor((3, 7), torch.float64)
    fw = torch.randint(0, 4, (7,))
    aw = torch.rand(7, dtype=torch.float64) + 0.1
    for kw in [{"correction": 0}, {"correction": 2}, {"fweights": fw}, {"aweights": aw},
               {"fweights": fw, "aweights": aw}, {"fweights": fw, "aweights": aw, "correction": 0}]:
        out.append(make_case("cov", f"f64 {list(kw)} {kw.get('correction', 1)}", torch.cov, [t], kw, k=8))
    for d in F:
        for layout in ["contiguous", "transposed", "strided"]:
            t = make_tensor((3, 4, 2), d, ANY, layout)
            for p, dim, maxnorm in [(2, 0, 5.0), (1, 1, 3.0), (3.5, -1, 2.0), (2, 2, 100.0), (float("inf"), 0, 4.0)]:
                out.append(make_case("renorm", f"{SHORT[d]} {layout} p={p} dim={dim} max={maxnorm}", torch.renorm,
                                     [t, p, dim, maxnorm], k=8))
    out.append(make_case("renorm_out", "out", torch.renorm, [make_tensor((3, 4), torch.float64), 2, 0, 1.0],
                         {"out": torch.empty(0, dtype=torch.float64)}))
    out.append(make_case("renorm", "1-d", torch.renorm, [make_tensor((3,), torch.float32), 2, 0, 1.0]))
    out.append(make_case("renorm", "p = 0", torch.renorm, [make_tensor((3, 2), torch.float32), 0, 0, 1.0]))
    out.append(make_case("renorm", "negative maxnorm", torch.renorm, [make_tensor((3, 2), torch.float32), 2, 0, -1.0]))
    out.append(make_case("renorm", "i64", torch.renorm, [make_tensor((3, 2), torch.int64), 2, 0, 1.0]))
    out.append(make_case("renorm", "empty", torch.renorm, [make_tensor((0, 2), torch.float32), 2, 1, 1.0]))
    out.append(make_case("cov", "3-d", torch.cov, [torch.rand(2, 2, 2)]))
    out.append(make_case("cov", "negative fweights", torch.cov, [t], {"fweights": -fw - 1}))
    out.append(make_case("cov", "float fweights", torch.cov, [t], {"fweights": aw}))
    return out


def _materialize_zero_grads(case_list):
    """PyTorch 1.13 returns some all-zero gradients (sgn's, for real inputs) as storage-less ZeroTensors; the
    fixture needs their values."""
    for case in case_list:
        if case.grad is not None:
            case.grad.inputs = [(kind, key, torch.zeros(t.shape, dtype=t.dtype) if t is not None and t._is_zerotensor()
                                 else t) for kind, key, t in case.grad.inputs]
    return case_list


def cases():
    return _materialize_zero_grads(unary_cases() + binary_cases() + integral_and_polynomial_cases() + bessel_cases() + numerics_cases() + isin_cases() + ternary_cases() + gamma_family_cases()
            + selection_cases() + quantile_cases() + reduction_cases() + histogram_cases()
                                   + calculus_cases())
