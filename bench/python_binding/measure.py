"""Per-call overhead of brasa's add on 1-element tensors, bound with nanobind and with pybind11,
next to torch.add (docs/python.md, Note [Binding library]). Run with the build's modules on the path:
    PYTHONPATH=build/python-bench /usr/bin/python3 bench/python_binding/measure.py
"""
import timeit

import torch

import _nb_add
import _pb_add


def per_call_ns(fn, a, b, number=200_000, repeat=7):
    return min(timeit.repeat(lambda: fn(a, b), number=number, repeat=repeat)) / number * 1e9


def main():
    torch.set_num_threads(1)
    t = torch.ones(1)
    rows = [("torch 1.13 torch.add", per_call_ns(torch.add, t, t))]
    for name, mod in (("nanobind", _nb_add), ("pybind11", _pb_add)):
        x = mod.ones1()
        rows.append((f"brasa add via {name}", per_call_ns(mod.add, x, x)))
    baseline = per_call_ns(lambda a, b: None, 0, 0)
    for name, ns in rows:
        print(f"{name:28s} {ns:8.0f} ns/call")
    print(f"{'(timeit lambda itself)':28s} {baseline:8.0f} ns/call")


if __name__ == "__main__":
    main()
