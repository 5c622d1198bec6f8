"""brasa.nn.parallel.DistributedDataParallel: torch's DDP over brasa's C++ Reducer
(brasa/distributed/ddp.h). Construction checks that every rank holds the same parameters and
copies rank 0's parameters and buffers to all; during backward each gradient enters a bucket as
soon as it is accumulated and full buckets are all-reduced asynchronously (in C++, no Python
involved), so the averaged gradients are in `.grad` when backward returns.

`join()` trains on uneven inputs (ranks that run out of batches shadow the others' collectives),
and `register_comm_hook(state, hook)` replaces the all-reduce of each bucket by a Python hook
(brasa.distributed.algorithms.ddp_comm_hooks has torch's allreduce / fp16 / bf16 ones)."""
import contextlib

from ... import _C
from ..modules.module import Module


def _tensors_in(out):
    if isinstance(out, _C.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        return [t for o in out for t in _tensors_in(o)]
    if isinstance(out, dict):
        return [t for o in out.values() for t in _tensors_in(o)]
    return []


class DistributedDataParallel(Module):
    """Wraps `module` for data-parallel training over `process_group` (default: the default
    group). device_ids/output_device/dim are accepted for torch compatibility (CPU only).
    gradient_as_bucket_view, static_graph are accepted and ignored (brasa copies gradients into
    its buckets)."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=True,
                 process_group=None, bucket_cap_mb=25, find_unused_parameters=False,
                 check_reduction=False, gradient_as_bucket_view=False, static_graph=False):
        super().__init__()
        from ... import distributed as dist
        if not dist.is_initialized() and process_group is None:
            raise RuntimeError("DistributedDataParallel: call brasa.distributed.init_process_group "
                               "first")
        self.module = module
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.dim = dim
        group = process_group if process_group is not None else dist._D.default_group()
        object.__setattr__(self, "process_group", group)
        named = [(n, p) for n, p in module.named_parameters() if p.requires_grad]
        if not named:
            raise RuntimeError("DistributedDataParallel is not needed when a module has no "
                               "parameter that requires a gradient")
        self._sync_module_state(group)
        reducer = dist._D.Reducer([p for _, p in named], [n for n, _ in named], group,
                                  1.0, float(bucket_cap_mb), bool(find_unused_parameters), "")
        object.__setattr__(self, "reducer", reducer)
        object.__setattr__(self, "_comm_hook_name", "")
        object.__setattr__(self, "_hook_params", [p for _, p in named])
        object.__setattr__(self, "_comm_hook", None)  # (state, hook)
        object.__setattr__(self, "_next_bucket", 0)
        object.__setattr__(self, "_buckets", [])
        object.__setattr__(self, "_join", None)  # (divide_by_initial_world_size, throw)

    def _sync_module_state(self, group):
        """Checks names, shapes and dtypes against rank 0's, then broadcasts rank 0's parameters
        and buffers."""
        from ... import distributed as dist
        state = [(n, t) for n, t in self.module.state_dict(keep_vars=True).items()]
        signature = [(n, tuple(t.shape), str(t.dtype)) for n, t in state]
        theirs = [None] * group.size()
        dist.all_gather_object(theirs, signature, group=group)
        for r, sig in enumerate(theirs):
            if sig != signature:
                first = next((a, b) for a, b in zip(signature + [None] * len(sig),
                                                    sig + [None] * len(signature)) if a != b)
                raise ValueError(f"DistributedDataParallel: rank {group.rank()} and rank {r} hold "
                                 f"different parameters: {first[0]} vs {first[1]}")
        self._broadcast([t for _, t in state], group)

    def _broadcast(self, tensors, group):
        from ... import distributed as dist, no_grad
        with no_grad():
            for t in tensors:
                if t.is_contiguous():
                    dist.broadcast(t.detach(), 0, group=group)
                else:
                    c = t.detach().contiguous()
                    dist.broadcast(c, 0, group=group)
                    t.detach().copy_(c)

    def forward(self, *inputs, **kwargs):
        from ... import is_grad_enabled
        reducer = self.reducer
        if self._join is not None and reducer.sync():
            if not is_grad_enabled():  # the ranks that joined mirror training iterations only
                return self.module(*inputs, **kwargs)
            self._count_active(True)
        reducer.prepare_for_forward()
        object.__setattr__(self, "_next_bucket", 0)
        if self.broadcast_buffers and reducer.sync():
            buffers = [b for _, b in self.module.named_buffers()]
            if buffers:
                self._broadcast(buffers, self.process_group)
        out = self.module(*inputs, **kwargs)
        if reducer.sync() and is_grad_enabled():
            reducer.prepare_for_backward(_tensors_in(out))
        return out

    @contextlib.contextmanager
    def no_sync(self):
        """Backward passes inside only accumulate gradients locally; the next synchronised
        backward all-reduces the accumulated gradients."""
        self.reducer.set_sync(False)
        try:
            yield
        finally:
            self.reducer.set_sync(True)

    # Uneven inputs (torch's Join) ----------------------------------------------------------

    def join(self, divide_by_initial_world_size=True, enable=True,
             throw_on_early_termination=False):
        """A context manager for training loops whose ranks have different numbers of batches:

            with ddp.join():
                for x, y in this_ranks_batches:
                    loss_fn(ddp(x), y).backward(); opt.step(); opt.zero_grad()

        Inside it, each synchronised training forward first all-reduces how many ranks still
        train; a rank that leaves the block takes part in the others' iterations (bucket
        rebuild, buffer broadcast, an all-reduce of zeros per bucket) until every rank has left,
        so none hangs in a collective. While some ranks have left, gradients are averaged over
        the initial world size (their zeros included) or, with divide_by_initial_world_size=False,
        over the ranks still training. throw_on_early_termination=True instead raises
        RuntimeError on every rank as soon as one runs out of inputs. Forwards without gradient
        (evaluation) inside the block are local: no rank mirrors them. Every rank must enter."""
        if not enable:
            return contextlib.nullcontext()
        return self._joined(bool(divide_by_initial_world_size), bool(throw_on_early_termination))

    @contextlib.contextmanager
    def _joined(self, divide_by_initial_world_size, throw):
        if self._join is not None:
            raise RuntimeError("DistributedDataParallel.join: already inside join()")
        object.__setattr__(self, "_join", (divide_by_initial_world_size, throw))
        try:
            yield self
        except BaseException:
            object.__setattr__(self, "_join", None)
            raise
        try:
            self._shadow_until_all_joined(throw)
        finally:
            object.__setattr__(self, "_join", None)

    def _count_active(self, active):
        divide_by_initial, throw = self._join
        n = self.reducer.count_active_ranks(active, not divide_by_initial)
        if throw and n < self.process_group.size():
            raise RuntimeError(
                f"DistributedDataParallel.join: {self.process_group.size() - n} rank(s) "
                "exhausted their inputs (throw_on_early_termination=True): stopping every rank")
        return n

    def _shadow_until_all_joined(self, throw):
        reducer = self.reducer
        while self._count_active(False) > 0:  # one iteration of the ranks still training
            reducer.shadow_forward()
            if self.broadcast_buffers:
                buffers = [b for _, b in self.module.named_buffers()]
                if buffers:
                    self._broadcast(buffers, self.process_group)
            object.__setattr__(self, "_next_bucket", 0)
            reducer.shadow_backward()

    # Communication hooks ------------------------------------------------------------------

    def register_comm_hook(self, state, hook):
        """Communicates each gradient bucket with `hook(state, bucket)` instead of the built-in
        all-reduce: `bucket` is a brasa.distributed.GradBucket whose buffer() holds this rank's
        gradients, not yet averaged; the hook returns a brasa.futures.Future that completes with
        the bucket's reduced tensor (e.g. `dist.all_reduce(buf.div_(world), async_op=True)
        .get_future().then(lambda f: f.value()[0])`). The Reducer waits on it when the last
        bucket has been launched and writes the result into the parameters' .grad. Once only,
        before training."""
        if not callable(hook):
            raise TypeError(f"register_comm_hook: hook must be callable, got "
                            f"{type(hook).__name__}")
        self.reducer.register_comm_hook(self._run_comm_hook)
        object.__setattr__(self, "_comm_hook", (state, hook))

    def _register_builtin_comm_hook(self, comm_hook_type):
        raise NotImplementedError("DistributedDataParallel: use register_comm_hook with "
                                  "brasa.distributed.algorithms.ddp_comm_hooks.default_hooks")

    def _run_comm_hook(self, buffer):
        from ...distributed import GradBucket
        index = self._next_bucket
        if index == 0:
            object.__setattr__(self, "_buckets", self.reducer.bucket_indices())
        object.__setattr__(self, "_next_bucket", index + 1)
        members = self._buckets[index]
        bucket = GradBucket(index, len(self._buckets), buffer,
                            [self._hook_params[i] for i in members])
        state, hook = self._comm_hook
        return hook(state, bucket)
