#!/usr/bin/env python3
"""Runs capability_bench once per CPU capability, alternating for several rounds, and prints each
workload's best time per capability and its ratio to the widest build (Note [Capability builds per
file] in cmake/BrasaKernels.cmake).

    bench/capability_bench.py build/release/bench/capability_bench [--rounds 3] [--only NAME]
"""
import argparse
import os
import subprocess


def run(binary, cap, only):
    env = dict(os.environ, BRASA_CPU_CAPABILITY_OVERRIDE=cap, OMP_NUM_THREADS="1")
    out = subprocess.run([binary] + ([only] if only else []), env=env, check=True,
                         capture_output=True, text=True).stdout
    return {name: float(t) for name, t in (line.split() for line in out.splitlines())}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    caps = ["default", "avx2", "avx512"]
    best = {c: {} for c in caps}
    for _ in range(args.rounds):
        for c in caps:
            for name, t in run(args.binary, c, args.only).items():
                best[c][name] = min(t, best[c].get(name, float("inf")))
    print(f"{'workload':<16} {'default µs':>11} {'avx2 µs':>10} {'avx512 µs':>10} "
          f"{'default/avx512':>15} {'avx2/avx512':>12}")
    for name, wide in best["avx512"].items():
        d, a2 = best["default"][name], best["avx2"][name]
        print(f"{name:<16} {d:>11.1f} {a2:>10.1f} {wide:>10.1f} {d / wide:>15.2f} {a2 / wide:>12.2f}")


if __name__ == "__main__":
    main()
