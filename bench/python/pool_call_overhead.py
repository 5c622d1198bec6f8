"""Per-call cost of small pooling and upsampling calls from Python (one thread, timeit best of 5):
the wrappers' own cost, which -O2 against -Os of src/ops/pool changes (docs/benchmarks.md)."""
import timeit, brasa
import brasa.nn.functional as F
brasa.set_num_threads(1)
x = brasa.randn(1, 2, 4, 4, requires_grad=True)
big = brasa.randn(64, 32, 28, 28)
def fwdbwd():
    F.max_pool2d(x, 2).sum().backward()
r = {}
r["max_pool2d 1x2x4x4 fwd"] = min(timeit.repeat(lambda: F.max_pool2d(x.detach(), 2), number=2000, repeat=5)) / 2000 * 1e6
r["avg_pool2d 1x2x4x4 fwd"] = min(timeit.repeat(lambda: F.avg_pool2d(x.detach(), 2), number=2000, repeat=5)) / 2000 * 1e6
r["adaptive_avg 1x2x4x4"] = min(timeit.repeat(lambda: F.adaptive_avg_pool2d(x.detach(), 1), number=2000, repeat=5)) / 2000 * 1e6
r["upsample nearest 1x2x4x4"] = min(timeit.repeat(lambda: F.interpolate(x.detach(), scale_factor=2), number=2000, repeat=5)) / 2000 * 1e6
r["max_pool2d fwd+bwd small"] = min(timeit.repeat(fwdbwd, number=1000, repeat=5)) / 1000 * 1e6
r["max_pool2d 64x32x28x28"] = min(timeit.repeat(lambda: F.max_pool2d(big, 2), number=20, repeat=5)) / 20 * 1e6
print(" | ".join(f"{k}: {v:.2f}" for k, v in r.items()))
