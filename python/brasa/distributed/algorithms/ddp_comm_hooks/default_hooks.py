"""torch.distributed.algorithms.ddp_comm_hooks.default_hooks' hooks for
DistributedDataParallel.register_comm_hook(state, hook), with `state` the process group to
reduce over (None: the default group):

    ddp.register_comm_hook(None, default_hooks.fp16_compress_hook)

allreduce_hook averages each bucket with one all-reduce (what DDP does without a hook);
fp16_compress_hook and bf16_compress_hook send the bucket as float16 / bfloat16 (half the
bytes) and write the averaged values back into the bucket's dtype."""
from ... import all_reduce, get_world_size

__all__ = ["allreduce_hook", "fp16_compress_hook", "bf16_compress_hook"]


def allreduce_hook(process_group, bucket):
    """Divides the bucket by the group's size and sums it over the group, in place."""
    buffer = bucket.buffer().div_(get_world_size(process_group))
    work = all_reduce(buffer, group=process_group, async_op=True)
    return work.get_future().then(lambda fut: fut.value()[0])


def _compressed(process_group, bucket, dtype):
    buffer = bucket.buffer()
    sent = buffer.to(dtype).div_(get_world_size(process_group))
    work = all_reduce(sent, group=process_group, async_op=True)

    def decompress(fut):
        buffer.copy_(fut.value()[0])
        return buffer

    return work.get_future().then(decompress)


def fp16_compress_hook(process_group, bucket):
    """allreduce_hook over a float16 copy of the bucket."""
    from .... import float16
    return _compressed(process_group, bucket, float16)


def bf16_compress_hook(process_group, bucket):
    """allreduce_hook over a bfloat16 copy of the bucket."""
    from .... import bfloat16
    return _compressed(process_group, bucket, bfloat16)
