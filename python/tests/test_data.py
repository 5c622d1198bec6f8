"""brasa.utils.data: datasets, samplers, default collation and DataLoader (torch's batching
rules, checked against torch.utils.data where the result is deterministic)."""
import collections
import copy
import threading

import numpy as np
import pytest
import torch

import brasa
from brasa.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, IterableDataset,
                              SequentialSampler, Subset, TensorDataset, default_collate,
                              random_split)


def test_tensor_dataset_and_sequential_loader_match_torch():
    x = np.arange(20, dtype=np.float32).reshape(10, 2)
    y = np.arange(10)
    db = TensorDataset(brasa.from_numpy(x), brasa.from_numpy(y))
    dt = torch.utils.data.TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
    assert len(db) == 10 and db[3][1].item() == 3
    for drop_last in (False, True):
        lb = DataLoader(db, batch_size=4, drop_last=drop_last)
        lt = torch.utils.data.DataLoader(dt, batch_size=4, drop_last=drop_last)
        assert len(lb) == len(lt)
        got = [(a.tolist(), b.tolist()) for a, b in lb]
        want = [(a.tolist(), b.tolist()) for a, b in lt]
        assert got == want
    with pytest.raises(ValueError, match="Size mismatch"):
        TensorDataset(brasa.ones(3), brasa.ones(4))


def test_shuffle_is_a_permutation_and_follows_the_seed():
    ds = TensorDataset(brasa.arange(50))
    brasa.manual_seed(3)
    first = [i for (b,) in DataLoader(ds, batch_size=8, shuffle=True) for i in b.tolist()]
    brasa.manual_seed(3)
    again = [i for (b,) in DataLoader(ds, batch_size=8, shuffle=True) for i in b.tolist()]
    assert sorted(first) == list(range(50)) and first == again and first != list(range(50))


class Pairs(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": np.full(2, i, dtype=np.float32), "n": i, "f": i / 2, "s": f"s{i}",
                "t": (brasa.tensor([i]), [i, -i])}


def test_default_collation_matches_torch():
    samples = [Pairs()[i] for i in range(3)]
    b = default_collate(samples)
    t = torch.utils.data.default_collate(samples_t := [
        {**s, "t": (torch.tensor([s["n"]]), s["t"][1])} for s in samples])
    assert b["x"].tolist() == t["x"].tolist() and b["x"].dtype == brasa.float32
    assert b["n"].tolist() == t["n"].tolist() and b["n"].dtype == brasa.int64
    assert b["f"].dtype == brasa.float64 and b["s"] == t["s"]
    assert b["t"][0].tolist() == t["t"][0].tolist()
    assert [c.tolist() for c in b["t"][1]] == [c.tolist() for c in t["t"][1]]
    assert len(samples_t) == 3
    Point = collections.namedtuple("Point", "a b")
    p = default_collate([Point(1, 2.0), Point(3, 4.0)])
    assert type(p) is Point and p.a.tolist() == [1, 3]


def test_batch_size_none_and_custom_collate_and_batch_sampler():
    ds = TensorDataset(brasa.arange(6))
    assert [x[0].item() for x in DataLoader(ds, batch_size=None)] == list(range(6))
    got = list(DataLoader(ds, batch_size=4, collate_fn=lambda s: len(s)))
    assert got == [4, 2]
    bs = BatchSampler(SequentialSampler(ds), 3, drop_last=False)
    assert [b[0].tolist() for b in DataLoader(ds, batch_sampler=bs)] == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(ValueError):
        DataLoader(ds, batch_sampler=bs, batch_size=2)


def test_threaded_workers_keep_order():
    ds = TensorDataset(brasa.arange(100).float())
    seen = set()

    class Spy(Dataset):
        def __len__(self):
            return len(ds)

        def __getitem__(self, i):
            seen.add(threading.get_ident())
            return ds[i]
    inits = []
    batches = [b.tolist() for (b,) in DataLoader(Spy(), batch_size=10, num_workers=3,
                                                 worker_init_fn=inits.append)]
    assert batches == [list(map(float, range(i, i + 10))) for i in range(0, 100, 10)]
    assert threading.get_ident() not in seen
    assert sorted(inits) == list(range(len(inits))) and 1 <= len(inits) <= 3
    from brasa.utils.data import get_worker_info
    assert get_worker_info() is None

    class Who(Dataset):
        def __len__(self):
            return 6

        def __getitem__(self, i):
            info = get_worker_info()
            return info.id * 0 + info.num_workers
    assert [b.tolist() for b in DataLoader(Who(), batch_size=3, num_workers=2)] == [[2] * 3] * 2


def test_iterable_dataset_subset_concat_split():
    class Count(IterableDataset):
        def __iter__(self):
            return iter(range(7))
    assert [b.tolist() for b in DataLoader(Count(), batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6]]
    ds = TensorDataset(brasa.arange(10))
    sub = Subset(ds, [1, 3])
    assert len(sub) == 2 and sub[1][0].item() == 3
    cat = ConcatDataset([sub, ds])
    assert len(cat) == 12 and cat[2][0].item() == 0 and cat[-1][0].item() == 9
    a, b = random_split(ds, [7, 3])
    assert sorted(a.indices + b.indices) == list(range(10))
    a, b = random_split(ds, [0.5, 0.5])
    assert len(a) == len(b) == 5


def test_tensors_deepcopy_and_pickle():
    import pickle
    t = brasa.arange(4.0).requires_grad_()
    c = copy.deepcopy(t)
    assert c.tolist() == t.tolist() and c.requires_grad and not c._is_same(t)
    assert pickle.loads(pickle.dumps(t)).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_randint_split_chunk_match_torch():
    brasa.manual_seed(4)
    torch.manual_seed(4)
    assert brasa.randint(3, 9, (5, 2)).tolist() == torch.randint(3, 9, (5, 2)).tolist()
    assert brasa.randint(7, size=(4,)).tolist() == torch.randint(7, size=(4,)).tolist()
    assert brasa.randint(0, 5, (3,)).dtype == brasa.int64
    x, t = brasa.arange(10).view(5, 2), torch.arange(10).view(5, 2)
    for args in ((2,), (3,), ([1, 4],), (1, 1)):
        assert [p.tolist() for p in x.split(*args)] == [p.tolist() for p in t.split(*args)]
    for n in (1, 2, 3, 5, 7):
        assert [p.tolist() for p in brasa.chunk(x, n)] == [p.tolist() for p in torch.chunk(t, n)]


def test_generators_follow_torch():
    gb, gt = brasa.Generator().manual_seed(9), torch.Generator().manual_seed(9)
    assert gb.initial_seed() == gt.initial_seed() == 9
    assert brasa.randperm(10, generator=gb).tolist() == torch.randperm(10, generator=gt).tolist()
    state = brasa.get_rng_state()
    a = brasa.rand(3).tolist()
    brasa.set_rng_state(state)
    assert brasa.rand(3).tolist() == a
    torch.set_rng_state(torch.from_numpy(state.numpy()))
    assert torch.rand(3).tolist() == pytest.approx(a)
    brasa.manual_seed(5)
    assert brasa.initial_seed() == 5
    ds = TensorDataset(brasa.arange(20))
    order = lambda seed: [i for (b,) in DataLoader(  # noqa: E731
        ds, batch_size=5, shuffle=True, generator=brasa.Generator().manual_seed(seed))
        for i in b.tolist()]
    assert order(1) == order(1) and order(1) != order(2)
    a, _ = random_split(ds, [10, 10], generator=brasa.Generator().manual_seed(3))
    b, _ = random_split(ds, [10, 10], generator=brasa.Generator().manual_seed(3))
    assert a.indices == b.indices
