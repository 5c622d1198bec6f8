"""Matrix products: mm, bmm, addmm, baddbmm, mv, addmv, dot, outer, matmul, linear, einsum.
Layouts (transposed, strided, expanded), broadcasting batch dims, empty dims, every numeric dtype
(Half is checked against float32 rounded: PyTorch 1.13 has no Half CPU kernel), and errors."""

import torch

from common import FLOATS, INTS, SHORT, make_case, make_tensor, domain_small

DTYPES = INTS + FLOATS
LAYOUTS = ["contiguous", "transposed", "strided"]
K = 8


def _t(shape, dtype, layout="contiguous"):
    return make_tensor(shape, dtype, domain_small, layout)


def _einsum(*xs, equation):
    return torch.einsum(equation, *xs)


def cases():
    out = []
    for d in DTYPES:
        s = SHORT[d]
        for la in LAYOUTS:
            for lb in LAYOUTS:
                tag = f"{s} {la}x{lb}"
                out.append(make_case("mm", tag, torch.mm, [_t((5, 7), d, la), _t((7, 6), d, lb)], k=K))
                out.append(make_case("bmm", tag, torch.bmm, [_t((3, 4, 5), d, la), _t((3, 5, 2), d, lb)], k=K))
                out.append(make_case("matmul", f"{tag} batch bcast", torch.matmul,
                                     [_t((2, 1, 4, 5), d, la), _t((3, 5, 2), d, lb)], k=K))
        a, b, v = _t((4, 6), d), _t((6, 3), d), _t((6,), d)
        out.append(make_case("mm", f"{s} expanded", torch.mm, [_t((4, 6), d, "expanded"), b], k=K))
        out.append(make_case("mm", f"{s} [0,3]x[3,4]", torch.mm, [_t((0, 3), d), _t((3, 4), d)]))
        out.append(make_case("mm", f"{s} [2,0]x[0,3]", torch.mm, [_t((2, 0), d), _t((0, 3), d)]))
        out.append(make_case("addmm", s, torch.addmm, [_t((4, 3), d), a, b], k=K))
        out.append(make_case("addmm", f"{s} bcast self beta alpha", torch.addmm, [_t((3,), d), a, b],
                             {"beta": 2, "alpha": 3}, k=K))
        out.append(make_case("addmm", f"{s} beta 0", torch.addmm, [_t((4, 3), d), a, b], {"beta": 0}, k=K))
        out.append(make_case("baddbmm", s, torch.baddbmm, [_t((2, 4, 3), d), _t((2, 4, 6), d),
                                                           _t((2, 6, 3), d, "transposed")],
                             {"beta": 2, "alpha": 1}, k=K))
        out.append(make_case("mv", s, torch.mv, [a, v], k=K))
        out.append(make_case("mv", f"{s} transposed", torch.mv, [_t((4, 6), d, "transposed"), v], k=K))
        out.append(make_case("addmv", s, torch.addmv, [_t((4,), d), a, _t((6,), d, "strided")],
                             {"beta": 2, "alpha": 2}, k=K))
        out.append(make_case("dot", s, torch.dot, [v, _t((6,), d, "strided")], k=K))
        out.append(make_case("outer", s, torch.outer, [_t((4,), d), _t((3,), d, "strided")], k=K))
        out.append(make_case("matmul", f"{s} 1-D x 1-D", torch.matmul, [v, v], k=K))
        out.append(make_case("matmul", f"{s} 2-D x 1-D", torch.matmul, [a, v], k=K))
        out.append(make_case("matmul", f"{s} 1-D x 2-D", torch.matmul, [_t((4,), d), a], k=K))
        out.append(make_case("matmul", f"{s} 3-D x 2-D", torch.matmul, [_t((2, 4, 6), d), b], k=K))
        out.append(make_case("matmul", f"{s} 3-D x 1-D", torch.matmul, [_t((2, 4, 6), d), v], k=K))
        out.append(make_case("matmul", f"{s} 1-D x 3-D", torch.matmul, [_t((4,), d), _t((2, 4, 6), d)], k=K))
        out.append(make_case("matmul", f"{s} empty batch", torch.matmul, [_t((0, 4, 6), d), b], k=K))
    for d in (torch.float32, torch.float64, torch.bfloat16):
        s = SHORT[d]
        x, w, bias = _t((2, 3, 5), d), _t((4, 5), d, "transposed"), _t((4,), d)
        out.append(make_case("linear", s, torch.nn.functional.linear, [x, w, bias], k=K))
        out.append(make_case("linear", f"{s} 2-D", torch.nn.functional.linear, [_t((3, 5), d), w, bias], k=K))
        out.append(make_case("linear", f"{s} no bias", torch.nn.functional.linear, [x, w], k=K))
        for eq, shapes in [("ij,jk->ik", [(3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
                           ("i,i->", [(5,), (5,)]), ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]),
                           ("bhid,bhjd->bhij", [(2, 3, 4, 5), (2, 3, 6, 5)]), ("i,j->ij", [(3,), (4,)]),
                           ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]),
                           ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)])]:
            ops = [_t(sh, d, "transposed" if i == 0 else "contiguous") for i, sh in enumerate(shapes)]
            out.append(make_case("einsum", f"{s} {eq}", _einsum, ops,
                                 {"equation": eq}, k=K))
    f, g = _t((2, 3), torch.float32), _t((4, 5), torch.float32)
    out.append(make_case("mm", "error shapes", torch.mm, [f, g]))
    out.append(make_case("mm", "error dtype", torch.mm, [f, _t((3, 2), torch.float64)]))
    out.append(make_case("mm", "error rank", torch.mm, [_t((3,), torch.float32), g]))
    out.append(make_case("mm", "error bool", torch.mm, [_t((2, 3), torch.bool), _t((3, 2), torch.bool)]))
    out.append(make_case("bmm", "error batch", torch.bmm, [_t((2, 2, 3), torch.float32),
                                                           _t((3, 3, 5), torch.float32)]))
    out.append(make_case("dot", "error size", torch.dot, [_t((3,), torch.float32), _t((4,), torch.float32)]))
    out.append(make_case("mv", "error size", torch.mv, [f, _t((4,), torch.float32)]))
    out.append(make_case("matmul", "error 0-d", torch.matmul, [_t((), torch.float32), _t((4,), torch.float32)]))
    out.append(make_case("matmul", "error batch", torch.matmul, [_t((2, 2, 3), torch.float32),
                                                                 _t((3, 3, 5), torch.float32)]))
    out.append(make_case("outer", "error rank", torch.outer, [f, _t((3,), torch.float32)]))
    out.append(make_case("einsum", "error size", _einsum, [f, g],
                         {"equation": "ij,jk->ik"}))
    out.append(make_case("einsum", "error operands", _einsum, [f],
                         {"equation": "ij,jk->ik"}))
    out.append(make_case("einsum", "error output", _einsum, [f],
                         {"equation": "ij->iz"}))
    return out
