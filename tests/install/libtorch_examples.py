"""libtorch_examples (ctest): the libtorch newcomer's programs of pytorch/examples (cpp/autograd,
cpp/regression, cpp/mnist) built unchanged, with their own CMakeLists, against an installed brasa,
then run; and cpp/distributed (dist-mnist.cpp, written for c10d before libtorch 1.13: the
`<c10d/...>` include spelling, `std::shared_ptr` process groups, `ProcessGroup::Work`), built with
its CMakeLists minus the line linking `libc10d.a` (no libtorch install has that file) and trained
under mpirun with 2 ranks. Their sources are not part of brasa: the test looks for a pytorch/examples checkout (its
root or its cpp/ folder) in $BRASA_LIBTORCH_EXAMPLES, else in the CMake cache variable
BRASA_LIBTORCH_EXAMPLES_DIR (passed as --examples), and is skipped (exit 77) without one.

mnist trains for its fixed 10 epochs on the first 2,000 training and 1,000 test images of
Fashion-MNIST (Debian's dataset-fashion-mnist, read with the MNIST reader, whose files have the
same format); it is skipped when the data set is not installed. cpp/dcgan (which includes
p-ranav's <argparse/argparse.hpp>, not packaged in Debian: argparse_shim/ stands in for the part it
uses) trains one epoch of 10 batches on the first 640 training images. cpp/custom-dataset and
cpp/transfer-learning are built when OpenCV is installed, and custom-dataset trains on generated
images (run_opencv_examples).

autograd's unseeded draws come from the default generator, whose seed brasa fixes at libtorch's
default_rng_seed_val (libtorch 1.13 itself seeds it from /dev/urandom, so its output changes from
run to run): when /usr/bin/python3 has torch, every tensor autograd prints is checked against the
same computation in PyTorch after torch.manual_seed(67280421310721).

The programs run with OMP_NUM_THREADS=1 (unless set): on an oversubscribed machine, OpenMP's
two-thread barriers inside every convolution stall for whole scheduler slices."""

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
DISTRIBUTED = "distributed"


def find_examples(given):
    for root in (os.environ.get("BRASA_LIBTORCH_EXAMPLES"), given):
        if not root:
            continue
        for cpp in (os.path.join(root, "cpp"), root):
            if all(os.path.isfile(os.path.join(cpp, e, "CMakeLists.txt")) for e in EXAMPLES):
                return cpp
    return None


def run(cmd, cwd=None, timeout=1700):
    print("+", " ".join(cmd), flush=True)
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "1")
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=timeout, env=env)
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


def distributed_source(cpp, work):
    """cpp/distributed copied into `work`, its CMakeLists without the libc10d.a line."""
    src = os.path.join(cpp, DISTRIBUTED)
    dst = os.path.join(work, DISTRIBUTED + "_src")
    shutil.copytree(src, dst)
    path = os.path.join(dst, "CMakeLists.txt")
    with open(path) as f:
        lines = [line for line in f if "libc10d.a" not in line]
    with open(path, "w") as f:
        f.writelines(lines)
    return dst


def run_distributed(args, cpp, prefix, run_dir):
    """Builds cpp/distributed and trains it under mpirun with 2 ranks on the truncated data set
    (`../data` from its working directory, as the program expects)."""
    mpirun = shutil.which("mpirun")
    if not os.path.isdir(os.path.join(cpp, DISTRIBUTED)) or mpirun is None:
        print("distributed: not run (no cpp/distributed in the checkout, or no mpirun)")
        return
    src = distributed_source(cpp, args.work)
    build = os.path.join(args.work, DISTRIBUTED)
    run(["cmake", "-S", src, "-B", build, "-G", args.generator,
         f"-DCMAKE_CXX_COMPILER={args.cxx}", f"-DCMAKE_PREFIX_PATH={prefix}"])
    run(["cmake", "--build", build])
    cwd = os.path.join(run_dir, "dist")
    os.makedirs(cwd, exist_ok=True)
    out = run([mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2",
               os.path.join(build, "dist-mnist")], cwd=cwd)
    print("\n".join(out.splitlines()[-3:]))
    for rank in (0, 1):
        epochs = re.findall(rf"Accuracy in rank {rank} in epoch (\d+) - ([0-9.]+)", out)
        if [int(e) for e, _ in epochs] != list(range(1, 11)):
            print(out)
            sys.exit(f"libtorch_examples: distributed rank {rank} printed epochs {epochs}")
    # The threshold is far from chance (10) and below what libtorch itself reaches here: the same
    # two ranks emulated in one process give 61.9 under libtorch 1.13 and 61.4 under brasa, with
    # the same sampler order, initial weights and dropout masks; the real two-process run differs
    # from the emulation only in which dropout masks each rank draws (docs/compat.md).
    accuracy = re.findall(r"Test Accuracy - ([0-9.]+)", out)
    if len(accuracy) != 1 or float(accuracy[0]) < 45:
        print(out)
        sys.exit(f"libtorch_examples: distributed test accuracy {accuracy}, expected one above 45")


def printed_tensors(text):
    """The values of each tensor in a program's output, in order (a block of numbers ended by its
    `[ CPUFloatType{...} ]` line; a `1.0e+03 *` line scales the rows after it)."""
    tensors, values, scale = [], [], 1.0
    for line in text.splitlines():
        if re.match(r"\s*\[ \w+Type\{", line):
            tensors.append(values)
            values, scale = [], 1.0
            continue
        m = re.match(r"\s*([-+0-9.e]+) \*\s*$", line)
        if m:
            scale = float(m.group(1))
            continue
        tokens = line.split()
        if tokens and all(re.fullmatch(r"[-+]?[0-9.]+(e[-+]?\d+)?", t) for t in tokens):
            values += [float(t) * scale for t in tokens]
        else:
            values = []
    return tensors


def autograd_reference():
    """The tensors cpp/autograd prints, computed by PyTorch from libtorch's default seed; None
    without torch."""
    try:
        import torch
    except ImportError:
        return None
    torch.manual_seed(67280421310721)
    out = []
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    o = z.mean()
    out += [x, y, z, o]
    a = torch.randn(2, 2)
    o.backward()
    out.append(x.grad)
    x = torch.randn(3, requires_grad=True)
    y = x * 2
    while y.norm().item() < 1000:
        y = y * 2
    y.backward(torch.tensor([0.1, 1.0, 0.0001]))
    out += [y, x.grad]
    del a
    model = torch.nn.Linear(4, 3)
    inp = torch.randn(3, 4).requires_grad_(True)
    output = model(inp)
    target = torch.randn(3, 3)
    loss = torch.nn.MSELoss()(output, target)
    g = torch.autograd.grad([output], [inp], [torch.ones_like(output)], create_graph=True)[0]
    (loss + ((g.norm(2, 1) - 1) ** 2).mean()).backward()
    out.append(inp.grad)
    x = torch.randn(2, 3).requires_grad_()
    w = torch.randn(4, 3).requires_grad_()
    x.mm(w.t()).sum().backward()
    out += [x.grad, w.grad]
    x = torch.randn(2).requires_grad_()
    (x * 5.5).sum().backward()
    out.append(x.grad)
    return [t.detach().flatten().tolist() for t in out]


def check_autograd(text):
    expected = autograd_reference()
    if expected is None:
        print("autograd: values not compared (no torch in /usr/bin/python3)")
        return
    got = printed_tensors(text)
    if len(got) != len(expected):
        sys.exit(f"libtorch_examples: autograd printed {len(got)} tensors, expected {len(expected)}")
    worst = 0.0
    for i, (g, e) in enumerate(zip(got, expected)):
        if len(g) != len(e):
            sys.exit(f"libtorch_examples: autograd tensor {i} has {len(g)} values, expected {len(e)}")
        for gv, ev in zip(g, e):
            err = abs(gv - ev) / max(1.0, abs(ev))
            worst = max(worst, err)
            if err > 1e-4:  # it prints 4 decimals
                sys.exit(f"libtorch_examples: autograd tensor {i} printed {g}, PyTorch gives {e}")
    print(f"autograd: {len(got)} tensors match PyTorch (largest relative difference {worst:.1e})")


def run_dcgan(args, cpp, prefix):
    """Builds cpp/dcgan (argparse_shim/ on its include path) and trains one epoch of 10 batches."""
    src = os.path.join(cpp, "dcgan")
    if not os.path.isdir(src):
        print("dcgan: not run (no cpp/dcgan in the checkout)")
        return
    build = os.path.join(args.work, "dcgan")
    shim = os.path.join(os.path.dirname(os.path.abspath(__file__)), "argparse_shim")
    run(["cmake", "-S", src, "-B", build, "-G", args.generator, f"-DCMAKE_CXX_COMPILER={args.cxx}",
         f"-DCMAKE_PREFIX_PATH={prefix}", "-DDOWNLOAD_MNIST=OFF", f"-DCMAKE_CXX_FLAGS=-isystem {shim}"])
    run(["cmake", "--build", build])
    cwd = os.path.join(args.work, "dcgan_run")
    os.makedirs(os.path.join(cwd, "data"), exist_ok=True)
    for kind in ("images-idx3-ubyte", "labels-idx1-ubyte"):
        name = f"train-{kind}"
        path = next(os.path.join(args.data, name + ext) for ext in ("", ".gz")
                    if os.path.exists(os.path.join(args.data, name + ext)))
        truncated_idx(path, os.path.join(cwd, "data", name), 640)
    out = run([os.path.join(build, "dcgan"), "--epochs", "1"], cwd=cwd)
    print(out)
    check("dcgan", out, r"\[ 1/ 1\]\[ 10/ 10\] D_loss: \d+\.\d+ \| G_loss: \d+\.\d+.*Training complete!")


def have_opencv():
    return any(os.path.exists(os.path.join(d, "OpenCVConfig.cmake"))
               for d in ("/usr/lib/x86_64-linux-gnu/cmake/opencv4", "/usr/lib/cmake/opencv4",
                         "/usr/local/lib/cmake/opencv4"))


def write_ppm(path, rgb, size=32):
    """A size x size image of one colour plus noise rows, as a binary PPM (imread reads a file by
    its signature, so the example's .jpg names hold these)."""
    rows = bytearray()
    for y in range(size):
        for x in range(size):
            shade = (x * y) % 37
            rows += bytes(min(255, c + shade) for c in rgb)
    with open(path, "wb") as f:
        f.write(f"P6 {size} {size} 255\n".encode() + bytes(rows))


def run_opencv_examples(args, cpp, prefix):
    """cpp/custom-dataset and cpp/transfer-learning (their own CMakeLists, OpenCV from Debian's
    libopencv-dev): both built; custom-dataset also trains its 10 epochs on a generated set of 24
    small images of two classes (the example's Caltech-101 info.txt replaced by one naming them).
    transfer-learning's programs need a TorchScript ResNet (torch::jit::load), which brasa does not
    have (Note [No TorchScript]): built only."""
    if not have_opencv():
        print("custom-dataset, transfer-learning: not built (no OpenCV; Debian libopencv-dev)")
        return
    built = {}
    for name in ("custom-dataset", "transfer-learning"):
        src = os.path.join(cpp, name)
        if not os.path.isdir(src):
            print(f"{name}: not built (not in the checkout)")
            continue
        build = os.path.join(args.work, name)
        run(["cmake", "-S", src, "-B", build, "-G", args.generator,
             f"-DCMAKE_CXX_COMPILER={args.cxx}", f"-DCMAKE_PREFIX_PATH={prefix}"])
        run(["cmake", "--build", build])
        built[name] = build
    if "custom-dataset" not in built:
        return
    cwd = os.path.join(args.work, "custom-dataset_run")
    lines = []
    for label, (cls, rgb) in enumerate((("red", (200, 20, 20)), ("blue", (20, 20, 200)))):
        os.makedirs(os.path.join(cwd, "dataset", cls), exist_ok=True)
        for i in range(12):
            name = f"{cls}/image_{i:04d}.jpg"
            write_ppm(os.path.join(cwd, "dataset", name), rgb)
            lines.append(f"{name} {label} {'train' if i < 8 else 'test'}")
    with open(os.path.join(cwd, "info.txt"), "w") as f:
        f.write("\n".join(lines))
    out = run([os.path.join(args.work, "custom-dataset", "custom-dataset")], cwd=cwd)
    print(out)
    check("custom-dataset", out, r"Running on: CPU.*Train Epoch: 10 .*Test Loss: [0-9.e-]+\tAcc: [0-9.]+")
    accuracy = float(re.findall(r"Test Loss: [0-9.e-]+\tAcc: ([0-9.]+)", out)[-1])
    if accuracy < 0.75:  # the two colours are told apart after a few epochs (1.0 here)
        sys.exit(f"libtorch_examples: custom-dataset's last test accuracy {accuracy}, expected >= 0.75")


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
    check_autograd(out)
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
    run_distributed(args, cpp, prefix, run_dir)
    run_dcgan(args, cpp, prefix)
    run_opencv_examples(args, cpp, prefix)
    return 0


if __name__ == "__main__":
    sys.exit(main())
