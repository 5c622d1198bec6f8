"""Conversions: Tensor::to(dtype) and copy_ between every dtype pair, over layouts, broadcasting, 0-d and
empty tensors. Float->integral inputs stay inside the target's range and are never NaN/inf: C++ leaves
those conversions undefined, and so does PyTorch (its results differ across CPUs)."""

import torch

from common import ALL, INTS, SHORT, make_case, make_tensor

INT_LIMITS = {torch.uint8: (0, 250), torch.int8: (-120, 120), torch.int16: (-30000, 30000),
              torch.int32: (-1e6, 1e6), torch.int64: (-1e6, 1e6)}
SPECIAL_FLOATS = [float("nan"), float("inf"), float("-inf"), -0.0, 1e5, -7.5]


def conversion_domain(dst):
    """A value domain for a source tensor that will be converted to dst."""
    def make(src, n):
        if src == torch.bool:
            return torch.randint(0, 2, (n,)).bool()
        if src.is_floating_point:
            if dst in INTS:
                lo, hi = INT_LIMITS[dst]
                if src == torch.float16:
                    lo, hi = max(lo, -6e4), min(hi, 6e4)
                return (torch.rand(n, dtype=torch.float64) * (hi - lo) + lo).to(src)
            v = torch.randn(n, dtype=torch.float64) * 50
            k = min(n, len(SPECIAL_FLOATS))
            v[:k] = torch.tensor(SPECIAL_FLOATS[:k], dtype=torch.float64)
            return v.to(src)
        if src == torch.uint8:
            return torch.randint(0, 256, (n,)).to(src)
        lo = {torch.int8: -128, torch.int16: -1000}.get(src, -1000)
        hi = {torch.int8: 127}.get(src, 1000)
        return torch.randint(lo, hi + 1, (n,)).to(src)
    return make


def cases():
    out = []
    for src in ALL:
        for dst in ALL:
            pair = f"{SHORT[src]} -> {SHORT[dst]}"
            dom = conversion_domain(dst)
            for layout in ("contiguous", "transposed"):
                a = make_tensor((3, 4), src, dom, layout)
                out.append(make_case("to", f"{pair} {layout}", lambda t, d: t.to(d), [a, dst]))
            copy = lambda d, s: d.copy_(s)  # noqa: E731
            for dshape, sshape, dl, sl, what in [((2, 3), (2, 3), "transposed", "strided", "strided"),
                                                 ((2, 3), (3,), "contiguous", "contiguous", "broadcast"),
                                                 ((4,), (), "strided", "contiguous", "0-d src"),
                                                 ((0, 3), (0, 3), "contiguous", "contiguous", "empty"),
                                                 ((2, 3), (3, 3), "contiguous", "contiguous", "bad shape")]:
                d = make_tensor(dshape, dst, layout=dl)
                s = make_tensor(sshape, src, dom, sl)
                out.append(make_case("copy_", f"{pair} {what}", copy, [d, s]))
    return out + tiled_cases()


# Copies between transposed layouts large enough for the tiled path (Note [Tiled transpose copy] in
# src/backends/cpu/kernels/transpose_copy.h): every element width (same dtype, complex included),
# the casts it fuses (float32 <-> bfloat16, float16), sizes that are not multiples of the tile.
TILED_PAIRS = [(d, d) for d in ALL + [torch.complex64, torch.complex128]] + [
    (torch.float32, torch.bfloat16), (torch.bfloat16, torch.float32),
    (torch.float32, torch.float16), (torch.float16, torch.float32), (torch.float64, torch.bfloat16)]


def permuted(shape, perm, dtype, dom):
    """A tensor of `shape` that is a permutation of a contiguous one (dims `perm` of the base)."""
    base_shape = [0] * len(shape)
    for i, p in enumerate(perm):
        base_shape[p] = shape[i]
    n = 1
    for s in shape:
        n *= s
    return dom(dtype, n).reshape(base_shape).permute(*perm)


def tiled_cases():
    out = []
    copy = lambda d, s: d.copy_(s)  # noqa: E731
    for src, dst in TILED_PAIRS:
        pair = f"{SHORT[src]} -> {SHORT[dst]}"
        dom = conversion_domain(dst)
        s = permuted((37, 45), (1, 0), src, dom)
        out.append(make_case("to", f"{pair} tiled 37x45", lambda t, d: t.to(d), [s, dst]))
        shapes = [((37, 45), (1, 0), "2-D 37x45"), ((3, 33, 41), (0, 2, 1), "batched")]
        if torch.bfloat16 in (src, dst):
            shapes += [((64, 96), (1, 0), "2-D 64x96"), ((9, 200), (1, 0), "2-D 9x200"),
                       ((2, 3, 40, 36), (0, 2, 3, 1), "4-D permuted")]
        for shape, perm, what in shapes:
            s = permuted(shape, perm, src, dom)
            out.append(make_case("copy_", f"{pair} tiled {what} into contiguous", copy,
                                 [make_tensor(shape, dst), s]))
        s = make_tensor((37, 45), src, dom)
        d = permuted((37, 45), (1, 0), dst, lambda dt, n: torch.zeros(n, dtype=dt))
        out.append(make_case("copy_", f"{pair} tiled 37x45 into transposed", copy, [d, s]))
        # Transposed and sliced: a stride of 2 elements in the source's contiguous dim is not tiled,
        # in its other dim it is; and a window at an offset. All views of one 50x44 base.
        base = dom(src, 50 * 44).reshape(50, 44)
        for view, what in [(base.t()[:, ::2], "rows sliced"), (base.t()[::2, :], "columns sliced"),
                           (base[3:48, 1:42].t(), "offset window")]:
            d = make_tensor(tuple(view.shape), dst)
            out.append(make_case("copy_", f"{pair} tiled {what}", copy, [d, view]))
    return out
