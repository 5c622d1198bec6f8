#!/usr/bin/python3
"""examples/ddp_fashion_mnist under brasarun: 2 ranks, 60 steps, checkpoints every 20 steps. One
run is uninterrupted; in the other, rank 1 fails at step 50, brasarun (--max-restarts 1) restarts
the group, every rank resumes from the committed step 40, and the final parameters must be
bit-identical to the uninterrupted run's.

Usage: ddp_restart.py BRASARUN DDP_FASHION_MNIST WORK_DIR"""

import os
import shutil
import subprocess
import sys

import torch


def main():
    brasarun, exe, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    def run(name, *extra):
        args = [brasarun, "--nproc-per-node", "2", "--master-port", "0", *extra, exe,
                "--max-steps", "60", "--checkpoint-every", "20", "--checkpoint-dir",
                os.path.join(work, name), "--out", os.path.join(work, name + ".pt")]
        if name == "restarted":
            args += ["--fail-at-step", "50"]
        return subprocess.run(args, capture_output=True, text=True, timeout=240)

    straight = run("straight")
    if straight.returncode != 0:
        sys.exit("uninterrupted run failed:\n" + straight.stdout + straight.stderr)
    restarted = run("restarted", "--max-restarts", "1")
    if restarted.returncode != 0:
        sys.exit("restarted run failed:\n" + restarted.stdout + restarted.stderr)
    log = restarted.stdout + restarted.stderr
    for expected in ("rank 1", "restarting the worker group", "resumed from the committed step 40"):
        if expected not in log:
            sys.exit(f"expected '{expected}' in the restarted run's output:\n{log}")
    a = torch.load(os.path.join(work, "straight.pt"), weights_only=True)
    b = torch.load(os.path.join(work, "restarted.pt"), weights_only=True)
    different = [k for k in a if not torch.equal(a[k], b[k])]
    if different or list(a) != list(b):
        sys.exit(f"final parameters differ after the restart: {different}")
    print("restart from the committed checkpoint: final parameters bit-identical")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
