"""brasa.linalg: torch.linalg over brasa's C++ linear algebra (LAPACK; python/src/linalg_binding.cpp),
with torch's named tuples for tuple results."""
import collections

from ._C import _linalg as _L
from ._C._linalg import (cholesky, cond, cross, det, diagonal, eigvals, eigvalsh,  # noqa: F401
                         householder_product, inv, ldl_solve, lu_solve, matmul, matrix_exp,
                         matrix_norm, matrix_power, matrix_rank, multi_dot, norm, pinv, solve,
                         solve_triangular, svdvals, tensorinv, tensorsolve, vander, vecdot,
                         vector_norm)


def _named(name, fields):
    result = collections.namedtuple(name, fields)
    fn = getattr(_L, name)

    def wrapper(*args, **kwargs):
        return result(*fn(*args, **kwargs))
    wrapper.__name__ = wrapper.__qualname__ = name
    wrapper.__doc__ = fn.__doc__
    return wrapper


slogdet = _named("slogdet", ["sign", "logabsdet"])
qr = _named("qr", ["Q", "R"])
svd = _named("svd", ["U", "S", "Vh"])
eigh = _named("eigh", ["eigenvalues", "eigenvectors"])
eig = _named("eig", ["eigenvalues", "eigenvectors"])
lstsq = _named("lstsq", ["solution", "residuals", "rank", "singular_values"])
lu_factor = _named("lu_factor", ["LU", "pivots"])
lu_factor_ex = _named("lu_factor_ex", ["LU", "pivots", "info"])
lu = _named("lu", ["P", "L", "U"])
ldl_factor = _named("ldl_factor", ["LD", "pivots"])
ldl_factor_ex = _named("ldl_factor_ex", ["LD", "pivots", "info"])
inv_ex = _named("inv_ex", ["inverse", "info"])
solve_ex = _named("solve_ex", ["result", "info"])
cholesky_ex = _named("cholesky_ex", ["L", "info"])
