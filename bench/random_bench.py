# PyTorch side of bench/random_bench.cpp: the same calls, best of 7 (run with /usr/bin/python3).
import torch, time
torch.manual_seed(0)
for th in [1, 2]:
    torch.set_num_threads(th)
    x = torch.ones(1 << 20)
    for name, f in [('rand f32', lambda: torch.rand(1 << 20)), ('randn f32', lambda: torch.randn(1 << 20)),
                    ('rand f64', lambda: torch.rand(1 << 20, dtype=torch.float64)),
                    ('randn f64', lambda: torch.randn(1 << 20, dtype=torch.float64)),
                    ('dropout(0.5) f32', lambda: torch.nn.functional.dropout(x, 0.5))]:
        b = 1e9
        for r in range(7):
            t = time.perf_counter(); f(); b = min(b, time.perf_counter() - t)
        print('torch threads=%d %s %.3f ms' % (th, name, b * 1e3))
