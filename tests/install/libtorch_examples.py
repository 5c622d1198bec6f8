"""libtorch_examples (ctest): the libtorch newcomer's programs of pytorch/examples (cpp/autograd,
cpp/regression, cpp/mnist) built unchanged, with their own CMakeLists, against an installed brasa,
then run. Their sources are not part of brasa: the test looks for a pytorch/examples checkout (its
root or its cpp/ folder) in $BRASA_LIBTORCH_EXAMPLES, else in the CMake cache variable
BRASA_LIBTORCH_EXAMPLES_DIR (passed as --examples), and is skipped (exit 77) without one.

mnist trains for its fixed 10 epochs on the first 2,000 training and 1,000 test images of
Fashion-MNIST (Debian's dataset-fashion-mnist, read with the MNIST reader, whose files have the
same format); it is skipped when the data set is not installed."""

import argparse
import gzip
import os
import re
import shutil
import struct
import subprocess
import sys

SKIP = 77
EXAMPLES = ("autograd", "regression", "mnist")


def find_examples(given):
    for root in (os.environ.get("BRASA_LIBTORCH_EXAMPLES"), given):
        if not root:
            continue
        for cpp in (os.path.join(root, "cpp"), root):
            if all(os.path.isfile(os.path.join(cpp, e, "CMakeLists.txt")) for e in EXAMPLES):
                return cpp
    return None


def run(cmd, cwd=None, timeout=900):
    print("+", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=timeout)
    if p.returncode != 0:
        print(p.stdout)
        sys.exit(f"libtorch_examples: {cmd[0]} failed with exit status {p.returncode}")
    return p.stdout


def truncated_idx(src, dst, count):
    """Writes the first `count` items of an idx file (plain or .gz) to `dst`, uncompressed."""
    opener = gzip.open if src.endswith(".gz") else open
    with opener(src, "rb") as f:
        magic, n = struct.unpack(">II", f.read(8))
        dims = [struct.unpack(">I", f.read(4))[0] for _ in range((magic & 0xFF) - 1)]
        item = 1
        for d in dims:
            item *= d
        body = f.read(min(n, count) * item)
    with open(dst, "wb") as f:
        f.write(struct.pack(">II", magic, min(n, count)))
        for d in dims:
            f.write(struct.pack(">I", d))
        f.write(body)


def mnist_data(src, dst):
    os.makedirs(dst, exist_ok=True)
    for split, count in (("train", 2000), ("t10k", 1000)):
        for kind in ("images-idx3-ubyte", "labels-idx1-ubyte"):
            name = f"{split}-{kind}"
            path = next((os.path.join(src, name + ext) for ext in ("", ".gz")
                         if os.path.exists(os.path.join(src, name + ext))), None)
            if path is None:
                return False
            truncated_idx(path, os.path.join(dst, name), count)
    return True


def check(name, text, pattern):
    if not re.search(pattern, text, re.S):
        print(text)
        sys.exit(f"libtorch_examples: {name} printed no match for {pattern!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--examples", default="")
    ap.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    ap.add_argument("--generator", default="Ninja")
    ap.add_argument("--cxx", default="c++")
    args = ap.parse_args()

    cpp = find_examples(args.examples)
    if cpp is None:
        print("SKIPPED: no pytorch/examples checkout; set BRASA_LIBTORCH_EXAMPLES (or the CMake "
              "cache variable BRASA_LIBTORCH_EXAMPLES_DIR) to one to build cpp/autograd, "
              "cpp/regression and cpp/mnist against brasa")
        return SKIP

    shutil.rmtree(args.work, ignore_errors=True)
    prefix = os.path.join(args.work, "prefix")
    run(["cmake", "--install", args.build_dir, "--prefix", prefix])
    for e in EXAMPLES:
        extra = ["-DDOWNLOAD_MNIST=OFF"] if e == "mnist" else []
        run(["cmake", "-S", os.path.join(cpp, e), "-B", os.path.join(args.work, e), "-G",
             args.generator, f"-DCMAKE_CXX_COMPILER={args.cxx}", f"-DCMAKE_PREFIX_PATH={prefix}"]
            + extra)
        run(["cmake", "--build", os.path.join(args.work, e)])

    out = run([os.path.join(args.work, "autograd", "autograd")])
    print(out)
    check("autograd", out, r"Backward.* 4\.5000  4\.5000.*Using custom autograd function")
    out = run([os.path.join(args.work, "regression", "regression")])
    print(out)
    check("regression", out, r"Loss: 0\.000\d+ after \d+ batches")

    run_dir = os.path.join(args.work, "mnist_run")
    if not mnist_data(args.data, os.path.join(run_dir, "data")):
        print(f"mnist: built; not run (no Fashion-MNIST files in {args.data})")
        return 0
    out = run([os.path.join(args.work, "mnist", "mnist")], cwd=run_dir)
    print(out.splitlines()[-1])
    accuracy = [float(a) for a in re.findall(r"Accuracy: ([0-9.]+)", out)]
    if len(accuracy) != 10 or accuracy[-1] < 0.6:
        print(out)
        sys.exit(f"libtorch_examples: mnist accuracies {accuracy}, expected 10 ending above 0.6")
    return 0


if __name__ == "__main__":
    sys.exit(main())
