#!/usr/bin/env python3
"""Kills one rank (VICTIM, default 1) of a two-rank Gloo group while a large allreduce is in
flight, TRIALS times, and checks that the survivor always ends with an error naming the victim,
never by SIGPIPE (Note [SIGPIPE]), and found by positive evidence (Note [Liveness leases]: the
victim's store connection closed, or for rank 0 its store server is unreachable) rather than by
the heartbeat comparison. Reports the distribution of the survivor's error after the kill (both
processes print CLOCK_MONOTONIC times); with MEDIAN_MS, fails when the median is above it.
The survivor must also exit within EXIT_MS of its error. Loopback only; every trial is bounded
in time and its processes are cleaned up.

usage: kill_mid_allreduce.py DDP_WORKER [TRIALS [VICTIM [MEDIAN_MS [MAX_HANGS]]]]"""
import os
import re
import signal
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


FAST = ("store connection closed", "store server it hosts is unreachable")


TRIAL_TIMEOUT = 20  # s; a trial normally ends in well under 1 s
EXIT_MS = 2000  # the survivor's exit after its error (nothing may hold it up: Note [Lost peers])


def trial(worker, victim):
    """(the survivor's exit code or None on a time-out, its output, whether the group formed,
    the victim's output, when the survivor exited in CLOCK_MONOTONIC ms)."""
    env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()), WORLD_SIZE="2")
    procs = [subprocess.Popen([worker, "die-mid", str(victim)], env=dict(env, RANK=str(r)),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True) for r in (0, 1)]
    survivor = procs[1 - victim]
    try:
        out, _ = survivor.communicate(timeout=TRIAL_TIMEOUT)
        exited = time.monotonic() * 1e3
        victim_out, _ = procs[victim].communicate(timeout=TRIAL_TIMEOUT)
        return survivor.returncode, out, "group ready" in out, victim_out, exited
    except subprocess.TimeoutExpired:
        states = ", ".join(f"rank {r}: {'running' if p.poll() is None else f'exit {p.returncode}'}"
                           for r, p in enumerate(procs))
        os.killpg(survivor.pid, signal.SIGKILL)
        out, _ = survivor.communicate()
        return (None, f"timed out after {TRIAL_TIMEOUT} s ({states}): {out}", "group ready" in out,
                "", None)
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def main():
    worker = sys.argv[1]
    trials = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    victim = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    median_bound = float(sys.argv[4]) if len(sys.argv) > 4 else None
    # Trials in which the survivor may hang (never return from the allreduce): each is reported,
    # more than this many fail the test. The ctests allow none: Gloo's unbound-send hang is cut
    # short by the group's lost-peer monitor (Note [Lost peers]); a larger value only serves to
    # measure a build without it.
    max_hangs = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    failures, latencies, hangs, exits = [], [], [], []
    by_monitor = 0
    start = time.monotonic()
    restarts = 0
    for t in range(trials):
        rc, out, formed, victim_out, exited = trial(worker, victim)
        # A group that never formed (e.g. another test took the free port between probe and bind)
        # is not what this test checks: that trial starts again on a new port, at most 3 times.
        while rc != 0 and not formed and restarts < 3:
            restarts += 1
            print(f"trial {t}: the group did not form ({out.strip()[-200:]}); starting it again")
            rc, out, formed, victim_out, exited = trial(worker, victim)
        err = re.search(r"error at ([0-9]+)", out)
        kill = re.search(r"killing at ([0-9]+)", victim_out)
        if rc == 0 and err and kill:
            latencies.append((int(err.group(1)) - int(kill.group(1))) / 1e6)
            exits.append(exited - int(err.group(1)) / 1e6)
            by_monitor += "lost while the operation was in flight" in out
            if exits[-1] > EXIT_MS:
                failures.append(f"trial {t}: the survivor exited {exits[-1]:.0f} ms after its "
                                f"error (more than {EXIT_MS} ms)")
            if not any(f in out for f in FAST):
                failures.append(f"trial {t}: named by the slow heartbeat comparison: {out.strip()}")
            continue
        if rc is None and formed and len(hangs) < max_hangs:
            hangs.append(f"trial {t}: the survivor hung in the allreduce")
            continue
        why = "killed by SIGPIPE" if rc in (-signal.SIGPIPE, 128 + signal.SIGPIPE) else f"exit {rc}"
        # The whole output: a sanitizer's report (its first lines name the error) runs to pages.
        failures.append(f"trial {t}: {why}:\n{out.strip()}")
    for h in hangs:
        print(h)
    for f in failures:
        print(f)
    if latencies:
        latencies.sort()
        median = latencies[len(latencies) // 2]
        over = sum(1 for x in latencies if x > 50)
        print(f"survivor's error after rank {victim}'s SIGKILL, {len(latencies)} trials: median "
              f"{median:.1f} ms, p90 {latencies[len(latencies) * 9 // 10]:.1f} ms, max "
              f"{latencies[-1]:.1f} ms, min {latencies[0]:.1f} ms; {over} above 50 ms; "
              f"{by_monitor} failed by the lost-peer monitor, the others by Gloo; the survivor "
              f"exited at most {max(exits):.0f} ms after its error")
        if median_bound is not None and median > median_bound:
            failures.append(f"median {median:.1f} ms is above {median_bound} ms")
            print(failures[-1])
    print(f"{trials - len(failures) - len(hangs)} passed, {len(hangs)} hung, "
          f"{len(failures)} failed "
          f"({time.monotonic() - start:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
