"""Range and literal factories: arange, linspace, logspace, eye, tensor-from-list."""

import torch

from common import SHORT, make_case

DTYPES = [None, torch.float32, torch.float64, torch.int64, torch.int32, torch.float16, torch.bfloat16, torch.uint8]


def cases():
    out = []
    for d in DTYPES:
        kw = {} if d is None else {"dtype": d}
        tag = SHORT.get(d, "default")
        for args in ([5], [0], [2, 9], [1, 10, 3], [10, 1, -2], [0.5, 3.2, 0.7], [-1, 1, 0.25], [3, 1], [0, 5, 0]):
            out.append(make_case("arange", f"{tag} {args}", torch.arange, args, kw, k=4))
        for start, end, steps in ((0, 1, 5), (-2, 2, 1), (3, -3, 7), (0, 10, 0), (1, 2, 100), (0, 1, -1)):
            out.append(make_case("linspace", f"{tag} {start} {end} {steps}", torch.linspace, [start, end, steps], kw, k=8))
            out.append(make_case("logspace", f"{tag} {start} {end} {steps}", torch.logspace, [start, end, steps], kw, k=8))
        out.append(make_case("logspace", f"{tag} base 2", torch.logspace, [0, 4, 5], {**kw, "base": 2.0}, k=8))
        for args in ([3], [2, 4], [0], [4, 1], [-1]):
            out.append(make_case("eye", f"{tag} {args}", torch.eye, args, kw))
    for values, dtype in (([1, 2, 3], None), ([1.5, -2.0], None), ([True, False], None), ([1, 2], torch.float16),
                          ([0.5, 1.5], torch.int32), ([[1, 2], [3, 4]], None), ([[1.0], [2.0], [3.0]], torch.float64),
                          ([], None), (7, None), (2.5, torch.bfloat16)):
        kw = {} if dtype is None else {"dtype": dtype}
        out.append(make_case("tensor", f"{values!r} {SHORT.get(dtype, 'inferred')}", torch.tensor, [values], kw))
    return out
