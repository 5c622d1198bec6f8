"""Type promotion: result_type for every dtype pair in every operand form (dim tensor, 0-d tensor,
Python scalar, on either side), promote_types and can_cast for every pair."""

import torch

from common import ALL, SHORT, make_case

FORMS = ["dim", "0-d"]
SCALARS = [True, 3, -2.5]


def _operand(form, dtype):
    return torch.ones((2,) if form == "dim" else (), dtype=dtype)


def cases():
    out = []
    for da in ALL:
        for db in ALL:
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
    return out

