"""torch functions over the composites of python/src/composite_functions.cpp: torch's named tuples
for tuple results, overloads chosen by argument, and the Tensor methods torch has."""
import collections

from . import _ops

_Result = {name: collections.namedtuple(name, fields) for name, fields in (
    ("sort", ["values", "indices"]), ("median", ["values", "indices"]),
    ("nanmedian", ["values", "indices"]), ("kthvalue", ["values", "indices"]),
    ("mode", ["values", "indices"]), ("aminmax", ["min", "max"]))}


def sort(input, dim=-1, descending=False, stable=False, *, out=None):
    return _Result["sort"](*_ops._sort_stable(input, stable, dim, descending))


def median(input, dim=None, keepdim=False):
    if dim is None:
        return _ops._median_all(input)
    return _Result["median"](*_ops._median_dim(input, dim, keepdim))


def nanmedian(input, dim=None, keepdim=False):
    if dim is None:
        return _ops._nanmedian_all(input)
    return _Result["nanmedian"](*_ops._nanmedian_dim(input, dim, keepdim))


def kthvalue(input, k, dim=-1, keepdim=False):
    return _Result["kthvalue"](*_ops._kthvalue(input, k, dim, keepdim))


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


FUNCTIONS = {"sort": sort, "median": median, "nanmedian": nanmedian, "kthvalue": kthvalue,
             "mode": mode, "aminmax": aminmax, "scalar_tensor": scalar_tensor,
             "hann_window": _window("hann", ()),
             "hamming_window": _window("hamming", (("alpha", 0.54), ("beta", 0.46))),
             "blackman_window": _window("blackman", ()),
             "bartlett_window": _window("bartlett", ()),
             "kaiser_window": _window("kaiser", (("beta", 12.0),))}
METHODS = dict(FUNCTIONS)
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
              "isclose", "renorm", "logit"):
    # A Python function, so that t.name(...) passes t as the first argument (a nanobind function
    # set on a class is not a descriptor).
    METHODS[_name] = (lambda fn: lambda self, *args, **kwargs: fn(self, *args, **kwargs))(
        getattr(_ops, _name))
METHODS["where"] = lambda self, condition, y: _ops.where(condition, self, y)
