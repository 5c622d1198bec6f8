#!/usr/bin/python3
"""examples/char_gpt on a 2 x 2 mesh (--tp 2 --fsdp 2, 4 processes under brasarun, loopback).

1. Six float64 AdamW steps of a tiny model (dropout 0) equal single-process training of the
   same global batches: every step's loss and the final validation loss within 1e-10; with
   --sequence-parallel too.
2. Its distributed checkpoint: a 2 x 2 run stopped after step 3 (--max-steps) and resumed on
   2 x 2 ends bit-identical to the uninterrupted 2 x 2 run (every logged loss, digit for digit);
   resumed in one process (--dcp) it equals the single-process run within 1e-10.
Every command runs under a timeout; brasarun stops its ranks when one fails.
Usage: check_char_gpt_parallel.py BRASARUN CHAR_GPT WORK_DIR
"""
import os
import shutil
import subprocess
import sys

BRASARUN, BINARY, WORK = sys.argv[1:4]
TINY = ["--layers", "2", "--dim", "16", "--heads", "4", "--block-size", "8", "--batch-size", "4",
        "--eval-batches", "1", "--eval-every", "100", "--warmup", "2", "--threads", "1",
        "--dropout", "0", "--dtype", "float64", "--steps", "6", "--log-every", "1"]
failures = []


def run(name, *args, ranks=1):
    log = os.path.join(WORK, name + ".log")
    cmd = [BINARY, *TINY, "--data", TEXT, "--loss-log", log, *args]
    if ranks > 1:
        cmd = [BRASARUN, "--nproc-per-node", str(ranks), "--master-port", "0", *cmd]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    if p.returncode != 0:
        failures.append(f"{name}: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
        return {}
    values = {}
    with open(log) as f:
        for line in f:
            key, value = line.rsplit(" ", 1)
            values[key] = value.strip()
    return values


def close(a, b, what, tol=1e-10):
    if not a or set(a) != set(b):
        failures.append(f"{what}: logged {sorted(a)} vs {sorted(b)}")
        return
    worst = max(abs(float(a[k]) - float(b[k])) for k in a)
    print(f"{what}: largest difference {worst:.3g} over {len(a)} values")
    if worst > tol:
        failures.append(f"{what}: differ by {worst} > {tol}\n{a}\n{b}")


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
TEXT = os.path.join(WORK, "fortunes.txt")
with open(TEXT, "w", encoding="utf-8") as f:
    for i in range(200):
        f.write(f"Fortune {i}: the café opens at {i % 24} o'clock.\n -- a proverb\n%\n")

MESH = ["--tp", "2", "--fsdp", "2"]
single = run("single", "--checkpoint-dir", os.path.join(WORK, "single"))
mesh = run("mesh", *MESH, "--checkpoint-dir", os.path.join(WORK, "mesh"), ranks=4)
close(mesh, single, "2 x 2 vs one process")
sp = run("sp", *MESH, "--sequence-parallel", "--checkpoint-dir", os.path.join(WORK, "sp"), ranks=4)
close(sp, single, "2 x 2 with sequence parallel vs one process")

cut = os.path.join(WORK, "cut")
run("cut", *MESH, "--max-steps", "3", "--checkpoint-dir", cut, ranks=4)
shutil.copytree(cut, cut + "1")
resumed = run("resumed", *MESH, "--resume", "--checkpoint-dir", cut, ranks=4)
tail = {k: v for k, v in mesh.items() if k not in ("step 1 loss", "step 2 loss", "step 3 loss")}
if resumed != tail:
    failures.append(f"2 x 2 resumed at step 3 is not bit-identical to the uninterrupted run:\n"
                    f"{resumed}\n{tail}")
else:
    print(f"2 x 2 resumed from step 3: bit-identical ({len(tail)} values)")
one = run("one", "--dcp", "--resume", "--checkpoint-dir", cut + "1")
close(one, {k: single[k] for k in tail}, "2 x 2 checkpoint resumed in one process vs one process")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
