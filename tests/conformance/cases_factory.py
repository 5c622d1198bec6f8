"""Factories and fills: zeros/ones/full/empty and their _like forms (shapes, dtypes, inferred dtypes),
scalar_tensor, fill_ with Python scalars and 0-d tensors, zero_."""

import torch

from fixture_format import FLAG_SKIP_VALUES
from common import ALL, SHORT, make_case, make_tensor

SHAPES = [[], [0], [3], [2, 3], [2, 0, 4], [1, 1, 1, 2]]
FILL_VALUES = [True, 0, 7, -3, 2.5, -0.5, 300, 1e6, float("nan"), float("inf"), 2 ** 40]


def _factory_cases():
    out = []
    for shape in SHAPES:
        for dtype in ALL + [None]:
            kw = {} if dtype is None else {"dtype": dtype}
            tag = f"{shape} {SHORT.get(dtype, 'default')}"
            out.append(make_case("zeros", tag, torch.zeros, [shape], kw))
            out.append(make_case("ones", tag, torch.ones, [shape], kw))
            out.append(make_case("empty", tag, torch.empty, [shape], kw, flags=FLAG_SKIP_VALUES))
            for v in (True, 3, -2.5, 300):
                out.append(make_case("full", f"{tag} {v!r}", torch.full, [shape, v], kw))
    for dtype in ALL:
        src = make_tensor((2, 3), dtype, layout="transposed")
        for like_dtype in (None, torch.float64, torch.int32, torch.bool):
            kw = {} if like_dtype is None else {"dtype": like_dtype}
            tag = f"{SHORT[dtype]} -> {SHORT.get(like_dtype, 'same')}"
            out.append(make_case("zeros_like", tag, torch.zeros_like, [src], kw))
            out.append(make_case("ones_like", tag, torch.ones_like, [src], kw))
            out.append(make_case("empty_like", tag, torch.empty_like, [src], kw, flags=FLAG_SKIP_VALUES))
            out.append(make_case("full_like", f"{tag} 5", torch.full_like, [src, 5], kw))
            out.append(make_case("full_like", f"{tag} 2.5", torch.full_like, [src, 2.5], kw))
        for v in (True, 4, -1.5):
            out.append(make_case("scalar_tensor", f"{v!r} {SHORT[dtype]}", torch.scalar_tensor, [v],
                                 {"dtype": dtype}))
    for v in (True, 4, -1.5):
        out.append(make_case("scalar_tensor", f"{v!r} default", torch.scalar_tensor, [v]))
    out.append(make_case("zeros", "negative size", torch.zeros, [[2, -1]]))
    out.append(make_case("full", "negative size", torch.full, [[-3], 1.0]))
    return out


def _fill_cases():
    out = []
    fill = lambda t, v: t.fill_(v)  # noqa: E731
    for dtype in ALL:
        for layout, shape in (("strided", (2, 3)), ("contiguous", ()), ("contiguous", (0,))):
            for v in FILL_VALUES:
                t = make_tensor(shape, dtype, layout=layout)
                out.append(make_case("fill_", f"{SHORT[dtype]} {layout} {list(shape)} {v!r}", fill, [t, v]))
        for vd in ALL:
            t = make_tensor((3, 2), dtype, layout="transposed")
            out.append(make_case("fill_", f"{SHORT[dtype]} with 0-d {SHORT[vd]}", fill,
                                 [t, make_tensor((), vd)]))
        t = make_tensor((3,), dtype)
        out.append(make_case("fill_", f"{SHORT[dtype]} with 1-d tensor", fill, [t, make_tensor((1,), dtype)]))
        out.append(make_case("zero_", f"{SHORT[dtype]} strided", lambda x: x.zero_(),
                             [make_tensor((2, 3), dtype, layout="strided")]))
    return out


def cases():
    return _factory_cases() + _fill_cases()
