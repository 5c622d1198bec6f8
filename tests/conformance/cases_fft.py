"""torch.fft: fft/ifft/rfft/irfft, their 2-D and N-D forms, fftfreq/rfftfreq and fftshift/ifftshift, over
even, odd and prime sizes, padding and trimming (n / s), dims, the three norms, batched, non-contiguous
and integral inputs, and errors. Gradients (Note [Gradient conformance]) flow through the complex
results with complex grad_outputs, so every adjoint of Note [FFT adjoints] is compared with PyTorch."""

import torch

from common import SHORT, make_case, make_tensor


def domain_signal(dtype, n):
    if dtype.is_complex:
        return torch.randn(n, dtype=torch.complex128).to(dtype)
    if dtype.is_floating_point:
        return torch.randn(n, dtype=torch.float64).to(dtype)
    return torch.randint(-5, 6, (n,)).to(dtype)


NORMS = [None, "forward", "ortho", "backward"]
K = 16  # sums of n products: tolerance like a reduction's


def kw(**kwargs):
    return {k: v for k, v in kwargs.items() if v is not None}


def one_dim_cases():
    out = []
    fns = {"fft_fft": torch.fft.fft, "fft_ifft": torch.fft.ifft, "fft_rfft": torch.fft.rfft,
           "fft_irfft": torch.fft.irfft}
    for name, fn in fns.items():
        real_input = name == "fft_rfft"
        dtypes = [torch.float32, torch.float64, torch.int64] if real_input else \
            [torch.complex64, torch.complex128, torch.float32, torch.int64]
        for d in dtypes:
            for size in [8, 7, 13, 1]:
                x = make_tensor((size,), d, domain_signal)
                out.append(make_case(name, f"{SHORT[d]} {size}", fn, [x], k=K))
            for n in [5, 11, 6]:
                x = make_tensor((3, 8), d, domain_signal)
                out.append(make_case(name, f"{SHORT[d]} n={n}", fn, [x], {"n": n}, k=K))
            for norm in NORMS[1:]:
                x = make_tensor((2, 9), d, domain_signal)
                out.append(make_case(name, f"{SHORT[d]} norm={norm}", fn, [x], {"norm": norm}, k=K))
            for layout in ["transposed", "strided", "expanded"]:
                x = make_tensor((4, 6), d, domain_signal, layout)
                out.append(make_case(name, f"{SHORT[d]} {layout} dim 0", fn, [x], {"dim": 0}, k=K))
            x = make_tensor((2, 5, 3), d, domain_signal)
            out.append(make_case(name, f"{SHORT[d]} batched dim 1 n=4 ortho", fn, [x],
                                 {"dim": 1, "n": 4, "norm": "ortho"}, k=K))
            out.append(make_case(name, f"{SHORT[d]} empty batch", fn,
                                 [make_tensor((0, 4), d, domain_signal)], k=K))
        # errors
        x = make_tensor((4,), torch.complex64 if not real_input else torch.float32, domain_signal)
        out.append(make_case(name, "norm bogus", fn, [x], {"norm": "bogus"}))
        out.append(make_case(name, "n=0", fn, [x], {"n": 0}))
        out.append(make_case(name, "dim out of range", fn, [x], {"dim": 2}))
        out.append(make_case(name, "0-d", fn, [make_tensor((), torch.complex64, domain_signal)]))
        out.append(make_case(name, "f16", fn, [make_tensor((4,), torch.float16, domain_signal)]))
    out.append(make_case("fft_rfft", "c64 input", torch.fft.rfft, [make_tensor((4,), torch.complex64, domain_signal)]))
    # irfft reads only the real parts of the DC and (even n) Nyquist bins.
    for n in [8, 7]:
        x = make_tensor((5,), torch.complex128, domain_signal)
        out.append(make_case("fft_irfft", f"c128 5 bins n={n}", torch.fft.irfft, [x], {"n": n}, k=K))
    return out


def n_dim_cases():
    out = []
    fns = {"fft_fftn": torch.fft.fftn, "fft_ifftn": torch.fft.ifftn, "fft_rfftn": torch.fft.rfftn,
           "fft_irfftn": torch.fft.irfftn}
    fns2 = {"fft_fft2": torch.fft.fft2, "fft_ifft2": torch.fft.ifft2, "fft_rfft2": torch.fft.rfft2,
            "fft_irfft2": torch.fft.irfft2}
    for name, fn in fns.items():
        real_input = name == "fft_rfftn"
        for d in ([torch.float32, torch.float64] if real_input else [torch.complex64, torch.complex128, torch.float64]):
            x = make_tensor((3, 4, 5), d, domain_signal)
            out.append(make_case(name, f"{SHORT[d]} all dims", fn, [x], k=K))
            out.append(make_case(name, f"{SHORT[d]} dim (0, 2)", fn, [x], {"dim": [0, 2]}, k=K))
            out.append(make_case(name, f"{SHORT[d]} dim (2, 0)", fn, [x], {"dim": [2, 0]}, k=K))
            out.append(make_case(name, f"{SHORT[d]} s (4, 6)", fn, [x], {"s": [4, 6]}, k=K))
            out.append(make_case(name, f"{SHORT[d]} s (-1, 3) dim (0, 1) ortho", fn, [x],
                                 {"s": [-1, 3], "dim": [0, 1], "norm": "ortho"}, k=K))
            out.append(make_case(name, f"{SHORT[d]} transposed forward", fn,
                                 [make_tensor((2, 6, 5), d, domain_signal, "transposed")],
                                 {"norm": "forward"}, k=K))
        x = make_tensor((3, 4), torch.complex64 if not real_input else torch.float32, domain_signal)
        out.append(make_case(name, "repeated dims", fn, [x], {"dim": [0, 0]}))
        out.append(make_case(name, "s and dim lengths differ", fn, [x], {"s": [2], "dim": [0, 1]}))
    for name, fn in fns2.items():
        real_input = name == "fft_rfft2"
        for d in ([torch.float32, torch.float64] if real_input else [torch.complex64, torch.complex128]):
            x = make_tensor((2, 5, 6), d, domain_signal)
            out.append(make_case(name, f"{SHORT[d]}", fn, [x], k=K))
            out.append(make_case(name, f"{SHORT[d]} s (4, 7)", fn, [x], {"s": [4, 7]}, k=K))
            out.append(make_case(name, f"{SHORT[d]} dim (0, 2)", fn, [x], {"dim": [0, 2]}, k=K))
    return out


def helper_cases():
    out = []
    for name, fn in (("fft_fftfreq", torch.fft.fftfreq), ("fft_rfftfreq", torch.fft.rfftfreq)):
        for n in [1, 4, 5, 10]:
            for d in [1.0, 0.25]:
                out.append(make_case(name, f"n={n} d={d}", fn, [n, d], k=2))
            out.append(make_case(name, f"n={n} f64", fn, [n], {"dtype": torch.float64}))
    for name, fn in (("fft_fftshift", torch.fft.fftshift), ("fft_ifftshift", torch.fft.ifftshift)):
        for dt in [torch.float32, torch.complex64, torch.int64]:
            x = make_tensor((4, 5), dt, domain_signal)
            out.append(make_case(name, f"{SHORT[dt]} all", fn, [x]))
            out.append(make_case(name, f"{SHORT[dt]} dim (1,)", fn, [x], {"dim": [1]}))
            out.append(make_case(name, f"{SHORT[dt]} dim (0,)", fn, [x], {"dim": [0]}))
    return out


def hermitian_cases():
    """hfft/ihfft and their 2-D and N-D forms: hfft* take complex (or real, integral) halves of
    Hermitian signals, ihfft* real signals."""
    out = []
    F = torch.fft
    for name, fn, dtypes in (("fft_hfft", F.hfft, [torch.complex64, torch.complex128, torch.float32, torch.int64]),
                             ("fft_ihfft", F.ihfft, [torch.float32, torch.float64, torch.int64])):
        for d in dtypes:
            x = make_tensor((3, 5), d, domain_signal, "transposed")
            out.append(make_case(name, f"{SHORT[d]} transposed", fn, [x], k=K))
            for norm in NORMS[1:]:
                out.append(make_case(name, f"{SHORT[d]} n=7 dim 0 norm={norm}", fn, [x],
                                     {"n": 7, "dim": 0, "norm": norm}, k=K))
            out.append(make_case(name, f"{SHORT[d]} n=4", fn, [x], {"n": 4}, k=K))
        x = make_tensor((4,), dtypes[0], domain_signal)
        out.append(make_case(name, "strided", fn, [make_tensor((6,), dtypes[0], domain_signal, "strided")], k=K))
        out.append(make_case(name, "empty batch", fn, [make_tensor((0, 4), dtypes[0], domain_signal)], k=K))
        out.append(make_case(name, "norm bogus", fn, [x], {"norm": "bogus"}))
        out.append(make_case(name, "dim out of range", fn, [x], {"dim": 2}))
        out.append(make_case(name, "n=0", fn, [x], {"n": 0}))
    out.append(make_case("fft_ihfft", "complex input", F.ihfft, [make_tensor((4,), torch.complex64, domain_signal)]))
    for name, fn, d in (("fft_hfftn", F.hfftn, torch.complex128), ("fft_ihfftn", F.ihfftn, torch.float64),
                        ("fft_hfft2", F.hfft2, torch.complex64), ("fft_ihfft2", F.ihfft2, torch.float32)):
        x = make_tensor((3, 4, 5), d, domain_signal, "transposed")
        out.append(make_case(name, f"{SHORT[d]}", fn, [x], k=K))
        out.append(make_case(name, f"{SHORT[d]} s (4, 6) dim (0, 2) ortho", fn, [x],
                             {"s": [4, 6], "dim": [0, 2], "norm": "ortho"}, k=K))
        out.append(make_case(name, f"{SHORT[d]} forward", fn, [x], {"norm": "forward"}, k=K))
        out.append(make_case(name, "repeated dims", fn, [x], {"dim": [1, 1]}))
    return out


def stft_cases():
    """stft / istft: windows, hops, centring and its pad modes, one- and two-sided, normalized,
    batched, and round trips; gradients flow through both."""
    out = []
    hann = lambda n, d: torch.hann_window(n, dtype=d)  # noqa: E731
    for d in (torch.float32, torch.float64):
        s = SHORT[d]
        x = make_tensor((2, 40), d, domain_signal)
        xt = make_tensor((40, 2), d, domain_signal).t()
        out.append(make_case("stft", f"{s} defaults", torch.stft, [x, 16], {"return_complex": True}, k=K))
        out.append(make_case("stft", f"{s} transposed hann hop 5 win 12", torch.stft, [xt, 16],
                             {"hop_length": 5, "win_length": 12, "window": hann(12, d), "return_complex": True}, k=K))
        for mode in ("constant", "replicate", "circular"):
            out.append(make_case("stft", f"{s} pad {mode}", torch.stft, [x[0], 8],
                                 {"pad_mode": mode, "return_complex": True}, k=K))
        out.append(make_case("stft", f"{s} not centred two-sided normalized", torch.stft, [x, 10],
                             {"center": False, "onesided": False, "normalized": True, "return_complex": True}, k=K))
        out.append(make_case("stft", f"{s} real output", torch.stft, [x[1], 8],
                             {"window": hann(8, d), "return_complex": False}, k=K))
        spec = torch.stft(x.double(), 16, window=hann(16, torch.float64), return_complex=True)
        spec = spec.to(torch.complex64 if d == torch.float32 else torch.complex128)
        out.append(make_case("istft", f"{s} hann", torch.istft, [spec, 16], {"window": hann(16, d)}, k=K))
        out.append(make_case("istft", f"{s} hann length 37", torch.istft, [spec, 16],
                             {"window": hann(16, d), "length": 37}, k=K))
        out.append(make_case("istft", f"{s} hann length 50", torch.istft, [spec[0], 16],
                             {"window": hann(16, d), "length": 50}, k=K))
        spec2 = torch.stft(x.double(), 8, hop_length=2, center=False, onesided=False, normalized=True,
                           return_complex=True).to(spec.dtype)
        out.append(make_case("istft", f"{s} two-sided normalized not centred", torch.istft, [spec2, 8],
                             {"hop_length": 2, "center": False, "normalized": True, "onesided": False}, k=K))
    x = make_tensor((40,), torch.float32, domain_signal)
    out.append(make_case("stft", "no return_complex", torch.stft, [x, 8]))
    out.append(make_case("stft", "n_fft too long bad", torch.stft, [x, 100], {"center": False, "return_complex": True}))
    out.append(make_case("stft", "3-d bad", torch.stft, [x.view(2, 2, 10), 4], {"return_complex": True}))
    out.append(make_case("stft", "window size bad", torch.stft, [x, 8],
                         {"window": torch.ones(5), "return_complex": True}))
    out.append(make_case("istft", "real input bad", torch.istft, [torch.zeros(5, 3), 8]))
    out.append(make_case("istft", "bins bad", torch.istft, [torch.zeros(4, 3, dtype=torch.complex64), 8]))
    out.append(make_case("istft", "zero window bad", torch.istft, [torch.ones(5, 3, dtype=torch.complex64), 8],
                         {"window": torch.zeros(8)}))
    return out


def cases():
    return one_dim_cases() + n_dim_cases() + helper_cases() + hermitian_cases() + stft_cases()
