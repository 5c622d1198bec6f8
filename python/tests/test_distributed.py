"""brasa.distributed and DistributedDataParallel: two ranks on loopback (Gloo, env://), launched by
brasarun when it is built (BRASARUN, else the build tree's tools/brasarun) or else as two processes
given RANK/WORLD_SIZE/MASTER_* directly. Bounded in time; every process is cleaned up."""
import os
import shutil
import signal
import socket
import subprocess
import sys

import pytest

import brasa
import brasa.distributed as dist

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "dist_worker.py")
JOIN_HOOKS_WORKER = os.path.join(HERE, "dist_join_hooks_worker.py")
TIMEOUT_S = 120


def brasarun():
    candidates = [os.environ.get("BRASARUN"), shutil.which("brasarun"),
                  os.path.join(os.getcwd(), "..", "tools", "brasarun")]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def communicate(procs):
    """Waits for every process (TIMEOUT_S in all); kills each one's process group on timeout."""
    outs = []
    try:
        for p in procs:
            outs.append(p.communicate(timeout=TIMEOUT_S)[0])
    except subprocess.TimeoutExpired:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()
        pytest.fail("the distributed run timed out:\n" + "\n".join(o or "" for o in outs))
    return outs


def run_two_ranks(worker=WORKER):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(brasa.__file__)), os.environ.get("PYTHONPATH", "")]),
        OMP_NUM_THREADS="1")
    launcher = brasarun()
    if launcher:
        cmd = [launcher, "--nproc-per-node", "2", "--master-port", "0", sys.executable, worker]
        procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, start_new_session=True)]
    else:
        port = str(free_port())
        procs = [subprocess.Popen([sys.executable, worker], stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, start_new_session=True,
                                  env=dict(env, RANK=str(r), WORLD_SIZE="2",
                                           MASTER_ADDR="127.0.0.1", MASTER_PORT=port))
                 for r in range(2)]
    outs = communicate(procs)
    return [p.returncode for p in procs], "\n".join(outs)


def test_two_ranks_collectives_and_ddp_equal_single_process():
    codes, out = run_two_ranks()
    assert all(c == 0 for c in codes), out
    assert "rank 0 ok" in out and "rank 1 ok" in out, out


def test_two_ranks_join_and_comm_hooks():
    """DDP.join() with uneven inputs (both divisors, throw_on_early_termination) and
    register_comm_hook (allreduce, fp16 and bf16 compression, a local hook with state, a failing
    hook) on two ranks, against single-process references."""
    codes, out = run_two_ranks(JOIN_HOOKS_WORKER)
    assert all(c == 0 for c in codes), out
    assert "rank 0 ok" in out and "rank 1 ok" in out, out


def test_errors_without_a_group():
    assert not dist.is_initialized()
    with pytest.raises(RuntimeError, match="init_process_group"):
        dist.all_reduce(brasa.ones(1))
    with pytest.raises(RuntimeError, match="init_process_group"):
        brasa.nn.parallel.DistributedDataParallel(brasa.nn.Linear(1, 1))
    with pytest.raises(RuntimeError, match="NCCL"):
        dist.init_process_group("nccl")
    with pytest.raises(ValueError, match="init_method"):
        dist.init_process_group("gloo", init_method="file:///tmp/x")
