"""Matrix functions on LAPACK (torch.linalg): inv, solve, det, slogdet, cholesky, qr, svd, svdvals,
eigh, eigvalsh, lstsq, pinv and the norms. float and double; single, batched, broadcast and empty
batches; transposed and strided layouts; errors for singular and non-positive-definite matrices.
Decompositions whose factors have a sign freedom (qr, svd, eigh) are compared through quantities
that do not depend on it (reconstructions, |factors|, values), forward and gradient."""

import torch

from common import make_case

GEN = torch.Generator().manual_seed(1513)
K = 64  # LAPACK vs PyTorch's LAPACK: same algorithms, different blocking


def _rand(shape, dtype):
    return torch.randn(shape, generator=GEN, dtype=torch.float64).to(dtype)


def _layout(t, layout):
    """t's values with another memory layout: last two dims transposed in memory, or every other
    element of a larger storage."""
    if layout == "transposed":
        return t.mT.contiguous().mT
    if layout == "strided":
        base = torch.zeros(t.shape[:-1] + (t.shape[-1] * 2,), dtype=t.dtype)
        base[..., ::2] = t
        return base[..., ::2]
    return t


def _well(shape, dtype, layout="contiguous"):
    """A well-conditioned (diagonally dominant) square or rectangular matrix batch."""
    a = _rand(shape, torch.float64)
    n = min(shape[-2:])
    a[..., range(n), range(n)] += 2 * max(shape[-2:])
    return _layout(a.to(dtype), layout)


def _spd(shape, dtype, layout="contiguous"):
    x = _rand(shape, torch.float64)
    a = x @ x.mT + shape[-1] * torch.eye(shape[-1], dtype=torch.float64)
    return _layout(a.to(dtype), layout)


def _sym(shape, dtype):
    x = _rand(shape, torch.float64)
    return (x + x.mT).to(dtype)


def _qr(a, mode="reduced"):
    q, r = torch.linalg.qr(a, mode=mode)
    if mode == "r":
        return r.abs()
    return [q @ r, r.abs(), q.abs()]


def _svd(a, full_matrices=False):
    u, s, vh = torch.linalg.svd(a, full_matrices=full_matrices)
    k = s.shape[-1]
    return [u[..., :k] @ torch.diag_embed(s) @ vh[..., :k, :], s, u[..., :k].abs(), vh[..., :k, :].abs()]


def _eigh(a, UPLO="L"):
    w, v = torch.linalg.eigh(a, UPLO=UPLO)
    return [w, v.abs(), v @ torch.diag_embed(w) @ v.mT]


def _eig(a):
    w, v = torch.linalg.eig(a)
    return [w, v.abs()]


def _ldl(a, hermitian=False):
    return list(torch.linalg.ldl_factor(a, hermitian=hermitian))


def _lstsq(a, b, driver=None):
    return list(torch.linalg.lstsq(a, b, driver=driver))


def _lstsq_solution(a, b, driver=None):
    return torch.linalg.lstsq(a, b, driver=driver).solution


def cases():
    out = []
    L = torch.linalg
    for d in (torch.float32, torch.float64):
        s = "f32" if d == torch.float32 else "f64"
        for lay in ("contiguous", "transposed", "strided"):
            out.append(make_case("linalg_inv", f"{s} {lay}", L.inv, [_well((4, 4), d, lay)], k=K))
            out.append(make_case("linalg_det", f"{s} {lay}", L.det, [_well((2, 3, 3), d, lay)], k=K))
            out.append(make_case("linalg_cholesky", f"{s} {lay}", L.cholesky, [_spd((2, 4, 4), d, lay)], k=K))
            out.append(make_case("linalg_qr", f"{s} {lay}", _qr, [_well((5, 3), d, lay)], k=K))
            out.append(make_case("linalg_svd", f"{s} {lay}", _svd, [_well((4, 3), d, lay)], k=K))
        out.append(make_case("linalg_inv", f"{s} batched", L.inv, [_well((2, 3, 3, 3), d)], k=K))
        out.append(make_case("linalg_inv", f"{s} empty batch", L.inv, [_well((0, 3, 3), d)], k=K))
        out.append(make_case("linalg_inv", f"{s} 0x0", L.inv, [_well((0, 0), d)], k=K))
        out.append(make_case("linalg_solve", f"{s} batched", L.solve, [_well((2, 3, 3), d), _rand((2, 3, 2), d)], k=K))
        out.append(make_case("linalg_solve", f"{s} vector", L.solve, [_well((3, 3), d), _rand((3,), d)], k=K))
        out.append(make_case("linalg_solve", f"{s} batch of vectors", L.solve, [_well((2, 3, 3), d), _rand((2, 3), d)], k=K))
        out.append(make_case("linalg_solve", f"{s} broadcast A", L.solve,
                             [_well((3, 3), d, "transposed"), _rand((2, 3, 4), d)], k=K))
        out.append(make_case("linalg_solve", f"{s} broadcast B", L.solve, [_well((2, 1, 3, 3), d), _rand((3, 3, 2), d)], k=K))
        out.append(make_case("linalg_solve", f"{s} left=False", L.solve, [_well((2, 3, 3), d), _rand((2, 4, 3), d)],
                             {"left": False}, k=K))
        out.append(make_case("linalg_solve", f"{s} empty batch", L.solve, [_well((0, 3, 3), d), _rand((0, 3, 2), d)], k=K))
        out.append(make_case("linalg_det", f"{s} single", L.det, [_well((4, 4), d)], k=K))
        out.append(make_case("linalg_det", f"{s} empty batch", L.det, [_well((0, 2, 2), d)], k=K))
        out.append(make_case("linalg_det", f"{s} negative", L.det, [torch.tensor([[0., 2.], [3., 1.]], dtype=d)], k=K))
        out.append(make_case("linalg_det", f"{s} singular rank 1", L.det, [torch.ones(3, 3, dtype=d)], k=K))
        out.append(make_case("linalg_det", f"{s} singular rank n-1", L.det,
                             [torch.tensor([[[1., 2.], [2., 4.]], [[2., 0.], [0., 3.]]], dtype=d)], k=K))
        out.append(make_case("linalg_slogdet", f"{s} batched", L.slogdet, [_rand((3, 4, 4), d)], k=K))
        out.append(make_case("linalg_slogdet", f"{s} singular", L.slogdet, [torch.ones(3, 3, dtype=d)], k=K, grad=False))
        out.append(make_case("linalg_cholesky", f"{s} upper", L.cholesky, [_spd((3, 3), d)], {"upper": True}, k=K))
        out.append(make_case("linalg_cholesky", f"{s} empty batch", L.cholesky, [_spd((0, 3, 3), d)], k=K))
        for shape in ((3, 5), (2, 4, 4), (2, 6, 3)):
            out.append(make_case("linalg_qr", f"{s} {shape}", _qr, [_well(shape, d)], k=K))
            out.append(make_case("linalg_svd", f"{s} {shape}", _svd, [_well(shape, d)], k=K))
            out.append(make_case("linalg_svd", f"{s} {shape} full", _svd, [_well(shape, d)], {"full_matrices": True}, k=K))
            out.append(make_case("linalg_svdvals", f"{s} {shape}", L.svdvals, [_well(shape, d)], k=K))
            out.append(make_case("linalg_pinv", f"{s} {shape}", L.pinv, [_well(shape, d)], k=K))
            out.append(make_case("linalg_matrix_norm", f"{s} {shape} nuc", L.matrix_norm, [_rand(shape, d)], {"ord": "nuc"}, k=K))
            out.append(make_case("linalg_matrix_norm", f"{s} {shape} 2", L.matrix_norm, [_rand(shape, d)], {"ord": 2}, k=K))
            out.append(make_case("linalg_matrix_norm", f"{s} {shape} -2", L.matrix_norm, [_rand(shape, d)], {"ord": -2}, k=K))
        out.append(make_case("linalg_qr", f"{s} complete square", _qr, [_well((3, 3), d)], {"mode": "complete"}, k=K))
        out.append(make_case("linalg_qr", f"{s} complete wide", _qr, [_well((2, 4), d)], {"mode": "complete"}, k=K))
        out.append(make_case("linalg_qr", f"{s} r", _qr, [_well((4, 3), d)], {"mode": "r"}, k=K))
        out.append(make_case("linalg_qr", f"{s} empty batch", _qr, [_well((0, 4, 3), d)], k=K))
        out.append(make_case("linalg_svd", f"{s} empty batch", _svd, [_well((0, 4, 3), d)], k=K))
        out.append(make_case("linalg_svdvals", f"{s} strided", L.svdvals, [_well((3, 4), d, "strided")], k=K))
        out.append(make_case("linalg_pinv", f"{s} hermitian", L.pinv, [_spd((2, 3, 3), d)], {"hermitian": True}, k=K))
        out.append(make_case("linalg_pinv", f"{s} rank deficient", L.pinv, [torch.ones(3, 4, dtype=d)], k=K, grad=False))
        for lay in ("contiguous", "transposed"):
            out.append(make_case("linalg_eigh", f"{s} {lay}", _eigh, [_layout(_sym((2, 4, 4), d), lay)], k=K))
        out.append(make_case("linalg_eigh", f"{s} upper", _eigh, [_sym((3, 3), d)], {"UPLO": "U"}, k=K))
        out.append(make_case("linalg_eigh", f"{s} empty batch", _eigh, [_sym((0, 3, 3), d)], k=K))
        out.append(make_case("linalg_eigvalsh", f"{s} batched", L.eigvalsh, [_sym((2, 3, 3), d)], k=K))
        for driver in (None, "gels", "gelsd", "gelss"):
            out.append(make_case("linalg_lstsq", f"{s} tall {driver}", _lstsq, [_well((2, 5, 3), d), _rand((2, 5, 2), d)],
                                 {"driver": driver}, k=K, grad=False))
            out.append(make_case("linalg_lstsq_solution", f"{s} tall {driver}", _lstsq_solution,
                                 [_well((2, 5, 3), d), _rand((2, 5, 2), d)], {"driver": driver}, k=K))
        out.append(make_case("linalg_lstsq_solution", f"{s} wide", _lstsq_solution, [_well((3, 5), d), _rand((3, 2), d)], k=K))
        out.append(make_case("linalg_lstsq_solution", f"{s} broadcast", _lstsq_solution,
                             [_well((1, 5, 3), d, "transposed"), _rand((2, 5, 2), d)], k=K))
        out.append(make_case("linalg_lstsq_solution", f"{s} vector", _lstsq_solution,
                             [_well((2, 5, 3), d), _rand((2, 5), d)], k=K))
        for ord_ in (2, 1, float("inf"), -float("inf"), 0, 3.5):
            out.append(make_case("linalg_vector_norm", f"{s} ord {ord_}", L.vector_norm, [_rand((3, 4), d)], {"ord": ord_},
                                 k=K, grad=ord_ != 0))
        out.append(make_case("linalg_vector_norm", f"{s} dim", L.vector_norm, [_rand((2, 3, 4), d, )],
                             {"ord": 2, "dim": [0, 2], "keepdim": True}, k=K))
        for ord_ in ("fro", 1, -1, float("inf"), -float("inf")):
            out.append(make_case("linalg_matrix_norm", f"{s} ord {ord_}", L.matrix_norm, [_rand((2, 3, 4), d)], {"ord": ord_}, k=K))
        out.append(make_case("linalg_matrix_norm", f"{s} dims keepdim", L.matrix_norm, [_rand((3, 2, 4), d)],
                             {"ord": 1, "dim": [2, 0], "keepdim": True}, k=K))
        out.append(make_case("linalg_norm", f"{s} default", L.norm, [_rand((2, 3, 4), d)], k=K))
        out.append(make_case("linalg_norm", f"{s} matrix", L.norm, [_rand((3, 4), d)], {"ord": "nuc"}, k=K))
        out.append(make_case("linalg_norm", f"{s} vector dim", L.norm, [_rand((3, 4), d)], {"ord": 3, "dim": [1]}, k=K))
    f = torch.float32
    singular = torch.ones(2, 3, 3, dtype=f)
    out.append(make_case("linalg_inv", "error singular", L.inv, [singular]))
    out.append(make_case("linalg_inv", "error not square", L.inv, [_rand((2, 3), f)]))
    out.append(make_case("linalg_inv", "error int", L.inv, [torch.ones(3, 3, dtype=torch.int64)]))
    out.append(make_case("linalg_solve", "error singular", L.solve, [singular, _rand((2, 3, 1), f)]))
    out.append(make_case("linalg_solve", "error shapes", L.solve, [_well((3, 3), f), _rand((4, 2), f)]))
    out.append(make_case("linalg_cholesky", "error not positive-definite", L.cholesky, [-torch.eye(3).expand(2, 3, 3)]))
    out.append(make_case("linalg_qr", "error mode", _qr, [_well((3, 3), f)], {"mode": "full"}))
    out.append(make_case("linalg_eigh", "error uplo", _eigh, [_sym((3, 3), f)], {"UPLO": "X"}))
    out += eig_ldl_cases()
    out.append(make_case("linalg_lstsq", "error dims", _lstsq, [_well((5, 3), f), _rand((2, 5, 2), f)]))
    out.append(make_case("linalg_lstsq", "error rows", _lstsq, [_well((5, 3), f), _rand((4, 2), f)]))
    out.append(make_case("linalg_svdvals", "error non-finite", L.svdvals, [torch.full((2, 3, 3), float("nan"))]))
    out.append(make_case("linalg_matrix_norm", "error ord", L.matrix_norm, [_rand((3, 3), f)], {"ord": 3}))
    return out


def eig_ldl_cases():
    """linalg.eig / eigvals (complex results in geev's order and normalisation; gradients through
    the values and |vectors|, which do not depend on the vectors' phases) and the LDL functions."""
    L = torch.linalg
    out = []
    for d in (torch.float32, torch.float64):
        s = "f32" if d == torch.float32 else "f64"
        for lay in ("contiguous", "transposed", "strided"):
            out.append(make_case("linalg_eig", f"{s} {lay}", _eig, [_layout(_rand((2, 4, 4), d), lay)], k=K))
        out.append(make_case("linalg_eig", f"{s} real spectrum", _eig, [_sym((3, 3), d)], k=K))
        out.append(make_case("linalg_eig", f"{s} empty batch", _eig, [_rand((0, 3, 3), d)], k=K))
        out.append(make_case("linalg_eig", f"{s} 1x1", _eig, [_rand((1, 1), d)], k=K))
        out.append(make_case("linalg_eig_raw", f"{s} values and vectors", L.eig, [_rand((2, 5, 5), d)], k=K,
                             grad=False))
        out.append(make_case("linalg_eigvals", f"{s} batched", L.eigvals, [_rand((3, 4, 4), d, )], k=K))
        out.append(make_case("linalg_eigvals", f"{s} rotation", L.eigvals,
                             [torch.tensor([[0.0, -1.0], [1.0, 0.0]], dtype=d)], k=K))
        for lay in ("contiguous", "transposed"):
            out.append(make_case("linalg_ldl_factor", f"{s} {lay}", _ldl, [_layout(_sym((2, 4, 4), d), lay)], k=K,
                                 grad=False))
        out.append(make_case("linalg_ldl_factor", f"{s} hermitian", _ldl, [_sym((3, 3), d)], {"hermitian": True},
                             k=K, grad=False))
        out.append(make_case("linalg_ldl_factor", f"{s} empty batch", _ldl, [_sym((0, 3, 3), d)], k=K, grad=False))
        out.append(make_case("linalg_ldl_factor_ex", f"{s} singular", L.ldl_factor_ex, [torch.zeros(2, 3, 3, dtype=d)],
                             k=K, grad=False))
        out.append(make_case("linalg_ldl_factor_ex", f"{s} indefinite", L.ldl_factor_ex,
                             [torch.tensor([[0.0, 1.0, 2.0], [1.0, 0.0, 3.0], [2.0, 3.0, 0.0]], dtype=d)], k=K, grad=False))
        a = _sym((2, 4, 4), d)
        ld, piv = L.ldl_factor(a)
        out.append(make_case("linalg_ldl_solve", f"{s} batched", L.ldl_solve, [ld, piv, _rand((2, 4, 3), d)], k=K,
                             grad=False))
        out.append(make_case("linalg_ldl_solve", f"{s} broadcast B", L.ldl_solve, [ld[0], piv[0], _rand((3, 4, 2), d)],
                             k=K, grad=False))
        out.append(make_case("linalg_ldl_solve", f"{s} int64 pivots", L.ldl_solve, [ld, piv.long(), _rand((2, 4, 1), d)],
                             k=K, grad=False))
    f = torch.float32
    out.append(make_case("linalg_eig", "error not square", _eig, [_rand((3, 4), f)]))
    out.append(make_case("linalg_eig", "error i64", _eig, [torch.ones(3, 3, dtype=torch.int64)]))
    out.append(make_case("linalg_eig", "error 1-d", _eig, [_rand((3,), f)]))
    out.append(make_case("linalg_ldl_factor", "error not square", _ldl, [_rand((3, 4), f)], grad=False))
    out.append(make_case("linalg_ldl_factor", "error i64", _ldl, [torch.ones(3, 3, dtype=torch.int64)], grad=False))
    out.append(make_case("linalg_ldl_factor", "error singular", _ldl, [torch.zeros(3, 3)], grad=False))
    ld, piv = L.ldl_factor(_sym((4, 4), torch.float64))
    out.append(make_case("linalg_ldl_solve", "error sizes", L.ldl_solve, [ld, piv, _rand((3, 2), torch.float64)],
                         grad=False))
    out.append(make_case("linalg_ldl_solve", "error dtype", L.ldl_solve, [ld, piv, _rand((4, 2), f)], grad=False))
    out.append(make_case("linalg_ldl_solve", "error pivots shape", L.ldl_solve, [ld.expand(2, 4, 4), piv, _rand((4, 2), torch.float64)],
                         grad=False))
    return out
