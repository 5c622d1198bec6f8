"""brasa.futures.Future (torch.futures.Future's API) on its own and against torch's."""
import pytest
import torch

import brasa
from brasa.futures import Future, collect_all, wait_all


@pytest.mark.parametrize("lib_future", [Future, torch.futures.Future])
def test_set_result_then_chains_and_callbacks(lib_future):
    fut = lib_future()
    seen = []
    fut.add_done_callback(lambda f: seen.append(f.value()))
    chained = fut.then(lambda f: f.value() * 2).then(lambda f: f.value() + 1)
    assert not fut.done() and not chained.done()
    fut.set_result(20)
    assert fut.done() and fut.wait() == 20 and seen == [20]
    assert chained.wait() == 41 and chained.value() == 41
    late = fut.then(lambda f: f.value() - 1)  # on a completed future: runs at once
    assert late.done() and late.wait() == 19
    with pytest.raises(RuntimeError):
        fut.set_result(1)


@pytest.mark.parametrize("lib_future", [Future, torch.futures.Future])
def test_errors_travel_down_the_chain(lib_future):
    # torch re-raises an error from inside a callback as a RuntimeError holding its message and
    # traceback; brasa keeps the exception itself
    chained_error = (ValueError, ZeroDivisionError) if lib_future is Future else (RuntimeError,) * 2
    fut = lib_future()
    chained = fut.then(lambda f: f.value() + 1)
    fut.set_exception(ValueError("bad input"))
    with pytest.raises(ValueError, match="bad input"):
        fut.wait()
    with pytest.raises(chained_error[0], match="bad input"):
        chained.wait()
    boom = lib_future()
    failing = boom.then(lambda f: 1 / 0)
    boom.set_result(1)
    with pytest.raises(chained_error[1], match="division"):
        failing.wait()


def test_tensor_values_collect_all_and_wait_all():
    a, b = Future(), Future()
    both = collect_all([a, b])
    a.set_result(brasa.ones(2))
    assert not both.done()
    b.set_result(brasa.zeros(1))
    assert [f.wait().tolist() for f in both.wait()] == [[1.0, 1.0], [0.0]]
    assert [t.tolist() for t in wait_all([a, b])] == [[1.0, 1.0], [0.0]]
    with pytest.raises(TypeError):
        Future().set_exception("not an exception")
    with pytest.raises(RuntimeError, match="never completed"):
        Future().wait()
