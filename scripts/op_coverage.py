#!/usr/bin/python3
"""Which of libtorch 1.13's public ops brasa provides.

usage: scripts/op_coverage.py [--aten-ops DIR] [--cxx CXX] [--missing] [--markdown]

The ops are the aten op names of libtorch's generated headers (DIR/*_ops.h, default
/usr/include/ATen/ops), without overloads and out variants, an in-place op counted with its
functional one (`add` stands for `add` and `add_`), leaving out: internal names (a leading `_`),
backward ops, the `__and__`-style operator names, the `NAME_copy` twins of view ops (generated
for functionalization), and ops of the cudnn / miopen / mkldnn / quantized / sparse / nested /
fbgemm kernels and ops whose only kernel is CUDA (a `_cuda_dispatch.h` and no CPU or composite
one).

An op counts as provided when a program written against brasa's libtorch headers can name it
(or its in-place form): `at::NAME` (which `torch::NAME` equals in brasa, Note [libtorch
namespaces]) or a `Tensor` member `NAME`. This is tested by compiling, in one translation unit that includes
<torch/torch.h> from compat/include, one probe per op (`using at::NAME;` and a class deriving
from at::Tensor with `using at::Tensor::NAME;`); the compiler's errors name the probes that do not
compile. It tests that the name is declared, not the argument lists of every overload.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXCLUDED_WORDS = ("cudnn", "miopen", "mkldnn", "quantize", "quantized", "sparse", "nested",
                  "fbgemm", "cuda", "backward")


def public_ops(ops_dir):
    """The public op names, each with the spellings that provide it (NAME, NAME_)."""
    names = set()
    files = set(os.listdir(ops_dir))
    for f in files:
        if not f.endswith("_ops.h"):
            continue
        base = f[:-len("_ops.h")]
        cpu_or_composite = any(f"{base}_{k}_dispatch.h" in files for k in (
            "cpu", "compositeimplicitautograd", "compositeexplicitautograd",
            "compositeexplicitautogradnonfunctional"))
        if f"{base}_cuda_dispatch.h" in files and not cpu_or_composite:
            continue  # CUDA-only
        with open(os.path.join(ops_dir, f)) as h:
            for op in re.findall(r'name, "aten::([A-Za-z0-9_]+)"', h.read()):
                names.add(op)
    public = {}
    for op in names:
        if op.startswith("_") or any(w in op for w in EXCLUDED_WORDS):
            continue
        if op.endswith("_") and op[:-1] in names:
            continue  # the in-place form of `op[:-1]`
        if op.endswith("_copy") and op[:-len("_copy")] in names:
            continue  # a view op's functionalization twin
        public[op] = [op] + ([op + "_"] if op + "_" in names else [])
    return dict(sorted(public.items()))


def failing_lines(lines, cxx, tool):
    """Compiles `lines` (one probe per line) against brasa's compat headers; the 1-based numbers of
    the lines the compiler rejects. Exits naming `tool` when the file fails for another reason."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.cpp")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        result = subprocess.run(
            [cxx, "-std=c++20", "-fsyntax-only", "-fmax-errors=0", "-w",
             "-I", os.path.join(ROOT, "compat/include"), "-I", os.path.join(ROOT, "include"),
             src], capture_output=True, text=True)
    failed = set()
    for line in result.stderr.splitlines():
        m = re.match(re.escape(src) + r":(\d+):\d+: error:", line)
        if m:
            failed.add(int(m.group(1)))
    if not failed and result.returncode != 0:
        sys.exit(f"{tool}: the probe did not compile:\n" + result.stderr[-3000:])
    return failed


def probe(spellings, cxx):
    """The spellings that at::NAME or Tensor::NAME declares under brasa's compat headers."""
    lines = ["#include <torch/torch.h>"]
    first = len(lines) + 1
    for i, name in enumerate(spellings):
        lines.append(f"namespace probe_at_{i} {{ using at::{name}; }}")
        lines.append(f"struct probe_method_{i} : at::Tensor {{ using at::Tensor::{name}; }};")
    failed = failing_lines(lines, cxx, "op_coverage")
    provided = []
    for i, name in enumerate(spellings):
        at_line, method_line = first + 2 * i, first + 2 * i + 1
        if at_line not in failed or method_line not in failed:
            provided.append(name)
    return set(provided)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--aten-ops", default="/usr/include/ATen/ops")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    parser.add_argument("--missing", action="store_true", help="list the missing ops")
    parser.add_argument("--markdown", action="store_true", help="the summary as docs/compat.md has it")
    args = parser.parse_args()
    ops = public_ops(args.aten_ops)
    names = list(ops)
    spelled = probe([s for forms in ops.values() for s in forms], args.cxx)
    provided = {n for n in names if any(s in spelled for s in ops[n])}
    missing = [n for n in names if n not in provided]
    if args.markdown:
        print(textwrap.fill(
            f"{len(provided)} of {len(names)} public libtorch 1.13 ops are provided "
            f"({100 * len(provided) / len(names):.0f}%); the {len(missing)} missing, by first "
            "letter:", width=100) + "\n")
        by_letter = collections.defaultdict(list)
        for n in missing:
            by_letter[n[0]].append(f"`{n}`")
        for letter in sorted(by_letter):
            print(textwrap.fill(", ".join(by_letter[letter]), width=100, initial_indent="- ",
                                subsequent_indent="  ", break_on_hyphens=False))
        return 0
    for n in names:
        if args.missing and n in provided:
            continue
        print(f"{'provided' if n in provided else 'missing '}  {n}")
    print(f"{len(provided)} provided, {len(missing)} missing, {len(names)} public ops")
    return 0


if __name__ == "__main__":
    sys.exit(main())
