#!/usr/bin/python3
"""Which of libtorch 1.13's Tensor methods brasa's Tensor has.

usage: scripts/tensor_method_coverage.py [--tensor-body FILE] [--cxx CXX] [--missing] [--markdown]

The methods are the member functions that the class `Tensor` of libtorch's ATen/core/TensorBody.h
declares (default /usr/include/ATen/core/TensorBody.h; its base TensorBase's members, such as
`sizes` or `dim`, are not counted), leaving out: internal names (a leading `_`), operators,
backward ops (`NAME_backward`), the `NAME_symint` twins of int methods, and the methods of
sparse, quantized and CUDA-only or other device-only tensors (the name says so, or it is one of
SPARSE_OR_QUANTIZED or DEVICE_ONLY below).

A method counts as provided when `using at::Tensor::NAME;` compiles in a class derived from
brasa's at::Tensor (compat/include's <torch/torch.h>): all probes go into one translation unit and
the compiler's errors name the probes that do not compile. It tests that the name is a member, not
every overload; tests/compat/test_compat_overloads.cpp checks what overloaded calls mean. A
missing method is marked `forwardable` when `at::NAME` (or `at::NAME` without the trailing `_` of
an in-place method) is declared: the method would be a thin forward to a function brasa has.
"""
import argparse
import os
import re
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from op_coverage import failing_lines  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXCLUDED_WORDS = ("sparse", "quantize", "quantized", "cuda", "mkldnn", "vulkan", "metal", "mps",
                  "ipu", "xpu", "hip", "ort", "nested")
# Methods of sparse (COO/CSR/CSC/BSR) or quantized tensors whose names do not say so.
SPARSE_OR_QUANTIZED = {
    "indices", "values", "crow_indices", "col_indices", "ccol_indices", "row_indices",
    "coalesce", "is_coalesced", "dense_dim", "to_dense", "sparse_dim", "sparse_mask",
    "q_scale", "q_zero_point", "q_per_channel_scales", "q_per_channel_zero_points",
    "q_per_channel_axis", "int_repr", "qscheme", "dequantize", "smm", "sspaddmm", "hspmm",
    "sparse_resize_", "sparse_resize_and_clear_", "to_sparse", "to_sparse_csr",
    "to_sparse_csc", "to_sparse_bsr", "to_sparse_bsc", "to_mkldnn", "to_padded_tensor",
}
# Methods of CUDA (pinned memory, streams) or other device backends.
DEVICE_ONLY = {"pin_memory", "is_pinned", "record_stream", "ve"}
NOT_METHODS = {"return", "if", "for", "while", "switch", "sizeof", "decltype", "static_assert",
               "operator", "explicit", "template", "Tensor", "TORCH_CHECK", "C10_DEPRECATED",
               "C10_DEPRECATED_MESSAGE", "TORCH_WARN", "TORCH_INTERNAL_ASSERT"}


def tensor_methods(path):
    """Names declared directly in `class ... Tensor: public TensorBase { ... };`."""
    text = open(path).read()
    start = text.index("class TORCH_API Tensor: public TensorBase {")
    depth, i, names = 0, text.index("{", start), set()
    body_start = i
    while True:
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                break
        i += 1
    # Keep only the text at depth 1 (the class's own declarations, not inline bodies).
    out, depth = [], 0
    for c in text[body_start:i + 1]:
        if c == "{":
            depth += 1
            if depth == 2:
                out.append(";")
            continue
        if c == "}":
            depth -= 1
            continue
        if depth == 1:
            out.append(c)
    flat = re.sub(r"//[^\n]*", "", "".join(out))
    # Deprecation attributes and their messages (which name other functions) are not declarations.
    flat = re.sub(r'C10_DEPRECATED_MESSAGE\s*\("(?:\\.|[^"\\])*"\)', " ", flat)
    flat = re.sub(r'"(?:\\.|[^"\\])*"', '""', flat)
    for decl in flat.split(";"):
        decl = re.sub(r"\s+", " ", decl).strip()
        m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(", decl)
        if not m or "operator" in decl[:m.end()]:
            continue
        name = m.group(1)
        if name in NOT_METHODS or not re.match(r"[a-z_]", name):
            continue
        names.add(name)
    return sorted(n for n in names
                  if not n.startswith("_") and n not in SPARSE_OR_QUANTIZED and n not in DEVICE_ONLY
                  and not n.endswith("_backward") and not n.endswith("_symint")
                  and not any(w in n.split("_") or n.startswith(w) for w in EXCLUDED_WORDS))


def probe(names, cxx, template):
    """The names for which `template` (with {i} and {name}) compiles."""
    lines = ["#include <torch/torch.h>"]
    first = len(lines) + 1
    for i, name in enumerate(names):
        lines.append(template.format(i=i, name=name))
    failed = failing_lines(lines, cxx, "tensor_method_coverage")
    return {name for i, name in enumerate(names) if first + i not in failed}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tensor-body", default="/usr/include/ATen/core/TensorBody.h")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    parser.add_argument("--missing", action="store_true", help="list the missing methods only")
    parser.add_argument("--markdown", action="store_true", help="the summary as docs/compat.md has it")
    args = parser.parse_args()
    names = tensor_methods(args.tensor_body)
    provided = probe(names, args.cxx,
                     "struct probe_method_{i} : at::Tensor {{ using at::Tensor::{name}; }};")
    missing = [n for n in names if n not in provided]
    functions = [n[:-1] if n.endswith("_") else n for n in missing]
    declared = probe(functions, args.cxx, "namespace probe_at_{i} {{ using at::{name}; }}")
    forwardable = {n for n, f in zip(missing, functions) if f in declared}
    if args.markdown:
        print(textwrap.fill(
            f"{len(provided)} of {len(names)} libtorch 1.13 Tensor methods are provided "
            f"({100 * len(provided) / len(names):.0f}%). Missing, with an at:: function to forward "
            f"to ({len(forwardable)}): "
            + ", ".join(f"`{n}`" for n in missing if n in forwardable) + ". Missing, without one "
            f"({len(missing) - len(forwardable)}): "
            + ", ".join(f"`{n}`" for n in missing if n not in forwardable) + ".",
            width=100, break_on_hyphens=False))
        return 0
    for n in names:
        if args.missing and n in provided:
            continue
        state = "provided" if n in provided else "forwardable" if n in forwardable else "missing"
        print(f"{state:11}  {n}")
    print(f"{len(provided)} provided, {len(missing)} missing ({len(forwardable)} forwardable), "
          f"{len(names)} Tensor methods")
    return 0


if __name__ == "__main__":
    sys.exit(main())
