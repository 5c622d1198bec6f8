"""Lifetime and threads: a tensor shared between Python, C++ and NumPy is freed once, when its last
owner lets go; kernels run with the GIL released, so Python threads compute side by side."""
import gc
import sys
import threading
import time

import numpy as np

import brasa


def test_numpy_array_freed_after_last_tensor_view():
    a = np.ones(1000, dtype=np.float32)
    refs = sys.getrefcount(a)
    t = brasa.from_numpy(a)
    v = t[10:20]
    assert sys.getrefcount(a) == refs + 1  # the tensor's deleter holds one reference
    del t
    gc.collect()
    assert sys.getrefcount(a) == refs + 1  # the view still owns the memory
    v.add_(1)
    assert a[10] == 2.0
    del v
    gc.collect()
    assert sys.getrefcount(a) == refs


def test_tensor_outlives_numpy_view_of_it():
    t = brasa.arange(4.0)
    a = t.numpy()
    count = t._use_count()
    del t
    gc.collect()
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]  # the array's base keeps the tensor alive
    assert count >= 1


def test_training_loop_memory_is_flat():
    w = brasa.randn(64, 64, requires_grad=True)
    x = brasa.randn(32, 64)

    def step():
        loss = (x @ w).tanh().sum()
        loss.backward()
        with brasa.no_grad():
            w.sub_(w.grad * 0.01)
        w.grad = None

    for _ in range(20):
        step()
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(200):
        step()
    gc.collect()
    assert len(gc.get_objects()) <= before + 5


def test_kernels_release_the_gil():
    x = brasa.randn(2000, 2000)
    done = []

    def work():
        for _ in range(3):
            (x @ x).sum()
        done.append(1)

    ticks = []
    worker = threading.Thread(target=work)
    worker.start()
    while worker.is_alive():  # the main thread keeps running Python while the worker computes
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    assert done == [1]
    assert len(ticks) > 5
