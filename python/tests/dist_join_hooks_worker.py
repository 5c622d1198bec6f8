"""One rank of test_distributed.py's join / comm-hook case (2 ranks, env://): DDP.join() with
uneven inputs compared with the same SGD steps computed in one process, throw_on_early_termination,
and register_comm_hook with torch's default hooks, a local hook with state and a failing hook.
Exits non-zero on any mismatch."""
import sys

import numpy as np

import brasa
import brasa.distributed as dist
import brasa.nn as nn
from brasa.distributed.algorithms.ddp_comm_hooks import default_hooks
from brasa.futures import Future

LR = 0.1


def check(cond, what):
    if not cond:
        raise AssertionError(f"rank {dist.get_rank()}: {what}")


def bn_model():  # BatchNorm: buffers broadcast every iteration, also while a rank has joined
    brasa.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2))


def wide_model():  # > 1 MiB of parameters at the end: two buckets
    brasa.manual_seed(1)
    return nn.Sequential(nn.Linear(8, 600), nn.ReLU(), nn.Linear(600, 600))


DIMS = {bn_model: (4, 2), wide_model: (8, 600)}


def batch(make, rank, k):
    rs = np.random.RandomState(100 * rank + k)
    n_in, n_out = DIMS[make]
    return (brasa.from_numpy(rs.randn(5, n_in).astype("float32")),
            brasa.from_numpy(rs.randn(5, n_out).astype("float32")))


def loss_of(net, xy):
    x, y = xy
    return nn.functional.mse_loss(net(x), y)


def local_grads(make, params, xy):
    """The gradients of one rank's loss at `params`, in one process."""
    m = make()
    with brasa.no_grad():
        for p, q in zip(m.parameters(), params):
            p.copy_(q)
    loss_of(m, xy).backward()
    return [p.grad.clone() for p in m.parameters()]


def sgd_reference(make, counts, divide_by_initial):
    """Parameters after DDP's SGD steps when rank r has counts[r] batches: iteration i averages
    the gradients of the ranks that still have a batch over the world or over those ranks."""
    params = [p.detach().clone() for p in make().parameters()]
    for i in range(max(counts)):
        active = [r for r in range(len(counts)) if i < counts[r]]
        divisor = len(counts) if divide_by_initial else len(active)
        grads = [local_grads(make, params, batch(make, r, i)) for r in active]
        for j, p in enumerate(params):
            p.sub_(sum(g[j] for g in grads) / divisor * LR)
    return params


def train_joined(make, counts, **join_kw):
    rank = dist.get_rank()
    model = make()
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = brasa.optim.SGD(model.parameters(), lr=LR)
    with ddp.join(**join_kw):
        for i in range(counts[rank]):
            opt.zero_grad()
            loss_of(ddp, batch(make, rank, i)).backward()
            opt.step()
    return [p.detach() for p in model.parameters()]


def close(a, b, what, rtol=1e-5, atol=1e-6):
    for i, (x, y) in enumerate(zip(a, b)):
        np.testing.assert_allclose(x.numpy(), y.numpy(), rtol=rtol, atol=atol,
                                   err_msg=f"rank {dist.get_rank()}: {what}, parameter {i}")


def join_cases(rank):
    # rank 1 leaves after one iteration: the bucket rebuild of iteration 2 and the buffer
    # broadcasts happen while it shadows.
    for counts, divide in (((3, 1), True), ((2, 4), False)):
        got = train_joined(bn_model, counts, divide_by_initial_world_size=divide)
        # a rank that left stops updating: it holds the parameters after its own last step
        mine = sgd_reference(bn_model, [min(c, counts[rank]) for c in counts], divide)
        if counts[rank] == max(counts):
            mine = sgd_reference(bn_model, list(counts), divide)
        close(got, mine, f"join counts={counts} divide_by_initial={divide}")
    # throw_on_early_termination: every rank raises once rank 0 runs out
    try:
        train_joined(bn_model, (1, 3), throw_on_early_termination=True)
    except RuntimeError as e:
        check("exhausted" in str(e), f"unexpected error {e}")
    else:
        check(False, "throw_on_early_termination did not raise")
    # enable=False: a plain loop
    got = train_joined(bn_model, (2, 2), enable=False)
    close(got, sgd_reference(bn_model, [2, 2], True), "join(enable=False)")


def hooked_step(make, state, hook, steps=1, **ddp_kw):
    rank = dist.get_rank()
    model = make()
    ddp = nn.parallel.DistributedDataParallel(model, **ddp_kw)
    ddp.register_comm_hook(state, hook)
    opt = brasa.optim.SGD(model.parameters(), lr=LR)
    for i in range(steps):
        opt.zero_grad()
        loss_of(ddp, batch(make, rank, i)).backward()
        if i + 1 < steps:
            opt.step()
    return ddp, model


def hook_cases(rank):
    # allreduce_hook: the same training as without a hook
    _, model = hooked_step(wide_model, None, default_hooks.allreduce_hook, steps=3)
    brasa.optim.SGD(model.parameters(), lr=LR).step()
    close([p.detach() for p in model.parameters()], sgd_reference(wide_model, [3, 3], True),
          "allreduce_hook", rtol=1e-4, atol=1e-5)
    start = [p.detach().clone() for p in wide_model().parameters()]
    g = [local_grads(wide_model, start, batch(wide_model, r, 0)) for r in range(2)]
    for name, hook, dtype in (("fp16", default_hooks.fp16_compress_hook, brasa.float16),
                              ("bf16", default_hooks.bf16_compress_hook, brasa.bfloat16)):
        _, model = hooked_step(wide_model, None, hook)
        for i, p in enumerate(model.parameters()):
            want = (g[0][i].to(dtype) / 2 + g[1][i].to(dtype) / 2).float()
            got = p.grad
            check(np.array_equal(got.to(dtype).float().numpy(), got.numpy()),
                  f"{name}: gradient not in {dtype}")
            tol = 1e-2 if dtype == brasa.bfloat16 else 1e-3
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=tol, atol=tol * 1e-2,
                                       err_msg=f"rank {rank}: {name} hook, parameter {i}")

    # a local hook with state: no communication, so the gradients stay this rank's own
    def local(state, bucket):
        state["seen"].append((bucket.index(), bucket.is_last(), bucket.buffer().numel(),
                              [tuple(p.shape) for p in bucket.parameters()],
                              [tuple(t.shape) for t in bucket.gradients()]))
        fut = Future()
        fut.set_result(bucket.buffer())
        return fut

    state = {"seen": []}
    ddp, model = hooked_step(wide_model, state, local)
    mine = local_grads(wide_model, start, batch(wide_model, rank, 0))
    close([p.grad for p in model.parameters()], mine, "local hook")
    check([s[0] for s in state["seen"]] == [0, 1], f"bucket order {state['seen']}")
    check([s[1] for s in state["seen"]] == [False, True], "is_last")
    for _, _, numel, pshapes, gshapes in state["seen"]:
        check(pshapes == gshapes and numel == sum(int(np.prod(s)) for s in pshapes),
              "GradBucket parameters / gradients / buffer")
    try:
        ddp.register_comm_hook(None, default_hooks.allreduce_hook)
    except RuntimeError as e:
        check("once" in str(e), str(e))
    else:
        check(False, "a second register_comm_hook did not raise")

    # a failing hook: its error reaches backward's caller, with its type
    def failing(state, bucket):
        raise ValueError("hook failed on purpose")

    try:
        hooked_step(wide_model, None, failing)
    except ValueError as e:
        check("on purpose" in str(e), str(e))
    else:
        check(False, "the failing hook's error was lost")


def main():
    dist.init_process_group("gloo", init_method="env://")
    rank = dist.get_rank()
    check(dist.get_world_size() == 2, "world size")
    join_cases(rank)
    hook_cases(rank)
    dist.barrier()
    dist.destroy_process_group()
    print(f"rank {rank} ok", flush=True)


if __name__ == "__main__":
    try:
        main()
    except BaseException:
        import traceback
        traceback.print_exc()
        sys.stdout.flush()
        sys.exit(1)
