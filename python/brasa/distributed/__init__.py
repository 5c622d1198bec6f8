"""brasa.distributed: torch.distributed's process groups and collectives over brasa's C++ ones
(Gloo, or MPI under mpirun), for scripts launched by brasarun (or torchrun, mpirun).

    brasa.distributed.init_process_group("gloo")          # env://: RANK, WORLD_SIZE, MASTER_*
    brasa.distributed.all_reduce(t, op=ReduceOp.SUM)
    model = brasa.nn.parallel.DistributedDataParallel(model)

Collectives run with the GIL released; with async_op=True they return a Work to wait() on."""
import datetime
import os
import urllib.parse

from .. import _distributed as _D
from ..futures import Future as _Future
from ._grad_bucket import GradBucket  # noqa: F401

ReduceOp = _D.ReduceOp
ProcessGroup = _D.ProcessGroup
Work = _D.Work
# torch's Work.get_future(): a brasa.futures.Future completing with the op's output tensors (a new
# future per call, each waiting on the same Work).
Work.get_future = lambda self: _Future._of_work(self)


class Backend:
    """The backend names init_process_group accepts."""
    GLOO = "gloo"
    MPI = "mpi"


class GroupMember:
    WORLD = None  # the default group, as the `group` argument
    NON_GROUP_MEMBER = object()


group = GroupMember


def is_available():
    return True


def is_gloo_available():
    return True


def is_mpi_available():
    return True


def is_nccl_available():
    return False


def _seconds(timeout):
    if timeout is None:
        return None
    if isinstance(timeout, datetime.timedelta):
        return timeout.total_seconds()
    return float(timeout)


def _apply_init_method(init_method):
    """env:// (or None) reads the environment; tcp://host:port sets MASTER_ADDR/MASTER_PORT."""
    if init_method is None or init_method == "env://":
        return
    url = urllib.parse.urlparse(init_method)
    if url.scheme != "tcp" or not url.hostname or not url.port:
        raise ValueError(f"init_process_group: init_method {init_method!r} is not supported "
                         "(expected 'env://' or 'tcp://host:port')")
    os.environ["MASTER_ADDR"] = url.hostname
    os.environ["MASTER_PORT"] = str(url.port)


def init_process_group(backend="gloo", init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, group_name="", pg_options=None):
    """Creates the default group. backend: "gloo" or "mpi" ("nccl" is not available); the
    rendezvous reads RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT unless rank/world_size or a
    tcp:// init_method are given."""
    if store is not None:
        raise NotImplementedError("init_process_group: a Python store is not supported; use "
                                  "env:// or tcp://")
    backend = str(backend).lower()
    if backend == "nccl":
        raise RuntimeError("init_process_group: brasa has no NCCL backend; use 'gloo'")
    _apply_init_method(init_method)
    _D.init_process_group(backend, None if rank < 0 else rank,
                          None if world_size < 0 else world_size, _seconds(timeout))


def destroy_process_group(group=None):
    """Releases the default group (and the groups made by new_group)."""
    if group is not None:
        raise NotImplementedError("destroy_process_group: only the default group is destroyed")
    _D.destroy_process_group()


def is_initialized():
    return _D.is_initialized()


def _check_group(group):
    if group is not None and not isinstance(group, ProcessGroup):
        raise TypeError(f"expected a ProcessGroup or None, got {type(group).__name__}")
    return group


def get_rank(group=None):
    return _check_group(group).rank() if group is not None else _D.get_rank()


def get_world_size(group=None):
    return _check_group(group).size() if group is not None else _D.get_world_size()


def get_backend(group=None):
    return (_check_group(group) or _D.default_group()).name()


def new_group(ranks=None, timeout=None, backend=None, pg_options=None):
    """A group of `ranks` (every rank must call it, in the same order); on ranks outside it the
    result is GroupMember.NON_GROUP_MEMBER, as in torch."""
    if ranks is None:
        ranks = list(range(get_world_size()))
    g = _D.new_group(sorted(int(r) for r in ranks))
    return g if get_rank() in ranks else GroupMember.NON_GROUP_MEMBER


def _g(group):
    if group is GroupMember.NON_GROUP_MEMBER:
        raise RuntimeError("this rank is not a member of the group")
    return _check_group(group)


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    return _D.all_reduce(tensor, op, _g(group), async_op)


def reduce(tensor, dst, op=ReduceOp.SUM, group=None, async_op=False):
    return _D.reduce(tensor, dst, op, _g(group), async_op)


def broadcast(tensor, src, group=None, async_op=False):
    return _D.broadcast(tensor, src, _g(group), async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    return _D.all_gather(list(tensor_list), tensor, _g(group), async_op)


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    return _D.reduce_scatter(output, list(input_list), op, _g(group), async_op)


def gather(tensor, gather_list=None, dst=0, group=None, async_op=False):
    return _D.gather(tensor, list(gather_list or []), dst, _g(group), async_op)


def scatter(tensor, scatter_list=None, src=0, group=None, async_op=False):
    return _D.scatter(tensor, list(scatter_list or []), src, _g(group), async_op)


def barrier(group=None, async_op=False, device_ids=None):
    return _D.barrier(_g(group), async_op)


def all_gather_object(object_list, obj, group=None):
    """Gathers picklable objects from every rank into object_list."""
    import pickle
    from .. import tensor as _tensor, uint8, zeros, int64
    data = pickle.dumps(obj)
    size = _tensor([len(data)], dtype=int64)
    n = get_world_size(group)
    sizes = [zeros(1, dtype=int64) for _ in range(n)]
    all_gather(sizes, size, group)
    longest = max(int(s.item()) for s in sizes)
    buf = zeros(longest, dtype=uint8)
    buf[:len(data)] = _tensor(list(data), dtype=uint8)
    outs = [zeros(longest, dtype=uint8) for _ in range(n)]
    all_gather(outs, buf, group)
    for i, (o, s) in enumerate(zip(outs, sizes)):
        object_list[i] = pickle.loads(bytes(o[:int(s.item())].tolist()))


def broadcast_object_list(object_list, src=0, group=None):
    """Replaces object_list's items on every rank with src's (picklable objects)."""
    gathered = [None] * get_world_size(group)
    all_gather_object(gathered, list(object_list) if get_rank() == src else None, group)
    object_list[:] = gathered[src]
