"""One rank of test_distributed.py (launched by brasarun, 2 ranks, env://): collectives checked
against their definitions, then DistributedDataParallel training compared with single-process
training of the same model on the whole batch. Exits non-zero on any mismatch."""
import sys

import numpy as np

import brasa
import brasa.distributed as dist
import brasa.nn as nn


def check(cond, what):
    if not cond:
        raise AssertionError(f"rank {dist.get_rank()}: {what}")


def collectives(rank, world):
    t = brasa.tensor([float(rank + 1), 10.0 * (rank + 1)])
    dist.all_reduce(t)
    check(t.tolist() == [3.0, 30.0], f"all_reduce SUM {t.tolist()}")
    for op, want in ((dist.ReduceOp.MAX, 2.0), (dist.ReduceOp.MIN, 1.0),
                     (dist.ReduceOp.PRODUCT, 2.0), (dist.ReduceOp.AVG, 1.5)):
        u = brasa.tensor([float(rank + 1)])
        dist.all_reduce(u, op=op)
        check(u.item() == want, f"all_reduce {op} {u.item()}")
    b = brasa.full((3,), float(rank))
    dist.broadcast(b, src=1)
    check(b.tolist() == [1.0] * 3, "broadcast")
    outs = [brasa.zeros(2, dtype=brasa.int64) for _ in range(world)]
    dist.all_gather(outs, brasa.tensor([rank, rank * 7]))
    check([o.tolist() for o in outs] == [[0, 0], [1, 7]], "all_gather")
    out = brasa.zeros(2)
    dist.reduce_scatter(out, [brasa.full((2,), float(rank + i)) for i in range(world)])
    check(out.tolist() == [float(1 + 2 * rank)] * 2, f"reduce_scatter {out.tolist()}")
    w = dist.all_reduce(brasa.ones(4), async_op=True)
    check(w.wait(), "async work")
    dist.barrier()
    objs = [None] * world
    dist.all_gather_object(objs, {"rank": rank})
    check(objs == [{"rank": 0}, {"rank": 1}], "all_gather_object")
    check(dist.get_backend() == "gloo", dist.get_backend())
    gil_released_in_collectives(rank)


def gil_released_in_collectives(rank):
    """Rank 1 joins a barrier 0.5 s late; meanwhile rank 0 waits in it and a Python thread of rank
    0 must keep running (the barrier released the GIL)."""
    import threading
    import time
    ticks, stop = [0], threading.Event()

    def tick():
        while not stop.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    if rank == 1:
        time.sleep(0.5)
        dist.barrier()
        return
    thread = threading.Thread(target=tick)
    thread.start()
    time.sleep(0.05)
    before = ticks[0]
    dist.barrier()
    stop.set()
    thread.join()
    check(ticks[0] - before > 20, f"only {ticks[0] - before} ticks while in the barrier")


def make_model():
    brasa.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 3))


def data():
    rs = np.random.RandomState(42)
    return (brasa.from_numpy(rs.randn(16, 6).astype("float32")),
            brasa.from_numpy(rs.randint(0, 3, 16)))


def train(model, x, y, steps, ddp=None):
    net = ddp if ddp is not None else model
    opt = brasa.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.cross_entropy(net(x), y).backward()
        opt.step()
    return [p.detach().clone() for p in model.parameters()]


def main():
    dist.init_process_group("gloo", init_method="env://")
    rank, world = dist.get_rank(), dist.get_world_size()
    check(world == 2, f"world size {world}")
    collectives(rank, world)
    x, y = data()
    reference = train(make_model(), x, y, steps=5)
    model = make_model()
    if rank == 1:  # different start: DDP must copy rank 0's parameters
        with brasa.no_grad():
            for p in model.parameters():
                p.add_(1.0)
    ddp = nn.parallel.DistributedDataParallel(model)
    half = slice(rank * 8, rank * 8 + 8)
    got = train(model, x[half], y[half], steps=5, ddp=ddp)
    for g, r in zip(got, reference):
        np.testing.assert_allclose(g.numpy(), r.numpy(), rtol=1e-5, atol=1e-6)
    # no_sync: local accumulation, then one synchronised step equals the full-batch gradient.
    model.zero_grad()
    with ddp.no_sync():
        nn.functional.cross_entropy(ddp(x[half][:4]), y[half][:4]).backward()
    nn.functional.cross_entropy(ddp(x[half][4:]), y[half][4:]).backward()
    ref = make_model()
    with brasa.no_grad():
        for p, q in zip(ref.parameters(), got):
            p.copy_(q)
    idx = list(range(0, 4)) + list(range(8, 12))
    rest = list(range(4, 8)) + list(range(12, 16))
    # each rank's grad is G(its first quarter) + G(its second quarter), averaged over ranks
    loss = nn.functional.cross_entropy(ref(x[idx]), y[idx]) + nn.functional.cross_entropy(
        ref(x[rest]), y[rest])
    loss.backward()
    for p, q in zip(model.parameters(), ref.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-5, atol=1e-6)
    dist.destroy_process_group()
    check(not dist.is_initialized(), "destroyed")
    print(f"rank {rank} ok", flush=True)


if __name__ == "__main__":
    try:
        main()
    except BaseException:
        import traceback
        traceback.print_exc()
        sys.stdout.flush()
        sys.exit(1)
