"""DataLoader: batches of a map-style or iterable dataset, optionally shuffled, collated by
default_collate. num_workers > 0 loads batches on that many Python threads, in order (brasa's
kernels release the GIL, so collation and tensor work overlap with training)."""
import concurrent.futures
import itertools
import threading

from .collate import default_collate, default_convert
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

_worker = threading.local()


class WorkerInfo:
    """What get_worker_info() returns inside a loader thread: id, num_workers, seed, dataset."""

    def __init__(self, id, num_workers, seed, dataset):
        self.id, self.num_workers, self.seed, self.dataset = id, num_workers, seed, dataset

    def __repr__(self):
        return (f"WorkerInfo(id={self.id}, num_workers={self.num_workers}, seed={self.seed}, "
                f"dataset={self.dataset!r})")


def get_worker_info():
    """The calling loader thread's WorkerInfo; None in the main thread."""
    return getattr(_worker, "info", None)


class DataLoader:
    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=2, persistent_workers=False, pin_memory_device=""):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        self.dataset, self.num_workers, self.drop_last = dataset, num_workers, drop_last
        self.prefetch_factor, self.worker_init_fn = prefetch_factor, worker_init_fn
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in (None, False):
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle}")
            if sampler is not None or batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler")
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None and not self._iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle \
                else SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size, self.sampler, self.batch_sampler = batch_size, sampler, batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if (batch_size is not None or batch_sampler is not None) \
                else default_convert
        self.collate_fn = collate_fn

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    def _index_batches(self):
        if self._iterable:
            it = iter(self.dataset)
            if self.batch_size is None:
                yield from ([x] for x in it)
                return
            while True:
                batch = list(itertools.islice(it, self.batch_size))
                if not batch or (self.drop_last and len(batch) < self.batch_size):
                    return
                yield batch
        elif self._auto_collation:
            yield from self.batch_sampler
        else:
            yield from ([i] for i in self.sampler)

    def _fetch(self, indices):
        if self._iterable:
            samples = indices
        else:
            samples = [self.dataset[i] for i in indices]
        if self._auto_collation or (self._iterable and self.batch_size is not None):
            return self.collate_fn(samples)
        return self.collate_fn(samples[0])

    def __iter__(self):
        if self.num_workers == 0 or self._iterable:
            for indices in self._index_batches():
                yield self._fetch(indices)
            return
        ids, lock = itertools.count(), threading.Lock()
        from ... import randint
        base_seed = int(randint(0, 2 ** 62, (1,), generator=self.generator).item())

        def start_worker():
            with lock:
                wid = next(ids)
            _worker.info = WorkerInfo(wid, self.num_workers, base_seed + wid, self.dataset)
            if self.worker_init_fn is not None:
                self.worker_init_fn(wid)
        with concurrent.futures.ThreadPoolExecutor(self.num_workers,
                                                   initializer=start_worker) as pool:
            pending = []
            batches = self._index_batches()
            for indices in itertools.islice(batches, self.num_workers * self.prefetch_factor):
                pending.append(pool.submit(self._fetch, indices))
            while pending:
                result = pending.pop(0).result()
                nxt = next(batches, None)
                if nxt is not None:
                    pending.append(pool.submit(self._fetch, nxt))
                yield result

    def __len__(self):
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        if self._auto_collation:
            return len(self.batch_sampler)
        return len(self.sampler)
