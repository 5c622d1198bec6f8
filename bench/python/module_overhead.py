"""Per-call overhead of brasa.nn against torch.nn 1.13, same process, same run (best of 7):
  - calling a Module whose forward returns its input (the framework's __call__ alone),
  - nn.Linear(1, 1) on a [1, 1] input (call + one linear op),
  - a 3-layer MLP forward on a [1, 4] input (nested Module calls, attribute lookups),
  - one training step of the fashion_mnist MLP (784-512-512-10, batch 64: forward,
    cross_entropy, backward, AdamW step, zero_grad), the work where kernels dominate.
    python bench/python/module_overhead.py [--threads N]    # brasa and torch importable
The same MLP step from C++ is backend_bench's `mlp_step_adamw (batch 64)` CPU row (brasa's default
threads, the machine's cores).
"""
import argparse
import timeit

import torch

import brasa


def best_ns(fn, number, repeat=7):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e9


def measure(lib):
    nn, F = lib.nn, lib.nn.functional

    class Passthrough(nn.Module):
        def forward(self, x):
            return x

    class Mlp(nn.Module):
        def __init__(self, sizes):
            super().__init__()
            self.fc1, self.fc2, self.fc3 = (nn.Linear(sizes[0], sizes[1]),
                                            nn.Linear(sizes[1], sizes[2]),
                                            nn.Linear(sizes[2], sizes[3]))

        def forward(self, x):
            return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

    lib.manual_seed(0)
    x1 = lib.ones(1, 1)
    ident, lin, small = Passthrough(), nn.Linear(1, 1), Mlp((4, 8, 8, 2))
    x4 = lib.ones(1, 4)
    rows = {}
    with lib.no_grad():
        rows["Module() passthrough"] = best_ns(lambda: ident(x1), 100_000)
        rows["Linear(1, 1)"] = best_ns(lambda: lin(x1), 50_000)
        rows["MLP 4-8-8-2 forward"] = best_ns(lambda: small(x4), 20_000)
    big = Mlp((784, 512, 512, 10))
    opt = lib.optim.AdamW(big.parameters(), lr=1e-3)
    xb, yb = lib.randn(64, 784), (lib.rand(64) * 10).long()

    def step():
        opt.zero_grad()
        F.cross_entropy(big(xb), yb).backward()
        opt.step()
    rows["MLP 784-512-512-10 train step"] = best_ns(step, 30, repeat=5)
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--threads", type=int, default=1)
    threads = p.parse_args().threads
    torch.set_num_threads(threads)
    brasa.set_num_threads(threads)
    t, b = measure(torch), measure(brasa)
    print(f"{'':34s} {'torch 1.13':>12s} {'brasa':>12s} {'brasa/torch':>12s}")
    for k in t:
        print(f"{k:34s} {t[k]:10.0f}ns {b[k]:10.0f}ns {b[k] / t[k]:11.2f}x")


if __name__ == "__main__":
    main()
