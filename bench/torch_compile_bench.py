"""PyTorch 2.x columns of bench/compile_compositions_bench.cpp: GELU, softmax and LayerNorm written
as compositions (the same ops and sizes as the C++ side), eager and under torch.compile.
Prints "torch <version>", then "<name> <eager ms> <compiled ms>" lines. Usage: python torch_compile_bench.py THREADS
"""
import os
import sys
import time

# One compile thread: a pool of compile workers would otherwise compete with the timed runs.
os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")

import torch  # noqa: E402


def best_ms(f, reps):
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        best = min(best, (time.perf_counter() - t0) * 1e3)
    return best


def gelu(x):
    return x * 0.5 * (torch.erf(x * 0.7071067811865476) + 1)


def softmax(x):
    e = (x - x.amax(-1, keepdim=True)).exp()
    return e / e.sum(-1, keepdim=True)


def layer_norm(x, w, b):
    xc = x - x.mean(-1, keepdim=True)
    return xc * torch.rsqrt((xc * xc).mean(-1, keepdim=True) + 1e-5) * w + b


def main():
    torch.set_num_threads(int(sys.argv[1]))
    torch.manual_seed(0)
    big = torch.randn(1 << 22)
    rows = torch.randn(4096, 1024)
    w, b = torch.randn(1024), torch.randn(1024)
    cases = {"gelu": (gelu, (big,)), "softmax": (softmax, (rows,)),
             "layer_norm": (layer_norm, (rows, w, b))}
    print("torch", torch.__version__)
    for name, (fn, args) in cases.items():
        compiled = torch.compile(fn)
        for _ in range(3):
            compiled(*args)
        eager = comp = float("inf")
        for _ in range(5):
            eager = min(eager, best_ms(lambda: fn(*args), 1))
            comp = min(comp, best_ms(lambda: compiled(*args), 3))
        print(name, f"{eager:.3f}", f"{comp:.3f}", flush=True)


if __name__ == "__main__":
    main()
