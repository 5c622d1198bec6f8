"""The acceptance test of issue 19: examples/fashion_mnist/train_torch.py, changed only in its
import lines (`import brasa as torch`), trains with brasa and reaches the accuracy PyTorch reaches
with the same arguments. A short run: the first 4000 training and 1000 test images, one epoch of
the MLP (the full runs are in docs/python.md)."""
import gzip
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "fashion_mnist" / "train_torch.py"
DATA = Path("/usr/share/datasets/fashion-mnist")
TORCH_PYTHON = "/usr/bin/python3"  # has torch 1.13


def brasa_version(source):
    """The script with `import torch...` lines rewritten to import brasa, and nothing else."""
    out = source.replace("\nimport torch\n", "\nimport brasa as torch\n")
    return out.replace("\nimport torch.nn.functional as F\n", "\nimport brasa.nn.functional as F\n")


def subset(tmp_path, prefix, n):
    for kind, header in (("images", 16), ("labels", 8)):
        with gzip.open(DATA / f"{prefix}-{kind}-idx{3 if kind == 'images' else 1}-ubyte.gz") as f:
            raw = f.read()
        item = 28 * 28 if kind == "images" else 1
        head = bytearray(raw[:header])
        head[4:8] = n.to_bytes(4, "big")
        name = f"{prefix}-{kind}-idx{3 if kind == 'images' else 1}-ubyte.gz"
        with gzip.open(tmp_path / name, "wb") as f:
            f.write(bytes(head) + raw[header:header + n * item])


def accuracy(python, script, data_dir, env):
    out = subprocess.run([python, str(script), "--model", "mlp", "--epochs", "1", "--threads", "1",
                          "--data-dir", str(data_dir)], capture_output=True, text=True, env=env,
                         timeout=240, check=True).stdout
    return float(re.search(r"done: .*test accuracy ([\d.]+)%", out).group(1))


@pytest.mark.skipif(not DATA.exists() or not os.path.exists(TORCH_PYTHON),
                    reason="needs Debian's Fashion-MNIST files and the system torch")
def test_train_torch_py_runs_on_brasa_with_torchs_accuracy(tmp_path):
    source = SCRIPT.read_text()
    changed = brasa_version(source)
    diff = [(a, b) for a, b in zip(source.splitlines(), changed.splitlines()) if a != b]
    assert diff == [("import torch", "import brasa as torch"),
                    ("import torch.nn.functional as F", "import brasa.nn.functional as F")]
    script = tmp_path / "train_brasa.py"
    script.write_text(changed)
    data = tmp_path / "data"
    data.mkdir()
    subset(data, "train", 4000)
    subset(data, "t10k", 1000)
    env = dict(os.environ)
    brasa_acc = accuracy(sys.executable, script, data, env)
    env.pop("PYTHONPATH", None)
    torch_acc = accuracy(TORCH_PYTHON, SCRIPT, data, env)
    assert brasa_acc > 70
    assert abs(brasa_acc - torch_acc) <= 1.5, (brasa_acc, torch_acc)
    assert np.isfinite(brasa_acc)
