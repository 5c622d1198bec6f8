"""Products and matrix functions beyond mm/matmul (brasa/ops/products.h, linalg_solvers.h): kron,
inner, tensordot, vdot, addbmm, addr, chain_matmul, linalg_multi_dot, cross / linalg_cross,
linalg_vecdot, linalg_matmul, linalg_diagonal, linalg_vander, matrix_power, matrix_exp, triangular
and Cholesky solves, tensorinv / tensorsolve, matrix_rank, cond and the old qr / svd forms. Layouts,
broadcasting, 0-d and empty operands, errors; gradients where PyTorch has them. qr and svd are
compared through sign-free quantities (reconstruction, |factors|), as in cases_decomp.py."""

import torch

from common import INTS, SHORT, make_case, make_tensor, domain_small

L = torch.linalg
GEN = torch.Generator().manual_seed(1515)
K = 16
FLOATS = [torch.float32, torch.float64]


def _t(shape, dtype=torch.float32, layout="contiguous"):
    return make_tensor(shape, dtype, domain_small, layout)


def _r(shape, dtype=torch.float64):
    return torch.randn(shape, generator=GEN, dtype=torch.float64).to(dtype)


def _well(shape, dtype):
    a = _r(shape)
    n = shape[-1]
    a[..., range(n), range(n)] += 2 * n
    return a.to(dtype)


def _lower(shape, dtype, unit_scale=False):
    a = _r(shape).tril()
    n = shape[-1]
    a[..., range(n), range(n)] = a[..., range(n), range(n)].abs() + 1
    return a.to(dtype)


def _product_cases(out):
    for d in [torch.float32, torch.float64, torch.int64]:
        s = SHORT[d]
        for la in ("contiguous", "transposed", "strided"):
            a, b = _t((2, 3), d, la), _t((3, 2, 2), d, la)
            out.append(make_case("kron", f"{s} {la} 2-d x 3-d", torch.kron, [a, b], k=K))
            out.append(make_case("inner", f"{s} {la}", torch.inner, [_t((2, 4), d, la), _t((3, 4), d, la)], k=K))
            out.append(make_case("tensordot", f"{s} {la} dims ([1, 0], [0, 1])", torch.tensordot,
                                 [_t((3, 4, 5), d, la), _t((4, 3, 2), d, la), ([1, 0], [0, 1])], k=K))
            out.append(make_case("addbmm", f"{s} {la}", torch.addbmm,
                                 [_t((3, 2), d, la), _t((4, 3, 5), d, la), _t((4, 5, 2), d, la)], k=K))
            out.append(make_case("addr", f"{s} {la}", torch.addr,
                                 [_t((3, 4), d, la), _t((3,), d, la), _t((4,), d, la)], k=K))
        out.append(make_case("kron", f"{s} 0-d x 1-d", torch.kron, [_t((), d), _t((3,), d)]))
        out.append(make_case("kron", f"{s} empty", torch.kron, [_t((0, 2), d), _t((2, 2), d)]))
        out.append(make_case("inner", f"{s} 0-d", torch.inner, [_t((), d), _t((2, 3), d)]))
        out.append(make_case("inner", f"{s} 1-d", torch.inner, [_t((4,), d), _t((4,), d, "strided")], k=K))
        out.append(make_case("inner", f"{s} bad sizes", torch.inner, [_t((2, 4), d), _t((3,), d)]))
        out.append(make_case("tensordot", f"{s} dims 0", torch.tensordot, [_t((2, 3), d), _t((2,), d), 0]))
        out.append(make_case("tensordot", f"{s} dims 2", torch.tensordot, [_t((2, 3, 4), d), _t((3, 4, 5), d), 2], k=K))
        out.append(make_case("tensordot", f"{s} size-1 broadcast", torch.tensordot,
                             [_t((2, 3), d), _t((1, 4), d), ([1], [0])], k=K))
        out.append(make_case("tensordot", f"{s} bad sizes", torch.tensordot,
                             [_t((2, 3), d), _t((2, 4), d), ([1], [0])]))
        out.append(make_case("tensordot", f"{s} bad lengths", torch.tensordot,
                             [_t((2, 3), d), _t((3, 4), d), ([1], [0, 1])]))
        out.append(make_case("vdot", f"{s}", torch.vdot, [_t((5,), d, "strided"), _t((5,), d)], k=K))
        out.append(make_case("vdot", f"{s} empty", torch.vdot, [_t((0,), d), _t((0,), d)]))
        out.append(make_case("vdot", f"{s} 2-d bad", torch.vdot, [_t((2, 2), d), _t((4,), d)]))
        out.append(make_case("addbmm", f"{s} bcast self beta alpha", torch.addbmm,
                             [_t((2,), d), _t((3, 4, 5), d), _t((3, 5, 2), d)], {"beta": 2, "alpha": 3}, k=K))
        out.append(make_case("addbmm", f"{s} empty batch", torch.addbmm,
                             [_t((4, 2), d), _t((0, 4, 5), d), _t((0, 5, 2), d)], k=K))
        out.append(make_case("addbmm", f"{s} bad batch", torch.addbmm,
                             [_t((4, 2), d), _t((2, 4, 5), d), _t((3, 5, 2), d)]))
        out.append(make_case("addbmm", f"{s} bad 2-d", torch.addbmm, [_t((4, 2), d), _t((4, 5), d), _t((3, 5, 2), d)]))
        out.append(make_case("addr", f"{s} bcast self beta 2 alpha 3", torch.addr,
                             [_t((1, 4), d), _t((3,), d), _t((4,), d)], {"beta": 2, "alpha": 3}, k=K))
        out.append(make_case("addr", f"{s} beta 0", torch.addr,
                             [_t((3, 4), d), _t((3,), d), _t((4,), d)], {"beta": 0}, k=K))
        out.append(make_case("addr", f"{s} 2-d vec bad", torch.addr, [_t((3, 4), d), _t((3, 1), d), _t((4,), d)]))
        out.append(make_case("addr", f"{s} bad self", torch.addr, [_t((2, 4), d), _t((3,), d), _t((4,), d)]))
        out.append(make_case("chain_matmul", f"{s} 3", lambda *m: torch.chain_matmul(*m),
                             [_t((2, 3), d), _t((3, 4), d, "transposed"), _t((4, 2), d)], k=K))
        out.append(make_case("chain_matmul", f"{s} 1", lambda *m: torch.chain_matmul(*m), [_t((2, 3), d)]))
        out.append(make_case("linalg_multi_dot", f"{s} 1-d 2-d 2-d 1-d", lambda *m: L.multi_dot(m),
                             [_t((3,), d), _t((3, 4), d), _t((4, 2), d, "transposed"), _t((2,), d)], k=K))
        out.append(make_case("linalg_multi_dot", f"{s} 2-d 2-d", lambda *m: L.multi_dot(m),
                             [_t((3, 0), d), _t((0, 4), d)], k=K))
        out.append(make_case("linalg_multi_dot", f"{s} 1-d 1-d", lambda *m: L.multi_dot(m),
                             [_t((3,), d), _t((3,), d)], k=K))
    f = _t((2, 3))
    out.append(make_case("vdot", "dtype bad", torch.vdot, [_t((3,)), _t((3,), torch.float64)]))
    out.append(make_case("vdot", "size bad", torch.vdot, [_t((3,)), _t((4,))]))
    out.append(make_case("chain_matmul", "3-d bad", lambda *m: torch.chain_matmul(*m), [f, _t((3, 2, 2))]))
    out.append(make_case("linalg_multi_dot", "one bad", lambda *m: L.multi_dot(m), [f]))
    out.append(make_case("linalg_multi_dot", "middle 1-d bad", lambda *m: L.multi_dot(m), [f, _t((3,)), _t((3,))]))
    out.append(make_case("linalg_multi_dot", "first 3-d bad", lambda *m: L.multi_dot(m), [_t((1, 2, 3)), _t((3,))]))
    out.append(make_case("linalg_multi_dot", "sizes bad", lambda *m: L.multi_dot(m), [f, _t((4, 2))]))
    out.append(make_case("linalg_multi_dot", "dtypes bad", lambda *m: L.multi_dot(m), [f, _t((3, 2), torch.float64)]))


def _vector_cases(out):
    for d in [torch.float32, torch.float64, torch.int64]:
        s = SHORT[d]
        for la in ("contiguous", "transposed", "strided", "expanded"):
            a, b = _t((4, 3), d, la), _t((4, 3), d)
            out.append(make_case("linalg_cross", f"{s} {la}", L.cross, [a, b]))
            out.append(make_case("cross", f"{s} {la} default dim", torch.cross, [_t((3, 4), d, la), _t((3, 4), d)]))
            out.append(make_case("linalg_vecdot", f"{s} {la}", L.vecdot, [a, b], k=K))
        out.append(make_case("linalg_cross", f"{s} bcast dim 0", L.cross, [_t((3, 1), d), _t((3, 5), d)], {"dim": 0}))
        out.append(make_case("cross", f"{s} dim 1", torch.cross, [_t((2, 3), d), _t((2, 3), d)], {"dim": 1}))
        out.append(make_case("linalg_cross", f"{s} empty", L.cross, [_t((0, 3), d), _t((0, 3), d)]))
        out.append(make_case("linalg_vecdot", f"{s} bcast dim 0", L.vecdot, [_t((4, 1), d), _t((4, 3), d)], {"dim": 0}, k=K))
        out.append(make_case("linalg_vecdot", f"{s} 1-d", L.vecdot, [_t((5,), d), _t((5,), d)], k=K))
    out.append(make_case("linalg_cross", "size 4 bad", L.cross, [_t((2, 4)), _t((2, 4))]))
    out.append(make_case("linalg_cross", "ndim bad", L.cross, [_t((3,)), _t((2, 3))]))
    out.append(make_case("cross", "no size 3 bad", torch.cross, [_t((2, 4)), _t((2, 4))]))
    out.append(make_case("linalg_vecdot", "dtype bad", L.vecdot, [_t((3,)), _t((3,), torch.float64)]))
    out.append(make_case("linalg_vecdot", "complex", L.vecdot,
                         [_r((2, 3), torch.complex128), _r((2, 3), torch.complex128)], k=K))
    for d in [torch.float32, torch.float64, torch.int64, torch.int32]:
        s = SHORT[d]
        x = _t((2, 4), d, "transposed")
        out.append(make_case("linalg_vander", f"{s}", L.vander, [x], k=K))
        out.append(make_case("linalg_vander", f"{s} N 3", L.vander, [x], {"N": 3}, k=K))
    out.append(make_case("linalg_vander", "0-d bad", L.vander, [_t(())]))
    out.append(make_case("linalg_vander", "N 1 bad", L.vander, [_t((3,))], {"N": 1}))
    out.append(make_case("linalg_vander", "bool bad", L.vander, [_t((3,), torch.bool)]))
    for la in ("contiguous", "transposed", "strided"):
        a = _t((3, 4, 5), torch.float32, la)
        out.append(make_case("linalg_matmul", f"f32 {la}", L.matmul, [a, _t((5, 2), torch.float32, la)], k=K))
        out.append(make_case("linalg_diagonal", f"f32 {la}", L.diagonal, [a]))
        out.append(make_case("linalg_diagonal", f"f32 {la} offset 1 dims 0 2", L.diagonal, [a],
                             {"offset": 1, "dim1": 0, "dim2": 2}))


def _matrix_function_cases(out):
    for d in FLOATS:
        s = SHORT[d]
        for la in ("contiguous", "transposed"):
            a = make_tensor((2, 3, 3), d, lambda dt, n: _r((n,), dt) * 0.5, la)
            for n in (0, 1, 2, 3, 6, -1, -3):
                out.append(make_case("matrix_power", f"{s} {la} n {n}", torch.matrix_power, [a, n], k=K))
            out.append(make_case("linalg_matrix_power", f"{s} {la} n 5", L.matrix_power, [a, 5], k=K))
            out.append(make_case("matrix_exp", f"{s} {la}", torch.matrix_exp, [a], k=K))
        big = _r((3, 4, 4), d) * 3
        out.append(make_case("matrix_exp", f"{s} large norm", torch.matrix_exp, [big], k=64))
        out.append(make_case("linalg_matrix_exp", f"{s} 1x1", L.matrix_exp, [_r((1, 1), d)], k=K))
        out.append(make_case("matrix_exp", f"{s} zeros", torch.matrix_exp, [torch.zeros(2, 2, dtype=d)]))
        out.append(make_case("matrix_exp", f"{s} empty", torch.matrix_exp, [torch.zeros(0, 2, 2, dtype=d)]))
    for d in INTS[1:]:
        out.append(make_case("matrix_power", f"{SHORT[d]} n 3", torch.matrix_power, [_t((3, 3), d), 3]))
    out.append(make_case("matrix_power", "not square bad", torch.matrix_power, [_t((2, 3)), 2]))
    out.append(make_case("matrix_power", "1-d bad", torch.matrix_power, [_t((3,)), 2]))
    out.append(make_case("matrix_exp", "not square bad", torch.matrix_exp, [_t((2, 3))]))
    out.append(make_case("matrix_exp", "int bad", torch.matrix_exp, [_t((2, 2), torch.int64)]))


def _sign_free_qr(a, some=True):
    q, r = torch.qr(a, some)
    return [q @ r, r.abs(), q.abs()]


def _sign_free_svd(a, some=True, compute_uv=True):
    u, s, v = torch.svd(a, some, compute_uv)
    if not compute_uv:
        return [u, s, v]
    k = s.shape[-1]
    return [u[..., :k] @ torch.diag_embed(s) @ v[..., :k].mT, s, u[..., :k].abs(), v[..., :k].abs()]


def _solver_cases(out):
    for d in FLOATS:
        s = SHORT[d]
        A, B = _lower((2, 3, 3), d), _r((2, 3, 4), d)
        for upper in (False, True):
            T = A if not upper else A.mT.contiguous()
            out.append(make_case("linalg_solve_triangular", f"{s} upper {upper}", L.solve_triangular,
                                 [T, B], {"upper": upper}, k=K))
            out.append(make_case("linalg_solve_triangular", f"{s} upper {upper} right unit",
                                 L.solve_triangular, [T, _r((4, 3), d)],
                                 {"upper": upper, "left": False, "unitriangular": True}, k=K))
            for transpose in (False, True):
                out.append(make_case("triangular_solve", f"{s} upper {upper} transpose {transpose}",
                                     torch.triangular_solve, [B, T, upper, transpose], k=K))
            out.append(make_case("cholesky_solve", f"{s} upper {upper}", torch.cholesky_solve,
                                 [_r((3, 2), d), T, upper], k=K))
            out.append(make_case("cholesky_inverse", f"{s} upper {upper}", torch.cholesky_inverse,
                                 [T, upper], k=K))
        out.append(make_case("linalg_solve_triangular", f"{s} bcast batch", L.solve_triangular,
                             [A, _r((3, 2), d)], {"upper": False}, k=K))
        out.append(make_case("linalg_solve_triangular", f"{s} ignores other triangle", L.solve_triangular,
                             [_r((3, 3), d) + 4 * torch.eye(3, dtype=d), _r((3, 2), d)], {"upper": True}, k=K))
        out.append(make_case("triangular_solve", f"{s} unitriangular bcast", torch.triangular_solve,
                             [_r((3, 2), d), A, False, False, True], k=K))
        out.append(make_case("cholesky_solve", f"{s} bcast", torch.cholesky_solve, [_r((2, 3, 1), d), A[0]], k=K))
        out.append(make_case("linalg_tensorinv", f"{s}", L.tensorinv, [_well((4, 4), d).reshape(4, 2, 2)], {"ind": 1}, k=K))
        out.append(make_case("linalg_tensorinv", f"{s} ind 2", L.tensorinv, [_well((6, 6), d).reshape(2, 3, 3, 2)], k=K))
        out.append(make_case("linalg_tensorsolve", f"{s}", L.tensorsolve,
                             [_well((6, 6), d).reshape(2, 3, 6), _r((2, 3), d)], k=K))
        out.append(make_case("linalg_tensorsolve", f"{s} dims", L.tensorsolve,
                             [_well((6, 6), d).reshape(6, 2, 3), _r((2, 3), d)], {"dims": [0]}, k=K))
        low_rank = (_r((2, 5, 2), d) @ _r((2, 2, 4), d))
        out.append(make_case("linalg_matrix_rank", f"{s}", L.matrix_rank, [low_rank]))
        out.append(make_case("linalg_matrix_rank", f"{s} full", L.matrix_rank, [_well((3, 3), d)]))
        out.append(make_case("linalg_matrix_rank", f"{s} atol", L.matrix_rank, [low_rank], {"atol": 1.0}))
        out.append(make_case("linalg_matrix_rank", f"{s} atol rtol", L.matrix_rank, [low_rank],
                             {"atol": 0.5, "rtol": 0.1}))
        out.append(make_case("linalg_matrix_rank", f"{s} tol", L.matrix_rank, [low_rank], {"tol": 1e-3}))
        sym = low_rank[0] @ low_rank[0].mT
        out.append(make_case("linalg_matrix_rank", f"{s} hermitian", L.matrix_rank, [sym], {"hermitian": True}))
        out.append(make_case("linalg_matrix_rank", f"{s} empty", L.matrix_rank, [_r((2, 0, 3), d)]))
        W = _well((2, 3, 3), d)
        for p in (None, 2, -2, 1, -1, float("inf"), float("-inf"), "fro", "nuc"):
            out.append(make_case("linalg_cond", f"{s} p {p}", L.cond, [W], {} if p is None else {"p": p}, k=K))
        out.append(make_case("linalg_cond", f"{s} rectangular", L.cond, [_r((4, 2), d)], k=K))
        for la_shape in ((4, 3), (3, 5), (2, 4, 4)):
            a = _r(la_shape, d)
            out.append(make_case("qr", f"{s} {la_shape}", _sign_free_qr, [a], k=64))
            out.append(make_case("qr", f"{s} {la_shape} complete", _sign_free_qr, [a, False], k=64))
            out.append(make_case("svd", f"{s} {la_shape}", _sign_free_svd, [a], k=64))
            out.append(make_case("svd", f"{s} {la_shape} full", _sign_free_svd, [a, False], k=64))
            out.append(make_case("svd", f"{s} {la_shape} no uv", _sign_free_svd, [a, True, False], k=64))
        sym = _r((2, 3, 3), d)
        sym = sym + sym.mT
        out.append(make_case("symeig", f"{s} values", torch.symeig, [sym], k=K))
        out.append(make_case("symeig", f"{s} vectors lower", lambda a, v, u: [x.abs() for x in torch.symeig(a, v, u)],
                             [sym, True, False], k=K))
    f = _r((3, 3), torch.float32)
    out.append(make_case("linalg_solve_triangular", "1-d B bad", L.solve_triangular, [f, _r((3,), torch.float32)],
                         {"upper": True}))
    out.append(make_case("linalg_solve_triangular", "not square bad", L.solve_triangular,
                         [_r((3, 2), torch.float32), _r((3, 1), torch.float32)], {"upper": True}))
    out.append(make_case("linalg_solve_triangular", "int bad", L.solve_triangular,
                         [_t((3, 3), torch.int64), _t((3, 1), torch.int64)], {"upper": True}))
    out.append(make_case("triangular_solve", "1-d b bad", torch.triangular_solve, [_r((3,), torch.float32), f]))
    out.append(make_case("cholesky_solve", "sizes bad", torch.cholesky_solve, [_r((2, 1), torch.float32), f]))
    out.append(make_case("cholesky_inverse", "not square bad", torch.cholesky_inverse, [_r((3, 2), torch.float32)]))
    out.append(make_case("linalg_tensorinv", "ind 0 bad", L.tensorinv, [f], {"ind": 0}))
    out.append(make_case("linalg_tensorinv", "not square bad", L.tensorinv, [_r((2, 3, 2), torch.float32)], {"ind": 1}))
    out.append(make_case("linalg_tensorsolve", "sizes bad", L.tensorsolve, [_r((2, 3, 4), torch.float32),
                                                                           _r((2, 3), torch.float32)]))
    out.append(make_case("linalg_matrix_rank", "1-d bad", L.matrix_rank, [_r((3,), torch.float32)]))
    out.append(make_case("linalg_cond", "p 3 bad", L.cond, [f], {"p": 3}))
    out.append(make_case("linalg_cond", "p 1 not square bad", L.cond, [_r((3, 2), torch.float32)], {"p": 1}))
    out.append(make_case("svd", "1-d bad", torch.svd, [_r((3,), torch.float32)]))


def _lu_cases(out):
    for d in FLOATS:
        s = SHORT[d]
        for shape in ((4, 4), (3, 5), (5, 3), (2, 3, 3)):
            a = _r(shape, d)
            out.append(make_case("linalg_lu_factor_ex", f"{s} {shape}", L.lu_factor_ex, [a], k=K))
            out.append(make_case("linalg_lu_factor", f"{s} {shape}", L.lu_factor, [a], k=K))
            out.append(make_case("linalg_lu", f"{s} {shape}", L.lu, [a], k=K))
            LU, piv = L.lu_factor(a)
            out.append(make_case("lu_unpack", f"{s} {shape}", torch.lu_unpack, [LU, piv], k=K))
        out.append(make_case("lu_unpack", f"{s} no data", torch.lu_unpack, [LU, piv, False], k=K))
        out.append(make_case("lu_unpack", f"{s} no pivots", torch.lu_unpack, [LU, piv, True, False], k=K))
        out.append(make_case("linalg_lu_factor_ex", f"{s} transposed", L.lu_factor_ex,
                             [_r((3, 4, 4), d).mT], k=K))
        out.append(make_case("linalg_lu_factor_ex", f"{s} empty", L.lu_factor_ex, [_r((0, 3, 3), d)]))
        sing = _r((3, 3, 3), d)
        sing[1] = 0
        out.append(make_case("linalg_lu_factor_ex_info", f"{s} singular", lambda x: L.lu_factor_ex(x)[2],
                             [sing]))
        out.append(make_case("linalg_lu_factor", f"{s} singular bad", L.lu_factor, [sing]))
        out.append(make_case("linalg_lu_factor_ex", f"{s} singular check_errors bad", L.lu_factor_ex, [sing],
                             {"check_errors": True}))
        A = _well((2, 4, 4), d)
        LU, piv = L.lu_factor(A)
        for left in (True, False):
            for adjoint in (False, True):
                B = _r((2, 4, 3) if left else (2, 3, 4), d)
                out.append(make_case("linalg_lu_solve", f"{s} left {left} adjoint {adjoint}", L.lu_solve,
                                     [LU, piv, B], {"left": left, "adjoint": adjoint}, k=K))
        out.append(make_case("linalg_lu_solve", f"{s} bcast B", L.lu_solve, [LU, piv, _r((4, 2), d)], k=K))
        out.append(make_case("lu_solve", f"{s}", torch.lu_solve, [_r((2, 4, 1), d), LU, piv], k=K))
        out.append(make_case("linalg_inv_ex", f"{s}", L.inv_ex, [A], k=K))
        out.append(make_case("linalg_inv_ex", f"{s} singular", L.inv_ex, [sing], k=K))
        out.append(make_case("linalg_inv_ex", f"{s} singular check_errors bad", L.inv_ex, [sing],
                             {"check_errors": True}))
        out.append(make_case("linalg_solve_ex", f"{s}", L.solve_ex, [A, _r((2, 4, 2), d)], k=K))
        out.append(make_case("linalg_solve_ex", f"{s} right", L.solve_ex, [A, _r((2, 3, 4), d)],
                             {"left": False}, k=K))
        out.append(make_case("linalg_solve_ex", f"{s} vector", L.solve_ex, [A, _r((4,), d)], k=K))
        out.append(make_case("linalg_solve_ex_info", f"{s} singular", lambda a, b: L.solve_ex(a, b)[1],
                             [sing, _r((3, 3, 1), d)]))
        spd = A @ A.mT
        out.append(make_case("linalg_cholesky_ex", f"{s}", L.cholesky_ex, [spd], k=K))
        out.append(make_case("linalg_cholesky_ex", f"{s} upper", L.cholesky_ex, [spd], {"upper": True}, k=K))
        bad = spd.clone()
        bad[0] = -bad[0]
        out.append(make_case("linalg_cholesky_ex_info", f"{s} not pd", lambda x: L.cholesky_ex(x)[1], [bad]))
        out.append(make_case("linalg_cholesky_ex", f"{s} not pd check_errors bad", L.cholesky_ex, [bad],
                             {"check_errors": True}))
    out.append(make_case("linalg_lu_factor_ex", "int bad", L.lu_factor_ex, [_t((3, 3), torch.int64)]))
    out.append(make_case("linalg_lu_factor_ex", "1-d bad", L.lu_factor_ex, [_r((3,), torch.float32)]))
    out.append(make_case("linalg_lu_factor_ex", "no pivot bad", L.lu_factor_ex, [_r((3, 3), torch.float32)],
                         {"pivot": False}))
    out.append(make_case("linalg_lu_solve", "not square bad", L.lu_solve,
                         [_r((3, 4), torch.float32), torch.ones(3, dtype=torch.int32), _r((3, 1), torch.float32)]))
    out.append(make_case("lu_unpack", "int64 pivots bad", torch.lu_unpack,
                         [_r((3, 3), torch.float32), torch.ones(3, dtype=torch.int64)]))
    out.append(make_case("linalg_inv_ex", "not square bad", L.inv_ex, [_r((3, 4), torch.float32)]))


def _householder_cases(out):
    for d in FLOATS:
        s = SHORT[d]
        for shape in ((5, 3), (3, 3), (2, 4, 2), (3, 5)):
            a = _r(shape, d)
            out.append(make_case("geqrf", f"{s} {shape}", torch.geqrf, [a], k=K))
        for shape, k in (((5, 3), 3), ((5, 3), 2), ((2, 4, 4), 4), ((4, 3), 0)):
            a, tau = _r(shape, d), _r(shape[:-2] + (k,), d)
            out.append(make_case("linalg_householder_product", f"{s} {shape} k {k}", L.householder_product,
                                 [a, tau], k=K))
            out.append(make_case("orgqr", f"{s} {shape} k {k}", torch.orgqr, [a, tau], k=K))
        a, tau = torch.geqrf(_r((4, 3), d))
        out.append(make_case("linalg_householder_product", f"{s} of geqrf", L.householder_product, [a, tau], k=K))
        for left in (True, False):
            for transpose in (False, True):
                other = _r((4, 2) if left else (2, 4), d)
                out.append(make_case("ormqr", f"{s} left {left} transpose {transpose}", torch.ormqr,
                                     [a, tau, other, left, transpose], k=K))
    f = _r((3, 4), torch.float32)
    out.append(make_case("linalg_householder_product", "wide bad", L.householder_product, [f, _r((2,), torch.float32)]))
    out.append(make_case("linalg_householder_product", "tau too long bad", L.householder_product,
                         [f.mT, _r((4,), torch.float32)]))
    out.append(make_case("linalg_householder_product", "tau rank bad", L.householder_product,
                         [f.mT, _r((1, 2), torch.float32)]))
    out.append(make_case("geqrf", "int bad", torch.geqrf, [_t((3, 3), torch.int64)]))
    out.append(make_case("ormqr", "other bad", torch.ormqr, [f.mT, _r((2,), torch.float32), _r((3, 2), torch.float32)]))


def cases():
    out = []
    _householder_cases(out)
    _lu_cases(out)
    _product_cases(out)
    _vector_cases(out)
    _matrix_function_cases(out)
    _solver_cases(out)
    return out
