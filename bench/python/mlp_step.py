"""The fashion_mnist MLP's training step (784-512-512-10, batch 64: zero_grad, forward,
cross_entropy, backward, AdamW step) from Python, timed like backend_bench's C++
`mlp_step_adamw (batch 64)` row, to report the gap between the two (docs/benchmarks.md).
    python bench/python/mlp_step.py [THREADS]     # brasa importable; default 2 (brasa's default here)
"""
import sys
import time

import brasa
import brasa.nn as nn
import brasa.nn.functional as F


def main():
    brasa.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
    brasa.manual_seed(1)
    model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                          nn.Linear(512, 10))
    opt = brasa.optim.AdamW(model.parameters(), lr=1e-3)
    x, y = brasa.randn(64, 784), (brasa.rand(64) * 10).long()

    def step():
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    for _ in range(5):
        step()
    times = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(10):
            step()
        times.append((time.perf_counter() - t) / 10)
    times.sort()
    print(f"{brasa.get_num_threads()} threads: median {times[3] * 1e3:.2f} ms, "
          f"best {times[0] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
