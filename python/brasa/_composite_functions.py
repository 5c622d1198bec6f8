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


FUNCTIONS = {"sort": sort, "median": median, "nanmedian": nanmedian, "kthvalue": kthvalue,
             "mode": mode, "aminmax": aminmax}
METHODS = dict(FUNCTIONS)
for _name in ("argsort", "msort", "quantile", "nanquantile", "nansum", "nanmean", "rot90", "diag",
              "diag_embed", "diagflat", "diagonal_scatter", "take_along_dim", "tensor_split", "diff",
              "trace", "cov", "corrcoef", "histc", "bincount", "scatter", "scatter_add",
              "index_add", "index_copy", "index_fill", "index_put", "index_put_", "put", "tile",
              "narrow", "movedim", "moveaxis", "fliplr", "flipud", "ravel", "adjoint", "hsplit",
              "vsplit", "dsplit"):
    # A Python function, so that t.name(...) passes t as the first argument (a nanobind function
    # set on a class is not a descriptor).
    METHODS[_name] = (lambda fn: lambda self, *args, **kwargs: fn(self, *args, **kwargs))(
        getattr(_ops, _name))
METHODS["where"] = lambda self, condition, y: _ops.where(condition, self, y)
