"""torch functions over the composites of python/src/composite_functions.cpp: torch's named tuples
for tuple results, overloads chosen by argument, and the Tensor methods torch has."""
import collections

from . import _C, _ops

_Result = {name: collections.namedtuple(name, fields) for name, fields in (
    ("sort", ["values", "indices"]), ("median", ["values", "indices"]),
    ("nanmedian", ["values", "indices"]), ("kthvalue", ["values", "indices"]),
    ("mode", ["values", "indices"]), ("aminmax", ["min", "max"]), ("svd", ["U", "S", "V"]),
    ("histogram", ["hist", "bin_edges"]), ("histogramdd", ["hist", "bin_edges"]),
    ("triangular_solve", ["solution", "cloned_coefficient"]), ("lu_unpack", ["P", "L", "U"]),
    ("qr", ["Q", "R"]))}


def sort(input, dim=-1, descending=False, stable=False, *, out=None):
    return _Result["sort"](*_ops._sort_stable(input, stable, dim, descending))


def median(input, dim=None, keepdim=False, *, out=None):
    if dim is None:
        return _ops._median_all(input)
    if out is not None:
        _ops._median_dim_out(input, dim, keepdim, *out)
        return _Result["median"](*out)
    return _Result["median"](*_ops._median_dim(input, dim, keepdim))


def nanmedian(input, dim=None, keepdim=False):
    if dim is None:
        return _ops._nanmedian_all(input)
    return _Result["nanmedian"](*_ops._nanmedian_dim(input, dim, keepdim))


def kthvalue(input, k, dim=-1, keepdim=False, *, out=None):
    if out is not None:
        _ops._kthvalue_out(input, k, dim, keepdim, *out)
        return _Result["kthvalue"](*out)
    return _Result["kthvalue"](*_ops._kthvalue(input, k, dim, keepdim))


def triangular_solve(input, A, upper=True, transpose=False, unitriangular=False, *, out=None):
    return _Result["triangular_solve"](*_ops._triangular_solve(input, A, upper, transpose,
                                                                unitriangular))


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    return _Result["lu_unpack"](*_ops._lu_unpack(LU_data, LU_pivots, unpack_data,
                                                  unpack_pivots))


def qr(input, some=True, *, out=None):
    from . import linalg
    return _Result["qr"](*linalg.qr(input, "reduced" if some else "complete"))


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    values, inverse, counts = _ops._unique(input, sorted, return_inverse, return_counts, dim)
    if not (return_inverse or return_counts):
        return values
    return (values,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())


def kl_div(input, target, reduction=1, *, log_target=False):
    """aten's kl_div (reduction as torch's enum: 0 none, 1 mean, 2 sum)."""
    return _C._nn.kl_div(input, target, reduction, log_target)


def meshgrid(*tensors, indexing=None):
    """torch.meshgrid(t1, t2, ...) or meshgrid([t1, t2]); indexing "ij" (the default) or "xy"."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    return tuple(_ops.meshgrid(list(tensors), "ij" if indexing is None else indexing))


def histogram(input, bins=100, *, range=None, weight=None, density=False):
    return _Result["histogram"](*_ops._histogram(input, bins, range, weight, density))


def histogramdd(input, bins, *, range=None, weight=None, density=False):
    return _Result["histogramdd"](*_ops._histogramdd(input, bins, range, weight, density))


def mode(input, dim=-1, keepdim=False):
    return _Result["mode"](*_ops._mode(input, dim, keepdim))


def aminmax(input, *, dim=None, keepdim=False):
    return _Result["aminmax"](*_ops._aminmax(input, dim, keepdim))


def _window(kind, defaults):
    def fn(window_length, periodic=True, *params, dtype=None, layout=None, device=None,
           requires_grad=False, **named):
        a, b = (list(params) + [named.get(n, d) for n, d in defaults][len(params):] + [0.0, 0.0])[:2]
        w = _ops._window(kind, window_length, periodic, a, b, dtype)
        return w.requires_grad_() if requires_grad else w
    fn.__name__ = kind + "_window"
    return fn


def scalar_tensor(s, *, dtype=None, layout=None, device=None, requires_grad=False,
                  pin_memory=None):
    t = _ops._scalar_tensor(s, dtype)
    return t.requires_grad_() if requires_grad else t


def roll(input, shifts, dims=None):
    as_list = (lambda v: [v] if isinstance(v, int) else list(v))
    return _ops.roll(input, as_list(shifts), [] if dims is None else as_list(dims))


def pow(input, exponent, *, out=None):
    if not isinstance(input, _C.Tensor) and isinstance(exponent, _C.Tensor) and out is None:
        return _ops._pow_scalar_self(input, exponent)
    return _ops.pow(input, exponent) if out is None else _ops.pow(input, exponent, out=out)


def div_(self, other, *, rounding_mode=None):
    op = {None: _ops.div_, "trunc": _ops.div_trunc_, "floor": _ops.floor_divide_}.get(rounding_mode)
    if op is None:
        raise ValueError(f"div_ expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                         f"found '{rounding_mode}'")
    return op(self, other)


def svd(input, some=True, compute_uv=True, *, out=None):
    return _Result["svd"](*_ops._svd_legacy(input, some, compute_uv))


def _functional(name):
    """torch.celu & co.: torch.nn.functional's function of the same name (imported on first use,
    as brasa.nn imports this package)."""
    def fn(*args, **kwargs):
        from .nn import functional
        return getattr(functional, name)(*args, **kwargs)
    fn.__name__ = name
    return fn


FUNCTIONS = {"sort": sort, "median": median, "nanmedian": nanmedian, "kthvalue": kthvalue,
             "mode": mode, "aminmax": aminmax, "scalar_tensor": scalar_tensor,
             "hann_window": _window("hann", ()),
             "hamming_window": _window("hamming", (("alpha", 0.54), ("beta", 0.46))),
             "blackman_window": _window("blackman", ()),
             "bartlett_window": _window("bartlett", ()),
             "kaiser_window": _window("kaiser", (("beta", 12.0),)), "roll": roll, "pow": pow,
             "svd": svd, "histogram": histogram, "histogramdd": histogramdd,
             "triangular_solve": triangular_solve, "lu_unpack": lu_unpack, "qr": qr,
             "unique": unique, "kl_div": kl_div, "meshgrid": meshgrid}
for _name in ("celu", "selu", "rrelu", "threshold", "prelu", "hardshrink", "glu"):
    FUNCTIONS.setdefault(_name, _functional(_name))
for _alias, _name in (("arcsinh", "asinh"), ("arccosh", "acosh"), ("arctanh", "atanh"),
                      ("negative", "neg"), ("multiply", "mul"), ("subtract", "sub"),
                      ("absolute", "abs"),
                      ("clip", "clamp"), ("greater", "gt"), ("less", "lt")):
    if hasattr(_ops, _name) and not hasattr(_ops, _alias):
        FUNCTIONS[_alias] = getattr(_ops, _name)
METHODS = {n: f for n, f in FUNCTIONS.items() if not n.endswith("_window") and n not in (
    "scalar_tensor", "celu", "selu", "rrelu", "threshold", "glu", "histogramdd", "lu_unpack",
    "kl_div", "meshgrid")}
METHODS["div_"] = div_
for _name in ("argsort", "msort", "quantile", "nanquantile", "nansum", "nanmean", "rot90", "diag",
              "diag_embed", "diagflat", "diagonal_scatter", "take_along_dim", "tensor_split", "diff",
              "trace", "cov", "corrcoef", "histc", "bincount", "scatter", "scatter_add",
              "index_add", "index_copy", "index_fill", "index_put", "index_put_", "put", "tile",
              "narrow", "movedim", "moveaxis", "fliplr", "flipud", "ravel", "adjoint", "hsplit",
              "vsplit", "dsplit", "arccos", "arcsin", "arctan", "fix", "sgn", "deg2rad",
              "rad2deg", "sinc", "isneginf", "isposinf", "positive", "isreal", "conj", "angle",
              "arctan2", "fmax", "fmin", "ldexp", "logaddexp", "logaddexp2", "heaviside",
              "greater_equal", "less_equal", "not_equal", "float_power", "xlogy", "copysign",
              "kron", "inner", "outer", "ger", "mv", "vdot", "addr", "addbmm", "matrix_power",
              "isclose", "renorm", "logit", "addcdiv", "addcdiv_", "addcmul", "addcmul_",
              "index_reduce", "index_reduce_", "stft", "istft", "argwhere", "cross", "dist",
              "matrix_exp", "select_scatter", "slice_scatter", "as_strided_scatter", "mvlgamma",
              "is_nonzero", "is_same_size", "resolve_neg", "cholesky_solve", "cholesky_inverse",
              "orgqr", "ormqr", "unflatten"):
    # A Python function, so that t.name(...) passes t as the first argument (a nanobind function
    # set on a class is not a descriptor).
    METHODS[_name] = (lambda fn: lambda self, *args, **kwargs: fn(self, *args, **kwargs))(
        getattr(_ops, _name))
METHODS["where"] = lambda self, condition, y: _ops.where(condition, self, y)
METHODS["polygamma"] = lambda self, n: _ops.polygamma(n, self)
# brasa has no lazy conjugate / negative bits (conj and neg compute): resolving is the identity.
FUNCTIONS["resolve_conj"] = METHODS["resolve_conj"] = lambda input: input
FUNCTIONS["is_conj"] = METHODS["is_conj"] = lambda input: False
FUNCTIONS["is_neg"] = METHODS["is_neg"] = lambda input: False
METHODS["mT"] = property(lambda self: self.transpose(-2, -1))
METHODS["mH"] = property(lambda self: self.transpose(-2, -1).conj())
