#!/usr/bin/env python3
"""Fails when a shared library's static-TLS relocations are broken (Note [Linker and TLS]).

libbrasa keeps per-thread caches in initial-exec thread_locals (the CPU caching allocator's
thread cache, the object pool, the dispatch key set); each is reached through a GOT slot that
the dynamic loader fills from an R_X86_64_TPOFF64 relocation. Gold 1.16 (binutils 2.40) linked
the RelWithDebInfo library with two of those slots pointing at another variable's offset and two
at local symbols it left undefined, so the allocator's thread cache overlaid the object pool and
ran past the library's TLS block. This checks, with readelf, that no two TPOFF64 relocations
resolve to the same offset and that none names an undefined local symbol.
Usage: scripts/check_tls.py LIBRARY...
"""
import re
import subprocess
import sys


def dynamic_symbols(lib):
    """Dynamic symbol index -> (value, bind, section) from `readelf --dyn-syms`."""
    out = subprocess.run(["readelf", "-W", "--dyn-syms", lib], check=True, capture_output=True,
                         text=True).stdout
    syms = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\d+): ([0-9a-f]+)\s+\d+\s+\S+\s+(\S+)\s+\S+\s+(\S+)", line)
        if m:
            syms[int(m.group(1))] = (int(m.group(2), 16), m.group(3), m.group(4))
    return syms


def check(lib):
    syms = dynamic_symbols(lib)
    out = subprocess.run(["readelf", "-W", "-r", lib], check=True, capture_output=True,
                         text=True).stdout
    problems, targets = [], {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 3 or fields[2] != "R_X86_64_TPOFF64":
            continue
        slot, sym_index = fields[0], int(fields[1], 16) >> 32
        addend = int(fields[-1], 16) if re.fullmatch(r"[0-9a-f]+", fields[-1]) else 0
        if sym_index:
            value, bind, section = syms[sym_index]
            if section == "UND" and bind == "LOCAL":
                problems.append(f"GOT slot {slot}: TPOFF64 against undefined local symbol "
                                f"#{sym_index}")
                continue
            offset = value + addend
        else:
            offset = addend
        if offset in targets:
            problems.append(f"GOT slots {targets[offset]} and {slot} both hold TLS offset "
                            f"{offset:#x}")
        targets[offset] = slot
    for p in problems:
        print(f"{lib}: {p}")
    return not problems


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(0 if all([check(lib) for lib in sys.argv[1:]]) else 1)
