"""GradBucket: what a DDP communication hook receives (torch.distributed.GradBucket's API)."""

__all__ = ["GradBucket"]


class GradBucket:
    """One bucket of DistributedDataParallel's gradients: buffer() is the flat tensor holding
    this rank's gradients of parameters() (not yet averaged over the ranks); gradients() are
    views of it shaped like the parameters."""

    def __init__(self, index, num_buckets, buffer, parameters):
        self._index = index
        self._num_buckets = num_buckets
        self._buffer = buffer
        self._parameters = list(parameters)

    def index(self):
        """The bucket's position; buckets are communicated in index order."""
        return self._index

    def is_last(self):
        """Whether this is the last bucket of the iteration (the first parameters' one)."""
        return self._index == self._num_buckets - 1

    def buffer(self):
        return self._buffer

    def set_buffer(self, buffer):
        self._buffer = buffer

    def parameters(self):
        return list(self._parameters)

    def gradients(self):
        out, offset = [], 0
        for p in self._parameters:
            n = p.numel()
            out.append(self._buffer[offset:offset + n].view(p.shape))
            offset += n
        return out
