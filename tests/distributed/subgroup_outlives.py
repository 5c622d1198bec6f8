#!/usr/bin/env python3
"""A group is failed only by the loss of one of its members (Note [Lost peers]). Runs a
three-rank Gloo job TRIALS times (ddp_worker subgroup-outlives): rank 2 is SIGKILLed after a
barrier, ranks 0 and 1 keep running allreduces in new_group({0, 1}) across the kill, which must
all succeed, then fail in the default group naming rank 2. Loopback only; every trial is bounded
in time and its processes are cleaned up.

usage: subgroup_outlives.py DDP_WORKER [TRIALS]"""
import os
import signal
import socket
import subprocess
import sys
import time

TRIAL_TIMEOUT = 30  # s


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def trial(worker):
    """[(exit code or None on a time-out, output)] for ranks 0 and 1."""
    env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()), WORLD_SIZE="3")
    procs = [subprocess.Popen([worker, "subgroup-outlives"], env=dict(env, RANK=str(r)),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True) for r in (0, 1, 2)]
    results = []
    deadline = time.monotonic() + TRIAL_TIMEOUT
    try:
        for p in procs[:2]:
            try:
                out, _ = p.communicate(timeout=max(0.1, deadline - time.monotonic()))
                results.append((p.returncode, out))
            except subprocess.TimeoutExpired:
                results.append((None, f"timed out after {TRIAL_TIMEOUT} s"))
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
    return results


def main():
    worker = sys.argv[1]
    trials = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    failures, retried = [], 0
    start = time.monotonic()
    for t in range(trials):
        results = trial(worker)
        # A group that never formed (another test took the port between probe and bind) is not
        # what this test checks: that trial starts again on a new port, at most 3 times.
        while (retried < 3 and any(rc != 0 for rc, _ in results)
               and not all("group ready" in out for _, out in results)):
            retried += 1
            print(f"trial {t}: the group did not form; starting it again")
            results = trial(worker)
        for r, (rc, out) in enumerate(results):
            if rc != 0:
                failures.append(f"trial {t}: rank {r} {'hung' if rc is None else f'exit {rc}'}: "
                                f"{out.strip()[-600:]}")
    for f in failures:
        print(f)
    print(f"{trials} trials, {len(failures)} failures ({time.monotonic() - start:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
