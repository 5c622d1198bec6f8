#!/usr/bin/python3
"""The aten table brasa derives from its op declarations (Note [aten forms]) against PyTorch's.

usage: check_aten_table.py BRASA_OPS

Reads `brasa_ops --aten` and torch's schema list (torch._C._jit_get_all_schemas()) and checks:
(a) every overload brasa derives is a real aten overload whose argument and result types equal
    the derived signature (aten's `int[1]` is `int[]`, `SymInt` is `int`; defaults, `*` and alias
    annotations do not count);
(b) every brasa op is mapped, or its declaration states why not (`BRASA_ATEN(op, "none: ...")`);
    an op said to have no counterpart whose own name is an aten overload of the same argument
    types is an error too;
(c) no aten overload is derived twice.
"""
import re
import subprocess
import sys

import torch


def split_top(s):
    out, depth, cur = [], 0, ""
    for c in s:
        depth += (c in "([") - (c in ")]")
        if c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def plain_type(t):
    t = re.sub(r"\([^)]*\)", "", t)  # alias annotations: Tensor(a!), Tensor(a -> *)
    t = re.sub(r"\[\d+\]", "[]", t)  # int[1] -> int[]
    return t.replace("SymInt", "int").strip()


def aten_signatures():
    """aten overload name -> its signature in brasa's notation, "Tensor(Tensor, Scalar)"."""
    sigs = {}
    for schema in map(str, torch._C._jit_get_all_schemas()):
        if not schema.startswith("aten::"):
            continue
        name, rest = schema[len("aten::"):].split("(", 1)
        depth, end = 1, 0
        for end, c in enumerate(rest):
            depth += (c == "(") - (c == ")")
            if depth == 0:
                break
        args = [a for a in split_top(rest[:end]) if a not in ("*", "...")]
        types = [plain_type(a.split("=")[0].rsplit(" ", 1)[0]) for a in args]
        ret = rest[end + 1:].split("->", 1)[1].strip()
        if ret.startswith("(") and ret.endswith(")"):
            rets = [plain_type(r.rsplit(" ", 1)[0] if " " in r.strip() else r)
                    for r in split_top(ret[1:-1])]
            ret = "(" + ", ".join(rets) + ")"
        else:
            ret = plain_type(ret)
        sigs[name] = f"{ret}({', '.join(types)})"
    return sigs


def main():
    brasa_ops = sys.argv[1]
    rows = [line.split("\t") for line in
            subprocess.run([brasa_ops, "--aten"], check=True, capture_output=True,
                           text=True).stdout.splitlines()]
    aten = aten_signatures()
    errors, mapped, unmapped, seen = [], 0, [], {}
    for op, name, signature, _ in rows:
        if name == "-":
            if not signature.startswith("none:") or len(signature) < 10:
                errors.append(f"{op}: no aten overload and no stated reason "
                              f"(BRASA_ATEN({op}_op, \"none: REASON\") at its declaration)")
            unmapped.append((op, signature))
            continue
        mapped += 1
        if name in seen:
            errors.append(f"{name} is derived from both {seen[name]} and {op}")
        seen[name] = op
        if name not in aten:
            errors.append(f"{op}: derives {name}, which is not an aten overload")
        elif aten[name] != signature:
            errors.append(f"{op}: derives {name} as {signature}, aten's is {aten[name]}")
    ops_output = subprocess.run([brasa_ops], check=True, capture_output=True, text=True).stdout
    schema_of = {}
    for op, _ in unmapped:
        info = subprocess.run([brasa_ops, op], check=True, capture_output=True, text=True).stdout
        schema = re.search(r"schema:\s+(\S+?)\((.*)\) ->", info)
        types = [plain_type(a.rsplit(" ", 1)[0]) for a in split_top(schema.group(2))]
        schema_of[op] = (schema.group(1), types)
    for op, reason in unmapped:
        name, types = schema_of[op]
        if name in aten and aten[name].split("(", 1)[1] == ", ".join(types) + ")":
            errors.append(f"{op} says '{reason}', but aten has {name} with its argument types")
    total = int(re.search(r"^(\d+) ops$", ops_output, re.M).group(1))
    print(f"{mapped} aten overloads over {len({r[0] for r in rows if r[1] != '-'})} ops; "
          f"{len(unmapped)} ops without an aten counterpart, each with its reason; "
          f"{total} ops in all")
    for e in errors:
        print("error:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
