#!/usr/bin/python3
"""Smoke test of examples/char_gpt on a tiny model and a generated text (a few seconds).

1. A run with every option (bf16 autocast, activation checkpointing, TensorBoard, sampling,
   profiling) ends with a validation loss, a sample and the profile tables.
2. Interrupted at step 4 (--max-steps) and resumed, a run ends with the validation loss of the
   uninterrupted one, digit for digit.
3. Bad input names the file: an empty text, a non-UTF-8 text, a corrupt checkpoint.
Usage: check_char_gpt.py CHAR_GPT WORK_DIR
"""
import os
import re
import shutil
import subprocess
import sys

BINARY, WORK = sys.argv[1], sys.argv[2]
TINY = ["--layers", "1", "--dim", "32", "--heads", "2", "--block-size", "16", "--batch-size", "4",
        "--eval-batches", "2", "--eval-every", "4", "--warmup", "2", "--threads", "1"]
failures = []


def run(*args, expect=0):
    p = subprocess.run([BINARY, *TINY, *args], capture_output=True, text=True, timeout=60)
    if p.returncode != expect:
        failures.append(f"{' '.join(args)}: exit {p.returncode}, expected {expect}\n{p.stdout}\n{p.stderr}")
    return p


def check(cond, what, p):
    if not cond:
        failures.append(f"{what}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
text = os.path.join(WORK, "fortunes.txt")
with open(text, "w", encoding="utf-8") as f:
    for i in range(400):
        f.write(f"Fortune {i}: the café opens at {i % 24} o'clock.\n -- a proverb\n%\n")

p = run("--data", text, "--steps", "6", "--autocast", "bf16", "--checkpoint-activations",
        "--checkpoint-dir", os.path.join(WORK, "all"), "--tensorboard", os.path.join(WORK, "tb"),
        "--sample", "20", "--num-samples", "2", "--top-k", "5", "--profile", "40")
check(re.search(r"step 6: val loss \d+\.\d+", p.stdout) and "--- sample 2 ---" in p.stdout,
      "the full run printed no final val loss or samples", p)
check("profile of steps 4 to 6:" in p.stdout and "profile of steps 4 to 6, by input shapes:" in p.stdout
      and re.search(r"\n +addmm ", p.stdout), "no profile tables (with an addmm row)", p)
check(any(n.startswith("events.out.tfevents") for n in os.listdir(os.path.join(WORK, "tb"))),
      "no TensorBoard event file", p)

whole = run("--data", text, "--steps", "8", "--checkpoint-dir", os.path.join(WORK, "whole"))
run("--data", text, "--steps", "8", "--max-steps", "4", "--checkpoint-dir", os.path.join(WORK, "cut"))
resumed = run("--data", text, "--steps", "8", "--resume", "--checkpoint-dir", os.path.join(WORK, "cut"))
final = lambda q: re.findall(r"step 8: val loss (\S+)", q.stdout)
check(final(whole) and final(whole) == final(resumed),
      f"resumed run ends with val loss {final(resumed)}, uninterrupted {final(whole)}", resumed)
check("resumed at step 4" in resumed.stdout, "the resumed run did not start at step 4", resumed)

empty = os.path.join(WORK, "empty.txt")
open(empty, "w").close()
p = run("--data", empty, expect=1)
check(f"{empty}: empty text file" in p.stderr, "empty file not named", p)
latin1 = os.path.join(WORK, "latin1.txt")
with open(latin1, "wb") as f:
    f.write("caf\u00e9\n%\n".encode("latin-1"))
p = run("--data", latin1, expect=1)
check(f"{latin1}: not UTF-8 text (invalid byte sequence at byte 3)" in p.stderr, "non-UTF-8 not named", p)
corrupt = os.path.join(WORK, "corrupt")
os.makedirs(corrupt)
bad = os.path.join(corrupt, "checkpoint-4.pt")
with open(bad, "wb") as f:
    f.write(b"PK\x03\x04 not a checkpoint")
p = run("--data", text, "--steps", "8", "--resume", "--checkpoint-dir", corrupt, expect=1)
check(f"cannot resume: checkpoint '{bad}'" in p.stderr, "corrupt checkpoint not named", p)

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
