#!/usr/bin/python3
"""char_gpt's recipe in PyTorch 1.13, for side-by-side numbers (docs/char_gpt.md).

The same data split, model (parameter names and initialisation order included), AdamW groups,
schedule, clipping, batches and validation windows as examples/char_gpt/main.cpp. PyTorch 1.13 has
no public scaled_dot_product_attention; its F._scaled_dot_product_attention computes the same.
"""
import argparse
import math
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


def text_files(path):
    if not os.path.isdir(path):
        return [path]
    names = sorted(os.listdir(path))
    return [os.path.join(path, n) for n in names
            if not n.endswith(".dat") and os.path.isfile(os.path.join(path, n))
            and not os.path.islink(os.path.join(path, n))]


def load_corpus(path, block):
    text = ""
    for f in text_files(path):
        with open(f, "rb") as fh:
            t = fh.read().decode("utf-8")
        text += t if t.endswith("\n") else t + "\n"
    train, val, fortune, start, i = [], [], 0, 0, 0
    while i < len(text):
        sep = (i == 0 or text[i - 1] == "\n") and text[i] == "%" and i + 1 < len(text) and text[i + 1] == "\n"
        if sep or i + 1 == len(text):
            end = i + 2 if sep else len(text)
            (val if fortune % 10 == 9 else train).append(text[start:end])
            fortune += 1
            start = end
            if sep:
                i += 1
        i += 1
    vocab = sorted(set(text))
    ids = {c: k for k, c in enumerate(vocab)}
    enc = lambda s: torch.tensor([ids[c] for c in s], dtype=torch.long)
    return vocab, enc("".join(train)), enc("".join(val))


class CausalSelfAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.heads, self.dropout = c.heads, c.dropout
        self.qkv = nn.Linear(c.dim, 3 * c.dim)
        self.proj = nn.Linear(c.dim, c.dim)
        self.resid_drop = nn.Dropout(c.dropout)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        y, _ = F._scaled_dot_product_attention(q, k, v, None, self.dropout if self.training else 0.0,
                                               False, True)
        return self.resid_drop(self.proj(y.transpose(1, 2).reshape(B, T, C)))


class Mlp(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.fc = nn.Linear(c.dim, 4 * c.dim)
        self.proj = nn.Linear(4 * c.dim, c.dim)
        self.drop = nn.Dropout(c.dropout)

    def forward(self, x):
        return self.drop(self.proj(F.gelu(self.fc(x))))


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ln1 = nn.LayerNorm(c.dim)
        self.attn = CausalSelfAttention(c)
        self.ln2 = nn.LayerNorm(c.dim)
        self.mlp = Mlp(c)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Gpt(nn.Module):
    def __init__(self, c, vocab_size):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, c.dim)
        self.wpe = nn.Embedding(c.block_size, c.dim)
        self.drop = nn.Dropout(c.dropout)
        self.blocks = nn.ModuleList()
        self.ln_f = nn.LayerNorm(c.dim)
        for _ in range(c.layers):
            self.blocks.append(Block(c))
        with torch.no_grad():
            for name, p in self.named_parameters():
                if name.endswith(".bias"):
                    nn.init.zeros_(p)
                elif name.startswith("ln") or ".ln" in name:
                    nn.init.ones_(p)
                else:
                    residual = name.endswith("attn.proj.weight") or name.endswith("mlp.proj.weight")
                    nn.init.normal_(p, 0.0, 0.02 / math.sqrt(2.0 * c.layers) if residual else 0.02)

    def forward(self, idx):
        x = self.drop(self.wte(idx) + self.wpe(torch.arange(idx.shape[1])))
        for block in self.blocks:
            x = block(x)
        return F.linear(self.ln_f(x), self.wte.weight)


def lr_at(step, c):
    if step < c.warmup:
        return c.lr * (step + 1) / c.warmup
    progress = min(1.0, (step - c.warmup) / max(1, c.steps - c.warmup))
    floor = c.lr / 10
    return floor + 0.5 * (c.lr - floor) * (1 + math.cos(math.pi * progress))


def autocast(c):
    return torch.autocast("cpu", torch.bfloat16, enabled=c.autocast == "bf16")


def evaluate(model, windows, c):
    model.eval()
    total, batches = 0.0, 0
    with torch.no_grad(), autocast(c):
        for s in range(0, windows.shape[0], c.batch_size):
            w = windows[s:s + c.batch_size]
            logits = model(w[:, :c.block_size])
            total += F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(),
                                     w[:, 1:].reshape(-1)).item()
            batches += 1
    model.train()
    return total / batches


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--data", default="/usr/share/games/fortunes")
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--block-size", type=int, default=128)
    p.add_argument("--layers", type=int, default=6)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--dim", type=int, default=256)
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--weight-decay", type=float, default=0.1)
    p.add_argument("--grad-clip", type=float, default=1.0)
    p.add_argument("--warmup", type=int, default=100)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--seed", type=int, default=1337)
    p.add_argument("--autocast", choices=["none", "bf16"], default="none")
    p.add_argument("--eval-every", type=int, default=500)
    p.add_argument("--eval-batches", type=int, default=20)
    p.add_argument("--log-every", type=int, default=50)
    c = p.parse_args()
    torch.manual_seed(c.seed)
    if c.threads > 0:
        torch.set_num_threads(c.threads)
    vocab, train, val = load_corpus(c.data, c.block_size)
    model = Gpt(c, len(vocab))
    decay = [q for q in model.parameters() if q.dim() >= 2]
    no_decay = [q for q in model.parameters() if q.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": c.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=c.lr, betas=(0.9, 0.95))
    n = c.eval_batches * c.batch_size
    last = val.shape[0] - c.block_size - 1
    starts = torch.arange(n) * last // (n - 1) if n > 1 else torch.zeros(1, dtype=torch.long)
    windows = val[(starts.view(-1, 1) + torch.arange(c.block_size + 1)).view(-1)].view(n, -1)
    params = sum(q.numel() for q in model.parameters())
    print(f"train_torch: {train.numel()} train / {val.numel()} val characters, vocabulary {len(vocab)}; "
          f"{params / 1e6:.2f}M parameters; {torch.get_num_threads()} threads, autocast {c.autocast}")
    model.train()
    times, cpu = [], []
    for step in range(c.steps):
        t0, c0 = time.perf_counter(), time.process_time()
        lr = lr_at(step, c)
        for g in opt.param_groups:
            g["lr"] = lr
        offsets = torch.randint(train.shape[0] - c.block_size - 1, (c.batch_size, 1))
        w = train[(offsets + torch.arange(c.block_size + 1)).view(-1)].view(c.batch_size, -1)
        x, y = w[:, :c.block_size], w[:, 1:]
        with autocast(c):
            logits = model(x)
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), c.grad_clip)
        opt.step()
        opt.zero_grad()
        value = loss.item()
        if step >= 3:
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        if (step + 1) % c.log_every == 0:
            print(f"step {step + 1}/{c.steps} loss {value:.4f} grad norm {float(norm):.3f} lr {lr:.2e}",
                  flush=True)
        if (step + 1) % c.eval_every == 0 and step + 1 != c.steps:
            print(f"step {step + 1}: val loss {evaluate(model, windows, c):.4f}", flush=True)
    if times:
        ms = 1e3 * sum(times) / len(times)
        print(f"step time {ms:.1f} ms (mean of {len(times)} steps after 3 of warm-up; "
              f"CPU {1e3 * sum(cpu) / len(cpu):.1f} ms), {c.batch_size * c.block_size / (ms / 1e3):.0f} tokens/s")
    print(f"step {c.steps}: val loss {evaluate(model, windows, c):.4f}")


if __name__ == "__main__":
    main()
