"""Issue 19's three numbers, brasa's Python API against PyTorch 1.13 in the same process, alternating:
  - add_1: `x + y` on 1-element tensors (target: brasa <= torch),
  - autograd_1: `(x * 2 + 1).sum().backward()` on a 1-element leaf (target: <= 0.5x torch),
  - mlp_step_adamw: 784-512-512-10 MLP, batch 128, zero_grad + forward + cross_entropy + backward +
    AdamW step, written as brasa_bench's / torch_bench.py's row of the same name (target: <= 0.8x),
  - mlp_module_step: the same step through nn.Sequential (Module calls) and optim.AdamW,
and, with --cxx PATH (brasa_bench), the same mlp_step_adamw from C++ (BENCH_ONLY=mlp_step_adamw),
run between the Python rounds. Each round times every workload once per library, the library that
goes first alternating between rounds; the figure is the median over rounds.
    PYTHONPATH=build/release/python python bench/python/issue19.py [--threads 1] [--rounds 9] \
        [--cxx build/release/bench/brasa_bench]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def _threads():
    return int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 1


# Debian's torch 1.13 runs its GEMMs in OpenBLAS (libopenblas0-pthread, the libblas.so.3
# alternative), whose own thread pool ignores torch.set_num_threads: without this, OpenBLAS spins
# up one thread per core beside torch's and a 1-thread step ran 6x slower on the loaded 2-core
# machine. Set before torch loads OpenBLAS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", str(_threads()))

import torch  # noqa: E402

import brasa  # noqa: E402

BATCH, IN, HIDDEN, OUT = 128, 784, 512, 10


def per_call(fn, number):
    t = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t) / number


def workloads(lib):
    F = lib.nn.functional
    lib.manual_seed(0)
    x, y = lib.ones(1), lib.ones(1)
    leaf = lib.ones(1, requires_grad=True)

    def autograd_1():
        (leaf * 2 + 1).sum().backward()

    X = lib.rand(BATCH, IN) * 2 - 1
    labels = (lib.rand(BATCH) * OUT).long()
    shapes = ((HIDDEN, IN), (HIDDEN,), (HIDDEN, HIDDEN), (HIDDEN,), (OUT, HIDDEN), (OUT,))
    params = [((lib.rand(*s) * 2 - 1) * 0.05).requires_grad_() for s in shapes]
    W1, b1, W2, b2, W3, b3 = params
    adamw = lib.optim.AdamW(params, lr=1e-3)

    def mlp_step_adamw():
        adamw.zero_grad(set_to_none=True)
        h1 = F.linear(X, W1, b1).relu()
        h2 = F.linear(h1, W2, b2).relu()
        F.cross_entropy(F.linear(h2, W3, b3), labels).backward()
        adamw.step()

    nn = lib.nn
    model = nn.Sequential(nn.Linear(IN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU(),
                          nn.Linear(HIDDEN, OUT))
    opt = lib.optim.AdamW(model.parameters(), lr=1e-3)

    def mlp_module_step():
        opt.zero_grad()
        F.cross_entropy(model(X), labels).backward()
        opt.step()

    # (name, callable, calls per timing)
    return [("add_1", lambda: x + y, 20000), ("autograd_1", autograd_1, 5000),
            ("mlp_step_adamw", mlp_step_adamw, 5), ("mlp_module_step", mlp_module_step, 5)]


def cxx_step_us(path, threads):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        env = dict(os.environ, BENCH_ONLY="mlp_step_adamw")
        subprocess.run([path, "--threads", str(threads), "--out", out], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        with open(out) as f:
            rows = json.load(f)
    rows = rows["results"] if isinstance(rows, dict) else rows
    return next(r["median_s"] for r in rows if r["workload"] == "mlp_step_adamw") * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--cxx", help="brasa_bench binary: also time the C++ mlp_step_adamw each round")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    brasa.set_num_threads(args.threads)
    libs = {"torch": workloads(torch), "brasa": workloads(brasa)}
    for runs in libs.values():  # warm up
        for _, fn, n in runs:
            per_call(fn, max(1, n // 10))
    times = {(lib, name): [] for lib, runs in libs.items() for name, _, _ in runs}
    cxx = []
    for r in range(args.rounds):
        order = ["torch", "brasa"] if r % 2 == 0 else ["brasa", "torch"]
        for i in range(len(libs["torch"])):
            for lib in order:
                name, fn, n = libs[lib][i]
                times[(lib, name)].append(per_call(fn, n) * 1e6)
        if args.cxx:
            cxx.append(cxx_step_us(args.cxx, args.threads))
    print(f"threads={args.threads} rounds={args.rounds} (median over rounds, us per call)")
    print(f"{'workload':18s} {'torch 1.13':>12s} {'brasa':>12s} {'brasa/torch':>12s}")
    for name, _, _ in libs["torch"]:
        t, b = statistics.median(times[("torch", name)]), statistics.median(times[("brasa", name)])
        print(f"{name:18s} {t:12.3f} {b:12.3f} {b / t:11.2f}x")
    if cxx:
        c = statistics.median(cxx)
        py = statistics.median(times[("brasa", "mlp_step_adamw")])
        print(f"{'C++ mlp_step_adamw':18s} {c:12.3f} us (brasa_bench); Python / C++ = {py / c:.2f}x")


if __name__ == "__main__":
    main()
