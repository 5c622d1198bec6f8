#!/usr/bin/env python3
"""Every Cloneable<Impl> the library instantiates is in BRASA_NN_LIBRARY_MODULES, and nothing else is
(Note [Module instantiations] in include/brasa/nn/modules/instantiations.h).

Usage: check_module_instantiations.py LIBBRASA_SO INSTANTIATIONS_H
"""
import re
import subprocess
import sys


def main():
    lib, header = sys.argv[1], sys.argv[2]
    syms = subprocess.run(["nm", "-D", "-C", lib], check=True, capture_output=True, text=True).stdout
    built = {m.replace("brasa::nn::", "") for m in
             re.findall(r"Cloneable<([A-Za-z0-9_:]+)>::clone\(", syms)}
    text = open(header).read()
    block = text[text.index("#define BRASA_NN_LIBRARY_MODULES"):text.index("namespace brasa::nn")]
    listed = set(re.findall(r"X\(([A-Za-z0-9_:]+)\)", block))
    missing, extra = sorted(built - listed), sorted(listed - built)
    for name in missing:
        print(f"{header}: Cloneable<{name}> is instantiated by the library but not listed")
    for name in extra:
        print(f"{header}: {name} is listed but the library has no Cloneable<{name}>")
    print(f"check_module_instantiations: {len(listed)} listed, {len(built)} in the library")
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())
