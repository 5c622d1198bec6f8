"""PyTorch side of the side-by-side benchmark: the workloads and timing method of bench_common.h.

Per workload and thread count: `warmup` untimed repetitions, then `reps` timed ones of `inner` runs each
(time.perf_counter); the figure is the median over repetitions of (repetition time / inner).
Usage: torch_bench.py --out results.json [--threads 1,2]
"""
import argparse
import json
import os
import statistics
import time

import torch

BIG = 1 << 24
ROWS, COLS = 4096, 1024
CHAIN_PAIRS, CHAIN_MUL, CHAIN_ADD = 10, 0.5, 0.25

# (name, inner, warmup, reps): the same table as kWorkloads in bench_common.h.
WORKLOADS = [
    ("add_1", 20000, 1, 7),
    ("add_16M", 1, 2, 9),
    ("chain_16M", 1, 1, 5),
    ("sum_16M", 2, 2, 9),
    ("softmax_4096x1024", 2, 2, 9),
    ("gelu_16M", 1, 1, 5),
    ("matmul_64", 2000, 1, 7),
    ("matmul_256", 50, 1, 7),
    ("matmul_1024", 1, 1, 5),
    ("matmul_2048", 1, 1, 3),
    ("max_pool2d_16x64x56x56", 2, 1, 7),
    ("sdpa_causal", 1, 1, 5),
    ("conv2d_28", 2, 1, 7),
    ("conv2d_14", 8, 1, 7),
    ("autograd_1", 20000, 1, 7),
    ("mlp_step", 5, 1, 7),
    ("mlp_step_manual", 5, 1, 7),
    ("adam_step_mlp", 20, 1, 7),
    ("mlp_step_adamw", 5, 1, 7),
    ("cnn_step", 1, 1, 5),
]
SDPA_B, SDPA_H, SDPA_T, SDPA_D = 8, 8, 1024, 64
MATMUL_SIZES = [64, 256, 1024, 2048]
CONV_SIZES = [28, 14]


def time_workload(spec, threads, run):
    name, inner, warmup, reps = spec
    for _ in range(warmup):
        for _ in range(inner):
            run()
    per_op = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(inner):
            run()
        per_op.append((time.perf_counter() - t0) / inner)
    result = {"workload": name, "threads": threads, "inner": inner, "warmup": warmup, "reps": reps,
              "median_s": statistics.median(per_op), "min_s": min(per_op)}
    line = (f"{'pytorch':<9} {name:<18} threads={threads} median {result['median_s'] * 1e6:.3f} us"
            f"  min {result['min_s'] * 1e6:.3f} us")
    if name.startswith("matmul_"):
        n = int(name.split("_")[1])
        line += f"  {2 * n ** 3 / result['median_s'] * 1e-9:.1f} GFLOP/s"
    print(line, flush=True)
    return result


def uniform(*sizes):
    return torch.rand(*sizes) * 2 - 1


def mlp_runs():
    """A 784-512-512-10 MLP training step with autograd, and the same math by hand."""
    F = torch.nn.functional
    X = uniform(128, 784)
    labels = torch.randint(0, 10, (128,))
    params = [(uniform(*s) * 0.05).requires_grad_() for s in ((512, 784), (512,), (512, 512), (512,),
                                                              (10, 512), (10,))]
    W1, b1, W2, b2, W3, b3 = params

    def step():
        for p in params:
            p.grad = None
        with torch.enable_grad():
            step_body()

    def step_body():
        h1 = F.linear(X, W1, b1).relu()
        h2 = F.linear(h1, W2, b2).relu()
        F.cross_entropy(F.linear(h2, W3, b3), labels).backward()

    onehot = F.one_hot(labels, 10).float()

    def manual():
        with torch.no_grad():
            h1 = F.linear(X, W1, b1).relu()
            h2 = F.linear(h1, W2, b2).relu()
            g = (F.linear(h2, W3, b3).softmax(1) - onehot) / 128
            g.t().mm(h2), g.sum(0)
            d2 = g.mm(W3) * (h2 > 0)
            d2.t().mm(h1), d2.sum(0)
            d1 = d2.mm(W2) * (h1 > 0)
            d1.t().mm(X), d1.sum(0)
    for p in params:
        p.grad = uniform(*p.shape) * 0.01
    adam = torch.optim.Adam(params, lr=1e-3)
    adamw = torch.optim.AdamW(params, lr=1e-3)

    def step_adamw():
        step()
        adamw.step()
    return [("mlp_step", step), ("mlp_step_manual", manual), ("adam_step_mlp", adam.step),
            ("mlp_step_adamw", step_adamw)]


def cnn_runs():
    """One Fashion-MNIST CNN training step (bench_common.h kCnn*): forward, backward, AdamW."""
    F = torch.nn.functional
    X = uniform(64, 1, 28, 28)
    labels = torch.randint(0, 10, (64,))
    shapes = ((32, 1, 3, 3), (32,), (64, 32, 3, 3), (64,), (128, 3136), (128,), (10, 128), (10,))
    params = [(uniform(*s) * 0.05).requires_grad_() for s in shapes]
    c1, cb1, c2, cb2, W1, b1, W2, b2 = params
    opt = torch.optim.AdamW(params, lr=1e-3)

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.enable_grad():
            h = F.max_pool2d(F.conv2d(X, c1, cb1, 1, 1).relu(), 2)
            h = F.max_pool2d(F.conv2d(h, c2, cb2, 1, 1).relu(), 2)
            h = F.linear(F.linear(h.flatten(1), W1, b1).relu(), W2, b2)
            F.cross_entropy(h, labels).backward()
        opt.step()
    return [("cnn_step", step)]


def run_all(threads):
    torch.set_num_threads(threads)
    spec = {w[0]: w for w in WORKLOADS}
    a1, b1 = uniform(1), uniform(1)
    x, y = uniform(BIG), uniform(BIG)
    m = uniform(ROWS, COLS)

    def add_1():
        return a1 + b1

    def add_16m():
        return x + y

    def chain():
        z = x
        for _ in range(CHAIN_PAIRS):
            z = z * CHAIN_MUL + CHAIN_ADD
        return z

    def sum_16m():
        return x.sum()

    def softmax():
        return m.softmax(1)

    def gelu():
        return 0.5 * x * (1 + (0.7978845608 * (x + 0.044715 * x * x * x)).tanh())

    runs = [("add_1", add_1), ("add_16M", add_16m), ("chain_16M", chain), ("sum_16M", sum_16m),
            ("softmax_4096x1024", softmax), ("gelu_16M", gelu)]
    for n in MATMUL_SIZES:
        a, b = uniform(n, n), uniform(n, n)
        runs.append((f"matmul_{n}", lambda a=a, b=b: a.matmul(b)))
    img = uniform(16, 64, 56, 56)
    runs.append(("max_pool2d_16x64x56x56", lambda: torch.nn.functional.max_pool2d(img, 3, 2, 1)))
    # PyTorch 1.13 has no scaled_dot_product_attention: its defining formula.
    q, k, v = (uniform(SDPA_B, SDPA_H, SDPA_T, SDPA_D) for _ in range(3))
    causal = torch.full((SDPA_T, SDPA_T), float("-inf")).triu(1)
    runs.append(("sdpa_causal", lambda: ((q @ k.transpose(-2, -1)) / SDPA_D ** 0.5 + causal).softmax(-1) @ v))
    for h in CONV_SIZES:
        inp, w, bias = uniform(64, 32, h, h), uniform(64, 32, 3, 3), uniform(64)
        runs.append((f"conv2d_{h}", lambda i=inp, w=w, b=bias: torch.conv2d(i, w, b, 1, 1)))
    xg = uniform(1).requires_grad_()

    def autograd_1():
        with torch.enable_grad():  # the harness runs under no_grad
            (xg * 2 + 1).sum().backward()
    runs.append(("autograd_1", autograd_1))
    runs += mlp_runs()
    runs += cnn_runs()
    only = [n for n in os.environ.get("BENCH_ONLY", "").split(",") if n]
    return [time_workload(spec[name], threads, fn) for name, fn in runs if not only or name in only]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--threads", default="1,2")
    args = parser.parse_args()
    torch.manual_seed(0)
    results = []
    with torch.no_grad():
        for t in (int(s) for s in args.threads.split(",")):
            results += run_all(t)
    with open(args.out, "w") as f:
        json.dump({"impl": "pytorch", "version": torch.__version__, "results": results, "extra": {}},
                  f, indent=1)


if __name__ == "__main__":
    main()
