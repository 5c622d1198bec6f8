#!/usr/bin/env python3
"""Max pooling next to PyTorch: runs bench/pool_bench.cpp's binary (one thread) and the same
workloads in PyTorch (one thread, best of 9 in thread CPU time), and prints both and the ratio.

    /usr/bin/python3 bench/pool_bench.py build/release/bench/pool_bench [--rounds 3]
"""
import argparse
import os
import subprocess
import time

import torch
import torch.nn.functional as F

CASES = [("cnn1_64x32x28x28_k2", (64, 32, 28, 28), 2, 2, 0, True),
         ("cnn2_64x64x14x14_k2", (64, 64, 14, 14), 2, 2, 0, True),
         ("randn_64x32x28x28_k2", (64, 32, 28, 28), 2, 2, 0, False),
         ("stem_16x64x56x56_k3s2p1", (16, 64, 56, 56), 3, 2, 1, False),
         ("s1_16x64x56x56_k3s1p1", (16, 64, 56, 56), 3, 1, 1, False)]


def best_us(f):
    f()
    best = float("inf")
    for _ in range(9):
        t0 = time.thread_time()
        f()
        best = min(best, time.thread_time() - t0)
    return best * 1e6


def torch_times():
    torch.set_num_threads(1)
    torch.manual_seed(0)
    out = {}
    for name, shape, k, s, p, relu in CASES:
        x = torch.randn(shape)
        if relu:
            x = x.relu()
        y, ix = F.max_pool2d(x, k, s, p, return_indices=True)
        g = torch.randn(y.shape)
        xd = x.double()
        out[name + "_fwd"] = best_us(lambda: F.max_pool2d(x, k, s, p, return_indices=True))
        out[name + "_bwd"] = best_us(lambda: torch.ops.aten.max_pool2d_with_indices_backward(
            g, x, [k, k], [s, s], [p, p], [1, 1], False, ix))
        out[name + "_f64"] = best_us(lambda: F.max_pool2d(xd, k, s, p, return_indices=True))
    return out


def brasa_times(binary):
    env = dict(os.environ, OMP_NUM_THREADS="1")
    text = subprocess.run([binary], env=env, check=True, capture_output=True, text=True).stdout
    return {name: float(t) for name, t in (line.split() for line in text.splitlines())}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    best_b, best_t = {}, {}
    with torch.no_grad():
        for _ in range(args.rounds):  # alternate, so both see the same load
            for n, t in brasa_times(args.binary).items():
                best_b[n] = min(t, best_b.get(n, float("inf")))
            for n, t in torch_times().items():
                best_t[n] = min(t, best_t.get(n, float("inf")))
    print(f"torch {torch.__version__}, one thread, best of {args.rounds} x 9, thread CPU time")
    print(f"{'workload':<32} {'brasa µs':>10} {'torch µs':>10} {'brasa/torch':>12}")
    for n, b in best_b.items():
        t = best_t[n]
        print(f"{n:<32} {b:>10.1f} {t:>10.1f} {b / t:>12.2f}")


if __name__ == "__main__":
    main()
