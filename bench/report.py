"""Merges the brasa, libtorch and PyTorch benchmark JSONs into one markdown report.

Usage: report.py --brasa b.json --libtorch l.json --pytorch p.json [--md out.md]
Prints the report to stdout and writes it to --md. Ratios are brasa time / other time (< 1: brasa faster).
"""
import argparse
import json
import os
import platform
import subprocess
import sys

BYTES_16M = 1 << 26  # one 16M-float tensor
DESCRIPTIONS = {
    "add_1": "1-element `x + y`",
    "add_16M": "16M-float `x + y` into a fresh result",
    "chain_16M": "10 x (`y = y * 0.5 + 0.25`) on 16M floats",
    "sum_16M": "`x.sum()` of 16M floats",
    "softmax_4096x1024": "`x.softmax(1)` of [4096, 1024]",
    "gelu_16M": "`0.5*x*(1+tanh(0.7978845608*(x+0.044715*x*x*x)))` on 16M floats",
    "matmul_64": "`a.matmul(b)`, [n, n] x [n, n] floats (also 256, 1024, 2048)",
    "max_pool2d_16x64x56x56": "`max_pool2d(x, 3, stride 2, padding 1)`",
    "sdpa_causal": "causal attention, q/k/v [8, 8, 1024, 64] (PyTorch/libtorch: softmax(q k^T/8 + mask) v)",
    "conv2d_28": "conv2d [64, 32, h, h] * [64, 32, 3, 3] + bias, padding 1 (h = 28; conv2d_14: h = 14)",
    "autograd_1": "`(x * 2 + 1).sum().backward()` on a 1-element x",
    "mlp_step": "784-512-512-10 MLP, batch 128: forward, cross_entropy, backward",
    "mlp_step_manual": "the same step's math by hand, no autograd (mlp_step / this = autograd's overhead)",
    "adam_step_mlp": "`Adam.step()` over the MLP's parameters",
    "mlp_step_adamw": "mlp_step plus an AdamW step",
    "cnn_step": "the Fashion-MNIST CNN, batch 64: forward, cross_entropy, backward, AdamW step",
}
TARGETS = {"add_1": "<= 0.15 µs", "add_16M": ">= 20 GB/s", "autograd_1": "<= 2 µs"}
IMPLS = ["brasa", "libtorch", "pytorch"]


def command_output(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
    except OSError:
        return ""


def machine_description(versions):
    lscpu = {}
    for line in command_output(["lscpu"]).splitlines():
        key, _, value = line.partition(":")
        lscpu[key.strip()] = value.strip()
    mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    gxx = (command_output(["g++", "--version"]).splitlines() or ["?"])[0]
    return [
        f"CPU: {lscpu.get('Model name', '?')}, {lscpu.get('CPU(s)', '?')} logical CPUs "
        f"({lscpu.get('Core(s) per socket', '?')} cores/socket, "
        f"{lscpu.get('Hypervisor vendor', 'no') + ' VM' if 'Hypervisor vendor' in lscpu else 'bare metal'})",
        f"Memory: {mem_gib:.1f} GiB; kernel: {platform.system()} {platform.release()}",
        f"Compiler: {gxx}; Python {platform.python_version()}",
        f"brasa {versions.get('brasa', '-')}, libtorch {versions.get('libtorch', '-')}, "
        f"PyTorch {versions.get('pytorch', '-')}",
        "Load average (1, 5, 15 min) when the report was written: "
        + ", ".join(f"{x:.2f}" for x in os.getloadavg()),
    ]


def fmt_time(workload, seconds):
    if seconds is None:
        return "n/a"
    if workload == "add_1" or seconds < 1e-4:
        return f"{seconds * 1e6:.3f} µs"
    text = f"{seconds * 1e3:.2f} ms"
    if workload == "add_16M":
        text += f" ({3 * BYTES_16M / seconds / 1e9:.1f} GB/s)"
    return text


def fmt_ratio(a, b):
    return "n/a" if a is None or b is None else f"{a / b:.2f}"


def build_report(data):
    versions = {impl: d["version"] for impl, d in data.items()}
    medians, specs = {}, {}
    order = []
    for impl, d in data.items():
        for r in d["results"]:
            key = (r["workload"], r["threads"])
            if key not in order and impl == "pytorch":
                order.append(key)
            medians[(impl,) + key] = r["median_s"]
            specs.setdefault(key, set()).add((r["inner"], r["warmup"], r["reps"]))
    for impl, d in data.items():
        for r in d["results"]:
            key = (r["workload"], r["threads"])
            if key not in order:
                order.append(key)
    order.sort(key=lambda k: (k[1], list(DESCRIPTIONS).index(k[0]) if k[0] in DESCRIPTIONS else 99))

    lines = ["# brasa vs libtorch vs PyTorch", ""]
    lines += [f"- {line}" for line in machine_description(versions)]
    lines += ["", "Median time per op (ratio = brasa time / other time; below 1 means brasa is faster).", ""]
    lines.append("| workload | threads | brasa | libtorch | PyTorch | brasa/libtorch | brasa/PyTorch |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    for workload, threads in order:
        b, lt, pt = (medians.get((impl, workload, threads)) for impl in IMPLS)
        lines.append(f"| {workload} | {threads} | {fmt_time(workload, b)} | {fmt_time(workload, lt)} | "
                     f"{fmt_time(workload, pt)} | {fmt_ratio(b, lt)} | {fmt_ratio(b, pt)} |")
    lines += ["", "Workloads:", ""]
    lines += [f"- `{name}`: {text}" + (f" (target {TARGETS[name]})" if name in TARGETS else "")
              for name, text in DESCRIPTIONS.items()]
    stats = data.get("brasa", {}).get("extra", {}).get("memory_stats")
    if stats:
        lines += ["", "brasa memory_stats() after the run:", ""]
        lines += ["| counter | value |", "|---|---:|"]
        lines += [f"| {k} | {v} |" for k, v in stats.items()]
    mismatched = sorted(k for k, v in specs.items() if len(v) > 1)
    if mismatched:
        lines += ["", f"WARNING: timing parameters differ between implementations for {mismatched}"]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    for impl in IMPLS:
        parser.add_argument(f"--{impl}", help=f"{impl} results JSON (optional)")
    parser.add_argument("--md", help="also write the markdown report here")
    args = parser.parse_args()
    data = {}
    for impl in IMPLS:
        path = getattr(args, impl)
        if path and os.path.exists(path):
            with open(path) as f:
                data[impl] = json.load(f)
        elif path:
            print(f"report.py: no results for {impl} ({path})", file=sys.stderr)
    report = build_report(data)
    sys.stdout.write(report)
    if args.md:
        with open(args.md, "w") as f:
            f.write(report)


if __name__ == "__main__":
    main()
