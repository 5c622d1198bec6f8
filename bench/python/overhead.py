"""Python-level per-call overheads of brasa next to PyTorch 1.13, same process, same run:
  - a 1-element add (x + y),
  - forward + backward of (x * 2 + 1).sum() on one element.
Prints one line per measurement (best of 7 repeats); figures go to docs/benchmarks.md.
    python bench/python/overhead.py        # with brasa importable (pip install . or PYTHONPATH)
"""
import timeit

import torch

import brasa


def best_ns(fn, number, repeat=7):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e9


def measure(lib):
    x = lib.ones(1)
    y = lib.ones(1)
    add = best_ns(lambda: x + y, 100_000)
    add_fn = best_ns(lambda: lib.add(x, y), 100_000)
    w = lib.ones(1, requires_grad=True)

    def step():
        (w * 2 + 1).sum().backward()
    fwd_bwd = best_ns(step, 10_000)
    return add, add_fn, fwd_bwd


def main():
    torch.set_num_threads(1)
    brasa.set_num_threads(1)
    rows = {"torch 1.13": measure(torch), "brasa": measure(brasa)}
    print(f"{'':12s} {'x + y':>10s} {'add(x, y)':>10s} {'(x*2+1).sum().backward()':>26s}")
    for name, (a, f, b) in rows.items():
        print(f"{name:12s} {a:8.0f}ns {f:8.0f}ns {b:24.0f}ns")
    (ta, tf, tb), (ba, bf, bb) = rows["torch 1.13"], rows["brasa"]
    print(f"{'brasa/torch':12s} {ba / ta:9.2f}x {bf / tf:9.2f}x {bb / tb:25.2f}x")


if __name__ == "__main__":
    main()
