#!/usr/bin/env python3
"""Fails when a file includes a header of a higher layer (docs/contributing.md, "Layers").

The layers, lowest first (a file may include its own layer and those below it):

  core < dispatch < backends < ops < autograd < derivatives < archive < nn < optim, data
       < serialize, interop, profiler, utils < distributed < compile

A file's layer is its folder under src/ or include/brasa/ (top-level headers such as brasa/optim.h
belong to the layer they name). `derivatives` are the files named *_grad.cpp / *_grad.h beside
their ops in src/ops/: an op's derivative lives with the op, but it builds autograd nodes, so it
sits above the autograd engine, which itself computes with ops (zeros, add, sum_to). `archive`
(IValue, OutputArchive / InputArchive, the torch.save format) sits below nn, so that modules,
optimizers, schedulers and samplers save their own state; `serialize` (torch::save of modules and
optimizers, safetensors, training checkpoints) sits above the optim and data it saves; `profiler`
(sessions, tables, traces) sits beside it, as does `utils` (training tools such as the TensorBoard
writer), while what the profiler records lives in dispatch. Layers of
the same rank (optim and data; serialize and interop) do not include each other. compat/ (the
libtorch spellings) sits above everything. Usage: scripts/check_layers.py [repo root]
"""
import os
import re
import sys

RANK = {"core": 0, "dispatch": 1, "backends": 2, "ops": 3, "autograd": 4, "derivatives": 5,
        "archive": 6, "nn": 7, "optim": 8, "data": 8, "serialize": 9, "interop": 9, "profiler": 9,
        "utils": 9, "distributed": 10, "compile": 11}
TOP_LEVEL = {"backend": "backends", "data": "data", "optim": "optim", "dlpack": "interop",
             "distributed": "distributed", "compile": "compile"}  # include/brasa/<name>.h; brasa.h is the umbrella

# Known exceptions, each to be removed by the change named; the check fails when one disappears
# without being taken off this list, so it only shrinks. None are left: keep it that way.
EXCEPTIONS = set()

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def layer_of(path):
    """The layer of a repo path or of an include spelling (brasa/x/y.h or src-relative x/y.h)."""
    parts = path.split("/")
    if parts[0] == "src":
        parts = parts[1:]
    elif parts[:2] == ["include", "brasa"]:
        parts = parts[2:]
    elif parts[0] == "brasa":
        parts = parts[1:]
    if len(parts) == 1:
        return TOP_LEVEL.get(parts[0].rsplit(".", 1)[0])
    if parts[0] == "ops" and re.search(r"_grad\.(h|cpp)$", parts[-1]):
        return "derivatives"
    return parts[0] if parts[0] in RANK else None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    os.chdir(root)
    found = set()
    errors = []
    for top in ("src", "include/brasa"):
        for dirpath, _, files in os.walk(top):
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                own = layer_of(path)
                if own is None or not name.endswith((".h", ".cpp")):
                    continue
                with open(path, errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        target = layer_of(m.group(1)) if m else None
                        if target is None or target == own or RANK[target] < RANK[own]:
                            continue
                        if (path, m.group(1)) in EXCEPTIONS:
                            found.add((path, m.group(1)))
                            continue
                        errors.append(f"{path}:{lineno}: layer '{own}' includes '{m.group(1)}' "
                                      f"of layer '{target}' (a higher layer or a sibling)")
    for path, inc in sorted(EXCEPTIONS - found):
        errors.append(f"scripts/check_layers.py: exception ({path}, {inc}) no longer occurs: "
                      "remove it from EXCEPTIONS")
    for e in errors:
        print(e, file=sys.stderr)
    print(f"check_layers: {len(errors)} violation(s), {len(found)} known exception(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
