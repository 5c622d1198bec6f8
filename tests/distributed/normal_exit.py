#!/usr/bin/env python3
"""A rank that exits normally right after its last collective must not fail its peer (Note [Lost
peers]: the peer's ops still in flight get a grace period, and a rank that left normally says so
in the store first). Runs a two-rank Gloo group TRIALS times: both ranks run ITERS allreduces,
rank EARLY returns from main right after its last one (with --destroy: after
destroy_process_group), the other finishes its own and exits; both must exit 0, and the other
must exit within EXIT_S seconds of its start (nothing blocks its exit). Loopback only; every trial is
bounded in time and its processes are cleaned up.

usage: normal_exit.py DDP_WORKER [TRIALS [EARLY [ITERS [--destroy]]]]"""
import os
import signal
import socket
import subprocess
import sys
import time

TRIAL_TIMEOUT = 30  # s
EXIT_S = 5.0  # the other rank's whole run, start-up included


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def trial(worker, early, iters, destroy):
    """[(exit code or None on a time-out, output, seconds from start to exit)] for ranks 0, 1."""
    env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()), WORLD_SIZE="2")
    args = [worker, "leave", str(early), str(iters)] + (["--destroy"] if destroy else [])
    start = time.monotonic()
    procs = [subprocess.Popen(args, env=dict(env, RANK=str(r)), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, start_new_session=True)
             for r in (0, 1)]
    ended = [None, None]
    try:
        while None in ended and time.monotonic() < start + TRIAL_TIMEOUT:
            for r, p in enumerate(procs):
                if ended[r] is None and p.poll() is not None:
                    ended[r] = time.monotonic() - start
            time.sleep(0.005)
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
    results = []
    for r, p in enumerate(procs):
        out, _ = p.communicate()
        if ended[r] is None:
            results.append((None, f"timed out after {TRIAL_TIMEOUT} s: {out}", None))
        else:
            results.append((p.returncode, out, ended[r]))
    return results


def main():
    worker = sys.argv[1]
    trials = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    early = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    iters = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    destroy = "--destroy" in sys.argv[5:]
    failures, retried, times = [], 0, []
    start = time.monotonic()
    for t in range(trials):
        results = trial(worker, early, iters, destroy)
        # A group that never formed (another test took the port between probe and bind) is not
        # what this test checks: that trial starts again on a new port, at most 3 times.
        while (retried < 3 and any(rc not in (0, None) for rc, _, _ in results)
               and any("rendezvous" in out or "TCPStore" in out for _, out, _ in results)
               and not any("done in" in out for _, out, _ in results)):
            retried += 1
            print(f"trial {t}: the group did not form; starting it again")
            results = trial(worker, early, iters, destroy)
        for r, (rc, out, _) in enumerate(results):
            if rc != 0:
                failures.append(f"trial {t}: rank {r} {'hung' if rc is None else f'exit {rc}'}: "
                                f"{out.strip()[-600:]}")
        rc, out, seconds = results[1 - early]
        if rc == 0:
            times.append(seconds)
            if seconds > EXIT_S:
                failures.append(f"trial {t}: rank {1 - early} took {seconds:.2f} s to exit")
    for f in failures:
        print(f)
    if times:
        times.sort()
        print(f"rank {1 - early}, start to exit (rank {early} left first): median "
              f"{times[len(times) // 2]:.3f} s, max {times[-1]:.3f} s")
    print(f"{trials} trials, {len(failures)} failures ({time.monotonic() - start:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
