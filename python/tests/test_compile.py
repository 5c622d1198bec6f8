"""brasa.compile (python/brasa/compiler.py): torch.compile's API over brasa's compile step. Each
compiled result is compared with the same function run eagerly by brasa and by torch 1.13."""
import subprocess
import sys
import warnings

import numpy as np
import pytest

import brasa

torch = pytest.importorskip("torch")


@pytest.fixture(autouse=True)
def compile_cache(tmp_path_factory, monkeypatch):
    # One cache for the module: graphs compiled by one test are disk hits for the next.
    monkeypatch.setenv("BRASA_COMPILE_CACHE", str(tmp_path_factory.getbasetemp() / "cc"))
    brasa.compiler.reset_stats()


def rand(*shape, seed=0, requires_grad=False):
    a = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return brasa.tensor(a, requires_grad=requires_grad), torch.tensor(a, requires_grad=requires_grad)


def chain(x, y):
    for _ in range(5):
        x = x * 1.5 + y
    return brasa.tanh(x) if isinstance(x, brasa.Tensor) else torch.tanh(x)


def test_function_equals_eager_and_replays_without_python():
    calls = []

    def f(x, y):
        calls.append(1)
        return chain(x, y)

    cf = brasa.compile(f)
    (x, tx), (y, ty) = rand(8, 16), rand(16, seed=1)
    for _ in range(3):
        out = cf(x, y)
        np.testing.assert_array_equal(out.numpy(), chain(x, y).numpy())
        np.testing.assert_allclose(out.numpy(), chain(tx, ty).numpy(), rtol=1e-6, atol=1e-6)
    s = brasa.compiler.stats()
    assert len(calls) == 1, "later calls replay the graph without running the Python function"
    assert s["traces"] == 1 and s["compiled_calls"] == 2
    assert cf.__name__ == "f"


def test_new_sizes_reuse_the_compiled_kernels():
    cf = brasa.compile(lambda x: (x * 2 + 1).relu())
    for n in (32, 17, 8, 33):
        x, tx = rand(n, 4, seed=n)
        np.testing.assert_array_equal(cf(x).numpy(), (tx * 2 + 1).relu().numpy())
    s = brasa.compiler.stats()
    assert s["compiler_runs"] + s["disk_cache_hits"] <= 1
    assert s["traces"] <= 2  # the second size makes dim 0 symbolic (dynamic=None)


def test_gradients_equal_eager():
    def f(x, w):
        return (brasa.sigmoid(x * w) * x).sum() if isinstance(x, brasa.Tensor) else \
            (torch.sigmoid(x * w) * x).sum()

    cf = brasa.compile(f)
    for seed in (0, 1):
        (x, tx), (w, tw) = rand(6, 5, seed=seed, requires_grad=True), \
            rand(5, seed=seed + 7, requires_grad=True)
        cf(x, w).backward()
        f(tx, tw).backward()
        np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(w.grad.numpy(), tw.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_structures_and_non_tensor_arguments():
    @brasa.compile
    def f(xs, scale, mode="add"):
        a, b = xs
        r = a * scale + b if mode == "add" else a * scale - b
        return {"r": r, "pair": (r.sum(), None)}

    (a, ta), (b, tb) = rand(3, 4), rand(3, 4, seed=2)
    for scale, mode in ((2.0, "add"), (3.0, "add"), (2.0, "sub"), (2.0, "add")):
        out = f([a, b], scale, mode=mode)
        want = ta * scale + tb if mode == "add" else ta * scale - tb
        np.testing.assert_allclose(out["r"].numpy(), want.numpy(), rtol=1e-6)
        np.testing.assert_allclose(out["pair"][0].item(), want.sum().item(), rtol=1e-5, atol=1e-5)
        assert out["pair"][1] is None
    assert brasa.compiler.stats()["traces"] == 3  # one per (scale, mode) value


def test_graph_break_and_fullgraph():
    def f(x):
        y = x * 2
        if y.sum().item() > 0:  # needs data: a graph break
            return y + 1
        return y - 1

    x, tx = rand(4, 4)
    cf = brasa.compile(f)
    want = f(tx).numpy()
    for _ in range(2):
        np.testing.assert_allclose(cf(x).numpy(), want, rtol=1e-6)
    assert brasa.compiler.stats()["graph_breaks"] >= 1
    with pytest.raises(RuntimeError, match="item"):
        brasa.compile(f, fullgraph=True)(x)


def test_non_tensor_results_run_eagerly():
    cf = brasa.compile(lambda x: (x + 1, x.shape[0]))
    for n in (3, 5, 7):
        x, _ = rand(n, 2, seed=n)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y, size = cf(x)
        assert size == n
        np.testing.assert_array_equal(y.numpy(), (x + 1).numpy())


def test_exceptions_keep_their_type():
    class Custom(Exception):
        pass

    def f(x):
        raise Custom("from the function")

    with pytest.raises(Custom, match="from the function"):
        brasa.compile(f)(rand(2)[0])
    with pytest.raises(RuntimeError):  # a brasa error inside the trace: torch's type
        brasa.compile(lambda x, y: x + y)(rand(2)[0], rand(3)[0])


def test_module_training_tracks_parameter_updates():
    brasa.manual_seed(0)
    model = brasa.nn.Sequential(brasa.nn.Linear(8, 16), brasa.nn.ReLU(), brasa.nn.Linear(16, 4))
    compiled = brasa.compile(model)
    assert isinstance(compiled, brasa.compiler.OptimizedModule)
    assert compiled._orig_mod is model
    assert set(compiled.state_dict()) == {"_orig_mod." + k for k in model.state_dict()}
    opt = brasa.optim.SGD(compiled.parameters(), lr=0.1)
    (x, _), (t, _) = rand(32, 8), rand(32, 4, seed=3)
    for _ in range(4):
        opt.zero_grad()
        loss = brasa.nn.functional.mse_loss(compiled(x), t)
        want = brasa.nn.functional.mse_loss(model(x), t)  # eager, same parameters
        np.testing.assert_allclose(loss.item(), want.item(), rtol=1e-5)
        loss.backward()
        opt.step()
    compiled.eval()
    assert not model.training
    with brasa.no_grad():
        np.testing.assert_allclose(compiled(x).numpy(), model(x).numpy(), rtol=1e-5, atol=1e-6)


def test_options_and_errors():
    with pytest.raises(ValueError, match="backend"):
        brasa.compile(lambda x: x, backend="nope")
    with pytest.raises(ValueError, match="mode"):
        brasa.compile(lambda x: x, mode="fastest")
    with pytest.raises(ValueError, match="option"):
        brasa.compile(lambda x: x, options={"unroll": 4})
    with pytest.raises(TypeError):
        brasa.compile(3)
    x, tx = rand(5)
    for backend in brasa.compiler.list_backends():
        np.testing.assert_allclose(brasa.compile(lambda v: v.exp() * 2, backend=backend)(x).numpy(),
                                   (tx.exp() * 2).numpy(), rtol=1e-6)
    assert brasa.compile(chain, disable=True) is chain


def test_disabled_by_environment_and_lazy_import():
    code = ("import sys, brasa\n"
            "assert 'brasa._compiled' not in sys.modules\n"
            "f = brasa.compile(lambda x: x * 2)\n"
            "print(f(brasa.ones(3)).tolist(), brasa.compiler.stats()['traces'])\n")
    out = subprocess.run([sys.executable, "-c", code], env={**__import__("os").environ,
                         "BRASA_COMPILE": "0"}, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[2.0,", "2.0,", "2.0]", "0"]
