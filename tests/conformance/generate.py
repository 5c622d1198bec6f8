#!/usr/bin/python3
"""Writes one fixture file per op family: <out>/<family>.bin, with PyTorch's results for every case of
cases_<family>.py. Run by ctest (fixture setup) with Debian's /usr/bin/python3 and its torch.
A family whose file is newer than every .py here is not regenerated (--force does). Exit code 77
(ctest: skipped) when torch is not importable."""

import argparse
import importlib
import os
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    import torch
except ImportError:
    print("conformance: torch is not importable by this python; skipping")
    sys.exit(77)

from fixture_format import write_fixture  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True, help="directory for the <family>.bin files")
    parser.add_argument("--families", required=True, help="comma-separated family names")
    parser.add_argument("--force", action="store_true", help="regenerate even when up to date")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)
    here = os.path.dirname(os.path.abspath(__file__))
    newest_source = max(os.path.getmtime(os.path.join(here, f)) for f in os.listdir(here) if f.endswith(".py"))
    for family in args.families.split(","):
        path = os.path.join(args.out, f"{family}.bin")
        if not args.force and os.path.exists(path) and os.path.getmtime(path) > newest_source:
            print(f"{family}: up to date ({path})")
            continue
        start = time.time()
        torch.manual_seed(zlib.crc32(family.encode()))  # same inputs on every run
        module = importlib.import_module(f"cases_{family}")
        cases = module.cases()
        write_fixture(path + ".tmp", cases)
        os.replace(path + ".tmp", path)
        errors = sum(1 for c in cases if c.expected.error is not None)
        ops = len({c.op for c in cases})
        print(f"{family}: {ops} ops, {len(cases)} cases ({errors} expect an error) "
              f"-> {path} in {time.time() - start:.1f}s")


if __name__ == "__main__":
    main()
