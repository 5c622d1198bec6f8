#!/usr/bin/env python3
"""Compiles libtorch 1.13's own C++ API tests (test/cpp/api of PyTorch 1.13.1) against brasa's
headers and, with --run, links the files that compile into one GoogleTest binary with brasa and
runs it: how far a program written against libtorch, here libtorch's own test suite, gets.

The sources come from Debian's pytorch source package (pytorch_1.13.1+dfsg.orig.tar.xz, the
tarball libtorch-dev is built from), downloaded into --work unless --source names an unpacked
tree. They are read, never copied into brasa.

test/cpp/api/support.h, which every test includes, uses three internals of libtorch's autograd and
type system that brasa does not have (DifferentiableViewMeta, caffe2::TypeMeta, get_device() on
CUDA): the script compiles against a copy of support.h with those three helpers replaced (see
PATCHES and CREATION_META: the view's CreationMeta is read with brasa's
torch::autograd::creation_meta), and says so in its output. Tests that need something brasa does not have
at all (EXCLUDED, each with its reason) are left out of a copy of their file, and listed.

Usage: scripts/libtorch_api_tests.py [--work DIR] [--source DIR] [--brasa ROOT]
                                     [--build BUILD_DIR] [--run] [FILE.cpp ...]
"""

import argparse
import os
import re
import subprocess
import sys
import tarfile
import urllib.request

TARBALL = "pytorch_1.13.1+dfsg.orig.tar.xz"
URL = "http://deb.debian.org/debian/pool/main/p/pytorch/" + TARBALL
SHA256 = "d0355588b8528566d477e6ebf1b4d9d036a6fd75711339f66b27472ce5879dc7"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (what support.h says, what the survey compiles instead, why)
PATCHES = [
    ("y = x.is_cuda() ? y.to({torch::kCUDA, x.get_device()}) : y.cpu();", "y = y.cpu();",
     "no CUDA device here"),
    ("torch::typeMetaToScalarType(torch::get_default_dtype())", "torch::get_default_dtype()",
     "brasa's default dtype is a ScalarType, not a caffe2::TypeMeta"),
    ("torch::set_default_dtype(torch::scalarTypeToTypeMeta(default_dtype));",
     "torch::set_default_dtype(default_dtype);", "the same"),
    ("torch::set_default_dtype(torch::scalarTypeToTypeMeta(prev_default_dtype));",
     "torch::set_default_dtype(prev_default_dtype);", "the same"),
    ("#include <torch/utils.h>\n",
     "#include <torch/utils.h>\n#include <torch/csrc/autograd/variable.h>\n",
     "libtorch's <torch/types.h> brings CreationMeta (variable.h); brasa's does not"),
]
# support.h's assert_tensor_creation_meta reads the CreationMeta out of libtorch's
# DifferentiableViewMeta; brasa keeps the kind on the view itself (Note [View creation meta]).
CREATION_META = "inline void assert_tensor_creation_meta("
CREATION_META_BRASA = """inline void assert_tensor_creation_meta(
    torch::Tensor& x,
    torch::autograd::CreationMeta creation_meta) {
  ASSERT_TRUE(x.is_view());
  ASSERT_EQ(torch::autograd::creation_meta(x), creation_meta);
}
"""

# Tests left out (file, suite.name, why): each needs something brasa does not have. The script
# compiles a copy of the file without those TEST/TEST_F blocks (or, for a name without a dot, the
# helper function of that name that only left-out tests call) and lists them in its output.
EXCLUDED = [
    ("tensor_options.cpp", "TensorOptionsTest.UtilityFunctionsReturnTheRightTensorOptions",
     "sparse layout (kSparse): brasa's tensors are all strided"),
    ("tensor_options.cpp", "TensorOptionsTest.ConstructsWellFromCPUTypes",
     "Backend::SparseCPU and getDeprecatedTypeProperties: no sparse tensors, no Backend"),
    ("tensor_options.cpp", "TensorOptionsTest.ConstructsWellFromCPUTensors",
     "a sparse tensor from Backend::SparseCPU: no sparse tensors"),
    ("tensor_options.cpp", "DeviceTest.ParsesCorrectlyFromString",
     "device types brasa has no backend for (MKLDNN, OpenGL, OpenCL, IDEEP, HIP)"),
    ("functional.cpp", "FunctionalTest.Interpolate",
     "compares with aten-internal kernels (at::native::_upsample_*_aa): brasa has no "
     "antialiased interpolation"),
    ("inference_mode.cpp", "InferenceModeTest.TestTLSState",
     "dispatch-key TLS (ADInplaceOrView, autograd_dispatch_keyset): brasa has no dispatch keys"),
    ("inference_mode.cpp", "assert_TLS_states", "the same"),
    ("inference_mode.cpp", "InferenceModeTest.TestAccessVersionCounter",
     "TensorImpl::version_counter(): brasa's version counter is Tensor::_version()"),
    ("modules.cpp", "ModulesTest.Unflatten",
     "named tensors (Dimname, refine_names, UnflattenOptions with names): brasa's tensors have "
     "no dimension names"),
    ("modules.cpp", "ModulesTest.PrettyPrintUnflatten",
     "the same (UnflattenOptions with a dimension name and a named shape)"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.RetSingleNonTensor",
     "TORCH_LIBRARY: the test defines operators at run time and registers libtorch's "
     "autogradNotImplementedFallback for them; brasa does not define new operators through "
     "the c10 dispatcher (<torch/library.h>)"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.InplaceOp",
     "the same"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.DoubleInplaceOp",
     "the same"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.OptOp",
     "the same"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.OutOfPlaceAddition",
     "the same"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.RetTupleNonTensor",
     "the same"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.ViewOp",
     "the same"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.ViewOpWithExtraArg",
     "the same"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.RetTensorVectorView",
     "the same"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.DoubleViewOP",
     "the same"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.NonFirstViewOP",
     "the same"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.RetTensorVector",
     "the same"),
    ("autograd.cpp", "TestAutogradNotImplementedFallback.TensorlistOp",
     "the same"),
    ("inference_mode.cpp", "InferenceModeTest.TestLegacyAutoNonVariableTypeModeWarning",
     "at::AutoNonVariableTypeMode, deprecated before 1.13: brasa never had it"),
]


# The test files that add names to torch::nn with `namespace torch { namespace nn {`.
REOPENS_TORCH_NN = {"any.cpp"}

def fetch(work):
    import hashlib
    path = os.path.join(work, TARBALL)
    if not os.path.exists(path):
        print(f"downloading {URL}", flush=True)
        tmp = path + ".part"
        urllib.request.urlretrieve(URL, tmp)
        os.replace(tmp, path)
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    if digest != SHA256:
        sys.exit(f"libtorch_api_tests: {path} has sha256 {digest}, expected {SHA256}")
    src = os.path.join(work, "pytorch-1.13.1")
    if not os.path.isdir(os.path.join(src, "test/cpp/api")):
        with tarfile.open(path) as tar:
            members = [m for m in tar.getmembers()
                       if m.name.startswith(("pytorch-1.13.1/test/cpp/api/",
                                             "pytorch-1.13.1/test/cpp/common/",
                                             "pytorch-1.13.1/torch/csrc/utils/tempfile.h"))]
            tar.extractall(work, members)
    return src


def patched_support(src, work):
    text = open(os.path.join(src, "test/cpp/api/support.h")).read()
    for old, new, _ in PATCHES:
        if old not in text:
            sys.exit(f"libtorch_api_tests: support.h no longer says {old!r}")
        text = text.replace(old, new)
    start = text.index(CREATION_META)
    end = text.index("} // namespace test")
    text = text[:start] + CREATION_META_BRASA + text[end:]
    out = os.path.join(work, "patched/test/cpp/api")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "support.h"), "w") as f:
        f.write(text)
    return os.path.join(work, "patched")


def _block_end(text, start):
    """The index just past the brace block that opens at text[start] == '{' (skipping strings,
    character literals and comments)."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if text.startswith("//", i):
            i = text.index("\n", i)
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 1
        elif c in "\"'":
            i += 1
            while text[i] != c:
                i += 2 if text[i] == "\\" else 1
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced braces")


def without_excluded(src, work, name):
    """The path to compile for test file name: a copy without its EXCLUDED tests, if any."""
    path = os.path.join(src, "test/cpp/api", name)
    left_out = [(test, why) for f, test, why in EXCLUDED if f == name]
    if not left_out:
        return path
    text = open(path).read()
    for test, why in left_out:
        if "." in test:
            suite, case = test.split(".")
            pattern = r"\bTEST(_F)?\(\s*%s\s*,\s*%s\s*\)\s*{" % (suite, case)
        else:  # a helper function only the left-out tests use
            pattern = r"^[\w:<>&* ]*\b%s\([^;{]*\)\s*{" % test
        m = re.search(pattern, text, re.M)
        if not m:
            sys.exit(f"libtorch_api_tests: {name} no longer has {test}")
        text = text[:m.start()] + text[_block_end(text, m.end() - 1):]
        print(f"{name:24} leaves out {test}: {why}", flush=True)
    out = os.path.join(work, "patched/test/cpp/api", name)
    with open(out, "w") as f:
        f.write(text)
    return out


def test_files(src):
    cmake = open(os.path.join(src, "test/cpp/api/CMakeLists.txt")).read()
    block = re.search(r"set\(TORCH_API_TEST_SOURCES(.*?)\)", cmake, re.S).group(1)
    names = re.findall(r"\$\{TORCH_API_TEST_DIR\}/([\w-]+\.cpp)", block)
    return [n for n in names if "cuda" not in n]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default=os.path.join(ROOT, "build/libtorch_api_tests"))
    ap.add_argument("--source")
    ap.add_argument("--brasa", default=ROOT)
    ap.add_argument("--build", default=os.path.join(ROOT, "build/release"))
    ap.add_argument("--run", action="store_true")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    src = args.source or fetch(args.work)
    patched = patched_support(src, args.work)
    flags = ["-std=c++17", "-Wno-unused-variable",
             "-I" + os.path.join(args.brasa, "compat/include"),
             "-I" + os.path.join(args.brasa, "include"), "-I" + patched, "-I" + src,
             "-I" + os.path.join(patched, "test/cpp/api"),
             "-I" + os.path.join(src, "test/cpp/api")]
    files = args.files or test_files(src)
    logs = os.path.join(args.work, "logs")
    os.makedirs(logs, exist_ok=True)
    compiled, failed = [], []
    for name in files:
        path = without_excluded(src, args.work, name)
        obj = os.path.join(args.work, name.replace(".cpp", ".o"))
        # any.cpp reopens namespace torch::nn (Note [libtorch namespaces])
        reopen = ["-DBRASA_REOPENABLE_TORCH_NN"] if name in REOPENS_TORCH_NN else []
        cmd = [args.cxx] + flags + reopen + (["-O1", "-c", path, "-o", obj] if args.run
                                    else ["-fsyntax-only", path])
        res = subprocess.run(cmd, capture_output=True, text=True)
        log = os.path.join(logs, name.replace(".cpp", ".log"))
        with open(log, "w") as f:
            f.write(res.stderr)
        errors = len(re.findall(r"error:", res.stderr))
        first = next((l for l in res.stderr.splitlines() if "error:" in l), "")
        print(f"{name:24} {'compiles' if res.returncode == 0 else f'{errors} errors'}"
              f"{'  ' + first[:150] if first else ''}", flush=True)
        (compiled if res.returncode == 0 else failed).append(name)
    excluded = sum(1 for f, test, _ in EXCLUDED if f in files and "." in test)
    print(f"\n{len(compiled)} of {len(files)} files compile against brasa "
          f"(support.h with {len(PATCHES)} lines and assert_tensor_creation_meta "
          f"replaced; {excluded} tests left out, listed above); logs in {logs}")
    if not args.run or not compiled:
        return 0
    main_obj = os.path.join(args.work, "main.o")
    subprocess.run([args.cxx] + flags + ["-c", os.path.join(src, "test/cpp/common/main.cpp"),
                                         "-o", main_obj], check=True)
    binary = os.path.join(args.work, "test_api")
    objs = [os.path.join(args.work, n.replace(".cpp", ".o")) for n in compiled]
    lib = os.path.join(args.build, "src")
    subprocess.run([args.cxx, "-o", binary, main_obj] + objs +
                   ["-L" + lib, "-Wl,-rpath," + lib, "-lbrasa", "-lgtest", "-lpthread"],
                   check=True)
    return subprocess.run([binary, "--gtest_brief=1"]).returncode


if __name__ == "__main__":
    sys.exit(main())
