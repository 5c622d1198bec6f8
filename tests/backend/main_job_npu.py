#!/usr/bin/python3
"""The main job's MLP trained on the example npu backend (loaded through BRASA_BACKENDS) gives the
same model, bit for bit, as on the CPU, and prints the fallback report.

Usage: main_job_npu.py FASHION_MNIST_EXE LIBBRASA_NPU WORK_DIR [STEPS]"""

import os
import re
import shutil
import subprocess
import sys
import time


def run(exe, work, device, steps, env):
    d = os.path.join(work, device)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    model = os.path.join(d, "model.safetensors")
    start = time.monotonic()
    out = subprocess.run([exe, "--model", "mlp", "--epochs", "1", "--max-steps", str(steps),
                          "--threads", "1", "--device", device, "--checkpoint", model,
                          "--checkpoint-dir", os.path.join(d, "ckpt"), "--log-every", "1000"],
                         check=True, capture_output=True, text=True, env=env)
    seconds = time.monotonic() - start
    with open(model, "rb") as f:
        return f.read(), out.stdout, out.stderr, seconds


def main():
    exe, lib, work = sys.argv[1:4]
    steps = int(sys.argv[4]) if len(sys.argv) > 4 else 60
    env = dict(os.environ, BRASA_BACKENDS=lib)
    cpu, cpu_out, _, cpu_s = run(exe, work, "cpu", steps, env)
    npu, npu_out, npu_err, npu_s = run(exe, work, "npu", steps, env)
    print(npu_out)
    if cpu != npu:
        print("FAIL: the npu's model differs from the CPU's")
        return 1
    def accuracy(out):
        found = re.findall(r"^done: .*test accuracy ([0-9.]+)%", out, re.M)
        return found[0] if found else None
    if accuracy(npu_out) is None or accuracy(npu_out) != accuracy(cpu_out):
        print(f"FAIL: test accuracy {accuracy(npu_out)} on the npu, {accuracy(cpu_out)} on the CPU")
        return 1
    if "CPU fallback:" not in npu_out:
        print("FAIL: no fallback report")
        return 1
    warnings = [l for l in npu_err.splitlines() if "falls back to the CPU" in l]
    ops = npu_out.split("CPU fallback:")[1].split(" ops")[0].strip()
    if len(warnings) != int(ops):
        print(f"FAIL: {len(warnings)} fallback warnings for {ops} fallen-back ops")
        return 1
    print(f"npu model == cpu model ({len(npu)} bytes) after {steps} steps, test accuracy "
          f"{accuracy(npu_out)}%; "
          f"{ops} ops fell back; cpu {cpu_s:.1f} s, npu {npu_s:.1f} s")
    print("1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
