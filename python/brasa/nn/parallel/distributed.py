"""brasa.nn.parallel.DistributedDataParallel: torch's DDP over brasa's C++ Reducer
(brasa/distributed/ddp.h). Construction checks that every rank holds the same parameters and
copies rank 0's parameters and buffers to all; during backward each gradient enters a bucket as
soon as it is accumulated and full buckets are all-reduced asynchronously (in C++, no Python
involved), so the averaged gradients are in `.grad` when backward returns."""
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
        reducer.prepare_for_forward()
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
