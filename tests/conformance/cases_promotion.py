"""Type promotion: result_type for every dtype pair in every operand form (dim tensor, 0-d tensor,
Python scalar, on either side), promote_types and can_cast for every pair; complex64/complex128
included. Cases where PyTorch answers complex32 (a Half tensor with a lower-priority complex operand)
are left out: brasa has no ComplexHalf and answers ComplexFloat (docs/compat.md)."""

import torch

from common import ALL, SHORT, make_case

DTYPES = ALL + [torch.complex64, torch.complex128]

FORMS = ["dim", "0-d"]
SCALARS = [True, 3, -2.5]


def _operand(form, dtype):
    return torch.ones((2,) if form == "dim" else (), dtype=dtype)


def cases():
    out = []
    for da in DTYPES:
        for db in DTYPES:
            pair = f"{SHORT[da]} {SHORT[db]}"
            out.append(make_case("promote_types", pair, torch.promote_types, [da, db]))
            out.append(make_case("can_cast", pair, torch.can_cast, [da, db]))
            for fa in FORMS:
                for fb in FORMS:
                    out.append(make_case("result_type", f"{fa} {SHORT[da]}, {fb} {SHORT[db]}",
                                         torch.result_type, [_operand(fa, da), _operand(fb, db)]))
        for fa in FORMS:
            for s in SCALARS:
                t = _operand(fa, da)
                out.append(make_case("result_type", f"{fa} {SHORT[da]}, scalar {s!r}", torch.result_type, [t, s]))
                out.append(make_case("result_type", f"scalar {s!r}, {fa} {SHORT[da]}", torch.result_type, [s, t]))
    return [c for c in out if c.expected.value is not torch.complex32]

