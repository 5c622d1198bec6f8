#!/usr/bin/env python3
"""The profiler's cost when off: runs two builds of bench/brasa_bench (the same source, one built
before the dispatcher's profiler hook and one after) alternately on one workload and prints each
pair's medians and the median of their ratios (after / before), and the same for the runs'
minima (the best repetition of each run: less sensitive to other work on the machine).

Usage: scripts/profiler_overhead.py BEFORE_BENCH AFTER_BENCH [--workload add_1] [--pairs 15]
                                    [--before-lib DIR] [--after-lib DIR]
Each binary finds its own libbrasa through its RUNPATH, or in DIR (LD_LIBRARY_PATH) when given. Build the "before" one from a worktree
of the commit before the hook: cmake --preset release && cmake --build --preset release
--target brasa_bench. docs/profiler.md gives the figures.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile


def run(bench, lib, workload, out):
    env = dict(os.environ, BENCH_ONLY=workload)
    if lib:
        env["LD_LIBRARY_PATH"] = lib
    subprocess.run(["taskset", "-c", "0", bench, "--threads", "1", "--out", out], env=env,
                   check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        r = json.load(f)["results"][0]
        return r["median_s"], r["min_s"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--workload", default="add_1")
    p.add_argument("--pairs", type=int, default=15)
    p.add_argument("--before-lib")
    p.add_argument("--after-lib")
    a = p.parse_args()
    runs = {"before": [], "after": []}
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        for i in range(a.pairs):
            # Alternate which build runs first, so drift in the machine's load favours neither.
            order = [("before", a.before, a.before_lib), ("after", a.after, a.after_lib)]
            if i % 2:
                order.reverse()
            for name, bench, lib in order:
                runs[name].append(run(bench, lib, a.workload, out))
            (bm, bn), (am, an) = runs["before"][-1], runs["after"][-1]
            print(f"pair {i:2d}: median before {bm * 1e9:7.1f} ns after {am * 1e9:7.1f} ns "
                  f"(ratio {am / bm:.3f}); min before {bn * 1e9:7.1f} ns after {an * 1e9:7.1f} ns "
                  f"(ratio {an / bn:.3f})")
    for k, stat in enumerate(("median", "min")):
        before = [r[k] for r in runs["before"]]
        after = [r[k] for r in runs["after"]]
        ratios = [y / x for x, y in zip(before, after)]
        print(f"{a.workload} per-run {stat}: before {statistics.median(before) * 1e9:.1f} ns, after "
              f"{statistics.median(after) * 1e9:.1f} ns, median ratio "
              f"{statistics.median(ratios):.3f} (min {min(ratios):.3f}, max {max(ratios):.3f}, "
              f"{a.pairs} pairs)")

if __name__ == "__main__":
    main()
