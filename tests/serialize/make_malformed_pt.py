#!/usr/bin/env python3
"""Writes tests/serialize/malformed/pt/*.pt: torch.save-like archives (built with zipfile, ZIP_STORED,
pickles assembled byte by byte) that a weights_only loader must reject, and the fuzz seeds
fuzz/corpus/pt/*. Needs only the standard library. Run: python3 tests/serialize/make_malformed_pt.py"""
import io
import os
import struct
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "malformed", "pt")
SEEDS = os.path.join(HERE, "..", "..", "fuzz", "corpus", "pt")


def string(x):
    b = x.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def integer(v):
    return b"K" + bytes([v]) if 0 <= v < 256 else b"J" + struct.pack("<i", v)


def glob(module, name):
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def tup(xs):
    return b"(" + b"".join(integer(x) for x in xs) + b"t"


EMPTY_ORDERED_DICT = glob("collections", "OrderedDict") + b")R"


def tensor(key, numel, size, stride, offset=0, cls="FloatStorage"):
    pid = b"(" + string("storage") + glob("torch", cls) + string(key) + string("cpu") + integer(numel) + b"tQ"
    args = pid + integer(offset) + tup(size) + tup(stride) + b"\x89" + EMPTY_ORDERED_DICT
    return glob("torch._utils", "_rebuild_tensor_v2") + b"(" + args + b"tR"


def state_dict(entries):
    items = b"".join(string(k) + v for k, v in entries)
    return b"\x80\x02" + EMPTY_ORDERED_DICT + b"(" + items + b"u."


def write(z, name, data):
    # A fixed timestamp keeps the generated files byte-identical across runs.
    z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)


def archive(pkl, records=None, version=b"3\n", extra=None, prefix="archive"):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        write(z, prefix + "/data.pkl", pkl)
        for key, data in (records or {}).items():
            write(z, prefix + "/data/" + key, data)
        if version is not None:
            write(z, prefix + "/version", version)
        for name, data in (extra or {}).items():
            write(z, name, data)
    return buf.getvalue()


def floats(n):
    return struct.pack("<%df" % n, *range(n))


GOOD_PKL = state_dict([("w", tensor("0", 6, (2, 3), (3, 1)))])
GOOD = archive(GOOD_PKL, {"0": floats(6)})


def pickle_only(body):
    return archive(b"\x80\x02" + body)


CASES = {
    "global_os_system": pickle_only(glob("os", "system") + string("echo pwned") + b"\x85R."),
    "global_posix_system": pickle_only(glob("posix", "system") + string("echo pwned") + b"\x85R."),
    "global_builtins_eval": pickle_only(glob("builtins", "eval") + string("1+1") + b"\x85R."),
    "global_torch_load": pickle_only(glob("torch", "load") + string("x") + b"\x85R."),
    "opcode_frame": archive(b"\x80\x04\x95" + struct.pack("<Q", 3) + b"N."),
    "opcode_reduce_ex_inst": pickle_only(b"i__builtin__\nlist\n."),
    "storage_smaller_than_tensor": archive(state_dict([("w", tensor("0", 6, (3, 3), (3, 1)))]), {"0": floats(6)}),
    "offset_beyond_storage": archive(state_dict([("w", tensor("0", 6, (2,), (1,), offset=5))]), {"0": floats(6)}),
    "record_size_mismatch": archive(GOOD_PKL, {"0": floats(5)}),
    "missing_data_record": archive(GOOD_PKL, {}),
    "negative_size": archive(state_dict([("w", tensor("0", 6, (-1, 3), (3, 1)))]), {"0": floats(6)}),
    "negative_numel": archive(state_dict([("w", tensor("0", -6, (2, 3), (3, 1)))]), {"0": floats(6)}),
    "storage_two_dtypes": archive(
        state_dict([("a", tensor("0", 6, (6,), (1,))), ("b", tensor("0", 6, (6,), (1,), cls="IntStorage"))]),
        {"0": floats(6)}),
    "unsupported_storage_type": archive(state_dict([("w", tensor("0", 6, (6,), (1,), cls="ComplexHalfStorage"))]),
                                        {"0": floats(12)}),
    "persid_not_storage": pickle_only(b"(" + string("module") + string("x") + b"tQ."),
    "setitem_on_list": pickle_only(b"]" + string("k") + string("v") + b"s."),
    "setitems_on_tuple": pickle_only(b")(" + string("k") + string("v") + b"u."),
    "append_on_dict": pickle_only(b"}" + integer(1) + b"a."),
    "reduce_on_string": pickle_only(string("x") + b")R."),
    "build_on_list": pickle_only(b"]}b."),
    "newobj": pickle_only(glob("collections", "OrderedDict") + b")\x81."),
    "binget_missing_memo": pickle_only(b"h\x05."),
    "long_binget_missing_memo": pickle_only(b"j\xff\xff\xff\xff."),
    "stack_underflow": pickle_only(b"\x86."),
    "stop_on_empty_stack": pickle_only(b"."),
    "appends_without_mark": pickle_only(b"]e."),
    "mark_hides_stack": pickle_only(b"]((N" + b"t" + b"\x86."),
    "recursive_list": pickle_only(b"]q\x00h\x00a."),
    "deep_nesting": pickle_only(b"]" * 1000 + b"a" * 999 + b"."),
    "truncated_pickle": archive(GOOD_PKL[: len(GOOD_PKL) // 2], {"0": floats(6)}),
    "no_stop": pickle_only(b"N"),
    "huge_string_length": pickle_only(b"X" + struct.pack("<I", 0xFFFFFFFF) + b"abc."),
    "long1_too_long": pickle_only(b"\x8a\x09" + b"\x01" * 9 + b"."),
    "global_without_newline": pickle_only(b"ccollections" + b"x" * 300),
    "pytorch1_magic": b"PYTORCH1" + bytes(64),
    "legacy_magic": b"\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19.",
    "not_a_zip": b"hello world, not an archive",
    "entry_outside_prefix": archive(b"\x80\x02N.", extra={"other/x": b""}),
    "missing_version": archive(b"\x80\x02N.", version=None),
    "bad_version": archive(b"\x80\x02N.", version=b"99\n"),
    "bad_byteorder": archive(b"\x80\x02N.", extra={"archive/byteorder": b"middle"}),
    "missing_data_pkl": archive(b"", extra={}).replace(b"archive/data.pkl", b"archive/data.pkx"),
}

# A root-level record: zipfile can't write an empty prefix through archive(), so build it here.
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
    write(z, "data.pkl", b"\x80\x02N.")
    write(z, "version", b"3\n")
CASES["no_subdirectory"] = buf.getvalue()


def nested_seed():
    body = EMPTY_ORDERED_DICT + b"(" + string("w") + tensor("0", 6, (2, 3), (3, 1))
    body += string("t") + tensor("0", 6, (3, 2), (1, 3))
    body += string("l") + b"](" + integer(1) + b"G" + struct.pack(">d", 2.5) + b"N\x88\x89" + integer(-7) + b"e"
    body += string("tp") + integer(1) + b")" + b"\x86" + b"u."
    return archive(b"\x80\x02" + body, {"0": floats(6)})


def main():
    os.makedirs(OUT, exist_ok=True)
    os.makedirs(SEEDS, exist_ok=True)
    for name, data in sorted(CASES.items()):
        with open(os.path.join(OUT, name + ".pt"), "wb") as f:
            f.write(data)
    seeds = {"state_dict.pt": GOOD, "nested.pt": nested_seed(), "state_dict.pkl": GOOD_PKL}
    for name, data in seeds.items():
        with open(os.path.join(SEEDS, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
