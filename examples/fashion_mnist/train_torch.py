#!/usr/bin/python3
"""The main job's recipe in PyTorch, for side-by-side accuracy and time: the same models, AdamW,
batch size, epochs and normalisation, on the same Debian Fashion-MNIST files.

Usage: train_torch.py [--model cnn|mlp] [--epochs N] [--batch-size N] [--lr X] [--threads N]
                      [--seed N] [--data-dir DIR]"""

import argparse
import gzip
import os
import time

import numpy as np
import torch
import torch.nn.functional as F

MEAN, STD = 0.2860, 0.3530


def load(data_dir, prefix):
    def read(name, offset):
        with gzip.open(os.path.join(data_dir, name), "rb") as f:
            return np.frombuffer(f.read(), dtype=np.uint8, offset=offset)
    images = read(f"{prefix}-images-idx3-ubyte.gz", 16).reshape(-1, 1, 28, 28)
    labels = read(f"{prefix}-labels-idx1-ubyte.gz", 8)
    x = (torch.from_numpy(images.copy()).float() / 255 - MEAN) / STD
    return x, torch.from_numpy(labels.copy()).long()


class Cnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(1, 32, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(32, 64, 3, padding=1)
        self.fc1 = torch.nn.Linear(64 * 7 * 7, 128)
        self.fc2 = torch.nn.Linear(128, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = (torch.nn.Linear(784, 512), torch.nn.Linear(512, 512),
                                        torch.nn.Linear(512, 10))

    def forward(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x.flatten(1))))))


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--model", default="cnn", choices=["cnn", "mlp"])
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--data-dir", default="/usr/share/datasets/fashion-mnist")
    a = p.parse_args()
    torch.manual_seed(a.seed)
    if a.threads:
        torch.set_num_threads(a.threads)
    xtr, ytr = load(a.data_dir, "train")
    xte, yte = load(a.data_dir, "t10k")
    model = Cnn() if a.model == "cnn" else Mlp()
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr)
    total = 0.0
    for epoch in range(1, a.epochs + 1):
        model.train()
        perm = torch.randperm(len(xtr))
        t0 = time.time()
        for i in range(0, len(xtr), a.batch_size):
            idx = perm[i:i + a.batch_size]
            opt.zero_grad()
            F.cross_entropy(model(xtr[idx]), ytr[idx]).backward()
            opt.step()
        total += time.time() - t0
        model.eval()
        with torch.no_grad():
            acc = sum((model(xte[i:i + 1000]).argmax(1) == yte[i:i + 1000]).sum().item()
                      for i in range(0, len(xte), 1000)) / len(xte)
        print(f"epoch {epoch}: test accuracy {100 * acc:.2f}% ({time.time() - t0:.1f} s)", flush=True)
    print(f"done: pytorch {a.model}, test accuracy {100 * acc:.2f}%, {total:.1f} s training")


if __name__ == "__main__":
    main()
