#!/usr/bin/python3
"""BFloat16 against Float32 on one thread, brasa and PyTorch side by side.

Runs PyTorch's side of bench/bf16_bench.cpp here (same workloads, shapes, and timing: median of
`reps` repetitions of `inner` calls after one warm-up) and, given the path of brasa's bf16_bench,
that program too; prints each side's float32 and bfloat16 times and the ratios.

    /usr/bin/python3 bench/bf16_bench.py build/release/bench/bf16_bench
"""
import statistics
import subprocess
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


def time_us(inner, reps, f):
    """(median, minimum) microseconds per call."""
    f()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            f()
        ts.append((time.perf_counter() - t0) / inner * 1e6)
    return statistics.median(ts), min(ts)


def uniform(shape, dt):
    return (torch.rand(shape) - 0.5).to(dt)


def mlp_step(dt):
    model = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(),
                                torch.nn.Linear(512, 512), torch.nn.ReLU(),
                                torch.nn.Linear(512, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.rand(128, 784), torch.randint(0, 10, (128,))

    def step():
        opt.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=dt == torch.bfloat16):
            loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    return step


def two(shape_a, shape_b, op):
    def make(dt):
        a, b = uniform(shape_a, dt), uniform(shape_b, dt)
        return lambda: op(a, b)
    return make


def one(shape, op):
    def make(dt):
        a = uniform(shape, dt)
        return lambda: op(a)
    return make


def linear_make(dt):
    x, w, b = uniform((4096, 1024), dt), uniform((1024, 1024), dt), uniform((1024,), dt)
    return lambda: F.linear(x, w, b)


def conv_make(dt):
    x, w, b = uniform((64, 32, 28, 28), dt), uniform((64, 32, 3, 3), dt), uniform((64,), dt)
    return lambda: F.conv2d(x, w, b, padding=1)


N = 1 << 22
WORKLOADS = [
    ("matmul_1024", 1, 7, two((1024, 1024), (1024, 1024), torch.matmul)),
    ("matmul_256", 50, 7, two((256, 256), (256, 256), torch.matmul)),
    ("linear_4096x1024x1024", 1, 5, linear_make),
    ("bmm_32x256x256", 2, 7, two((32, 256, 256), (32, 256, 256), torch.bmm)),
    ("conv2d_64x32x28", 2, 7, conv_make),
    ("add_4M", 5, 9, two((N,), (N,), torch.add)),
    ("mul_scalar_add_4M", 5, 9, two((N,), (N,), lambda a, b: torch.add(a, b, alpha=0.5))),
    ("exp_4M", 5, 9, one((N,), torch.exp)),
    ("gelu_4M", 2, 7, one((N,), F.gelu)),
    ("sum_4M", 5, 9, one((N,), torch.sum)),
    ("mlp_step_autocast", 5, 7, mlp_step),
]


def brasa_figures(binary):
    out = subprocess.run([binary], check=True, capture_output=True, text=True).stdout
    figures = {}
    for line in out.splitlines()[1:]:
        name, f32, bf16, _, f32_min, bf16_min, _ = line.split()
        figures[name] = (float(f32), float(bf16), float(f32_min), float(bf16_min))
    return figures


torch_figures = {}


def main():
    brasa = brasa_figures(sys.argv[1]) if len(sys.argv) > 1 else {}
    nan = float("nan")
    for title, k in (("medians", 0), ("minimums", 2)):
        print(f"{title} (us per call, 1 thread)")
        print(f"{'workload':24s} {'brasa f32':>10s} {'brasa bf16':>10s} {'f32/bf16':>8s}   "
              f"{'torch f32':>10s} {'torch bf16':>10s} {'f32/bf16':>8s}   {'torch/brasa bf16':>16s}")
        for name, inner, reps, make in WORKLOADS:
            if name not in torch_figures:
                torch_figures[name] = (time_us(inner, reps, make(torch.float32)),
                                       time_us(inner, reps, make(torch.bfloat16)))
            (tf_med, tf_min), (tb_med, tb_min) = torch_figures[name]
            tf, tb = (tf_med, tb_med) if k == 0 else (tf_min, tb_min)
            bf, bb = brasa.get(name, (nan,) * 4)[k:k + 2]
            print(f"{name:24s} {bf:10.1f} {bb:10.1f} {bf / bb:8.2f}   {tf:10.1f} {tb:10.1f} "
                  f"{tf / tb:8.2f}   {tb / bb:16.2f}")
        print()


if __name__ == "__main__":
    main()
