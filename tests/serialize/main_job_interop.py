#!/usr/bin/python3
"""The main job's model, trained briefly by brasa, read by PyTorch: the torch.save state_dict
(weights_only=True) and the safetensors file (parsed here by hand: json header + raw bytes) both
load into train_torch.py's model, which then gives the logits brasa computed. And the main job's
--resume: 300 steps straight equal 150 steps, a new process with --resume, 150 more, bit for bit.

Usage: main_job_interop.py FASHION_MNIST_EXE WORK_DIR"""

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "fashion_mnist"))
import train_torch  # noqa: E402

DATA = "/usr/share/datasets/fashion-mnist"
DTYPES = {"F32": np.float32, "F64": np.float64, "I64": np.int64}


def read_safetensors(path):
    with open(path, "rb") as f:
        raw = f.read()
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n])
    header.pop("__metadata__", None)
    out = {}
    for name, info in header.items():
        begin, end = info["data_offsets"]
        array = np.frombuffer(raw[8 + n + begin:8 + n + end], dtype=DTYPES[info["dtype"]])
        out[name] = torch.from_numpy(array.copy()).reshape(info["shape"])
    return out


def check(exe, work, model_name, steps):
    d = os.path.join(work, model_name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    st, logits = os.path.join(d, "model.safetensors"), os.path.join(d, "logits.pt")
    subprocess.run([exe, "--model", model_name, "--epochs", "1", "--max-steps", str(steps),
                    "--threads", "1", "--checkpoint", st, "--checkpoint-dir",
                    os.path.join(d, "ckpt"), "--logits", logits, "--log-every", "1000"],
                   check=True, stdout=subprocess.DEVNULL)
    expected = torch.load(logits, weights_only=True)["0"]
    images, _ = train_torch.load(DATA, "t10k")
    for source in ("pt", "safetensors"):
        model = train_torch.Cnn() if model_name == "cnn" else train_torch.Mlp()
        if source == "pt":
            state = torch.load(os.path.join(d, "model.pt"), weights_only=True)
        else:
            state = read_safetensors(st)
        model.load_state_dict(state, strict=True)
        model.eval()
        with torch.no_grad():
            got = model(images[:64])
        err = (got - expected).abs().max().item()
        print(f"{model_name} via {source}: max |logit difference| = {err:.3g}")
        if not torch.allclose(got, expected, rtol=1e-4, atol=1e-4):
            sys.exit(f"{model_name}: PyTorch's logits from the {source} file differ from brasa's "
                     f"by up to {err}")
    shutil.rmtree(d)


def check_resume(exe, work):
    d = os.path.join(work, "resume")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)

    def run(name, steps, *extra):
        subprocess.run([exe, "--model", "mlp", "--epochs", "1", "--max-steps", str(steps),
                        "--checkpoint-every", "100", "--log-every", "1000",
                        "--checkpoint-dir", os.path.join(d, name),
                        "--checkpoint", os.path.join(d, name + ".safetensors"), *extra],
                       check=True, stdout=subprocess.DEVNULL)
    run("straight", 300)
    run("resumed", 150)
    run("resumed", 300, "--resume")
    a = torch.load(os.path.join(d, "straight.pt"), weights_only=True)
    b = torch.load(os.path.join(d, "resumed.pt"), weights_only=True)
    different = [k for k in a if not torch.equal(a[k], b[k])]
    if different or list(a) != list(b):
        sys.exit(f"--resume: parameters differ from the uninterrupted run: {different}")
    print("main job --resume: all parameters bit-identical to the uninterrupted run")
    shutil.rmtree(d)


def main():
    exe, work = sys.argv[1], sys.argv[2]
    check_resume(exe, work)
    check(exe, work, "mlp", 30)
    check(exe, work, "cnn", 10)


if __name__ == "__main__":
    main()
