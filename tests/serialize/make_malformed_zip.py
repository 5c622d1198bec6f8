#!/usr/bin/env python3
"""Writes tests/serialize/malformed/zip/*.zip (and the valid seeds fuzz/corpus/zip/*.zip): archives in torch.save's layout (stored records,
64-byte aligned data) each broken in one way. tests/serialize/test_zip_malformed.cpp expects every
file to be rejected with SerializationError, with the message fragment listed there.

Regenerate: /usr/bin/python3 tests/serialize/make_malformed_zip.py
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "malformed", "zip")
SEEDS = os.path.join(HERE, "..", "..", "fuzz", "corpus", "zip")


class Archive:
    """A stored archive laid out like torch.save's; fields are patched after writing."""

    def __init__(self, records, zip64=False):
        self.buf = bytearray()
        self.local, self.data, self.central = [], [], []
        for name, data in records:
            self.local.append(len(self.buf))
            name = name.encode()
            start = len(self.buf) + 30 + len(name) + 4
            pad = (64 - start % 64) % 64
            self.buf += struct.pack("<IHHHHHIIIHH", 0x04034B50, 0, 0, 0, 0, 0, zlib.crc32(data),
                                    len(data), len(data), len(name), 4 + pad)
            self.buf += name + struct.pack("<HH", 0x4246, pad) + b"Z" * pad
            self.data.append(len(self.buf))
            self.buf += data
        self.cd = len(self.buf)
        for (name, data), off in zip(records, self.local):
            self.central.append(len(self.buf))
            name = name.encode()
            self.buf += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, 0, 0, 0, 0,
                                    zlib.crc32(data), len(data), len(data), len(name), 0, 0, 0, 0,
                                    0, off)
            self.buf += name
        size = len(self.buf) - self.cd
        self.zip64_end = None
        if zip64:
            self.zip64_end = len(self.buf)
            self.buf += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 45, 0, 0, len(records),
                                    len(records), size, self.cd)
            self.buf += struct.pack("<IIQI", 0x07064B50, 0, self.zip64_end, 1)
        self.eocd = len(self.buf)
        count, size, cd = (0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF) if zip64 else (len(records), size, self.cd)
        self.buf += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, size, cd, 0)

    def put(self, offset, fmt, value):
        struct.pack_into("<" + fmt, self.buf, offset, value)
        return self


def base(zip64=False):
    return Archive([("archive/data.pkl", b"\x80\x02}q\x00."), ("archive/data/0", bytes(range(100))),
                    ("archive/version", b"3\n")], zip64)


def named(name):
    return Archive([("archive/version", b"3\n"), (name, b"x")])


def cases():
    a = base()
    yield "truncated_header", bytes(a.buf[:10])
    yield "truncated_half", bytes(a.buf[: len(a.buf) // 2])
    b = base()
    b.buf[b.eocd:b.eocd + 4] = b"PK\x00\x00"
    yield "no_eocd", b.buf
    yield "eocd_comment_length", base().put(base().eocd + 20, "H", 5).buf
    yield "eocd_offset_beyond_file", base().put(base().eocd + 16, "I", 0x7FFFFFF0).buf
    yield "eocd_size_beyond_file", base().put(base().eocd + 12, "I", 0x7FFFFFF0).buf
    z = base(zip64=True)
    yield "zip64_locator_beyond_file", z.put(z.eocd - 12, "Q", 1 << 40).buf
    z = base(zip64=True)
    yield "zip64_bad_signature", z.put(z.zip64_end, "I", 0x06064B51).buf
    z = base(zip64=True)
    yield "zip64_offset_beyond_file", z.put(z.zip64_end + 48, "Q", 1 << 62).buf
    z = base(zip64=True)
    yield "zip64_huge_count", z.put(z.zip64_end + 24, "Q", 1 << 60).put(z.zip64_end + 32, "Q", 1 << 60).buf
    a = base()
    a.put(a.eocd + 4, "H", 1)
    yield "multi_disk", a.buf
    a = base()
    yield "placeholders_without_zip64", a.put(a.eocd + 16, "I", 0xFFFFFFFF).buf
    a = base()
    yield "huge_entry_count", a.put(a.eocd + 8, "H", 0xFFFE).put(a.eocd + 10, "H", 0xFFFE).buf
    a = base()
    yield "fewer_entries_than_directory", a.put(a.eocd + 8, "H", 2).put(a.eocd + 10, "H", 2).buf
    a = base()
    yield "bad_central_signature", a.put(a.central[1], "I", 0x02014B51).buf
    # Entry 1 ("archive/data/0") is the one broken below.
    a = base()
    a.put(a.central[1] + 20, "I", 1 << 30).put(a.central[1] + 24, "I", 1 << 30)
    yield "data_beyond_file", a.put(a.local[1] + 18, "I", 1 << 30).put(a.local[1] + 22, "I", 1 << 30).buf
    a = base()
    yield "local_beyond_file", a.put(a.central[1] + 42, "I", 1 << 30).buf
    a = base()
    yield "local_central_size_mismatch", a.put(a.local[1] + 22, "I", 99).put(a.local[1] + 18, "I", 99).buf
    a = base()
    yield "stored_size_mismatch", a.put(a.central[1] + 20, "I", 50).buf
    a = base()
    yield "compressed", a.put(a.central[1] + 10, "H", 8).put(a.local[1] + 8, "H", 8).buf
    a = base()
    yield "local_method_differs", a.put(a.local[1] + 8, "H", 8).buf
    a = base()
    yield "encrypted", a.put(a.central[1] + 8, "H", 1).put(a.local[1] + 6, "H", 1).buf
    a = base()
    yield "bad_local_signature", a.put(a.local[1], "I", 0x04034B51).buf
    a = base()
    yield "local_name_differs", a.put(a.local[1] + 30, "B", ord("X")).buf
    a = base()
    a.put(a.central[1] + 20, "I", 0xFFFFFFFF).put(a.central[1] + 24, "I", 0xFFFFFFFF)
    yield "size_placeholder_without_zip64_extra", a.buf
    a = base()
    yield "local_extra_past_header", a.put(a.local[1] + 28, "H", 0xFFF0).buf
    # Entry 0's data grows over entry 1's local header (sizes agree in both headers).
    a = base()
    a.put(a.central[0] + 20, "I", 100).put(a.central[0] + 24, "I", 100)
    yield "overlapping_entries", a.put(a.local[0] + 18, "I", 100).put(a.local[0] + 22, "I", 100).buf
    a = base()
    n = a.cd - a.data[2] + 4
    a.put(a.central[2] + 20, "I", n).put(a.central[2] + 24, "I", n)
    yield "data_overlaps_directory", a.put(a.local[2] + 18, "I", n).put(a.local[2] + 22, "I", n).buf
    yield "dotdot_name", named("archive/../evil").buf
    yield "dotdot_leading_name", named("../evil").buf
    yield "absolute_name", named("/etc/passwd").buf
    yield "backslash_name", named("archive\\data").buf
    yield "nul_name", named("archive/a\0b").buf
    yield "empty_name", named("").buf
    yield "duplicate_names", Archive([("archive/x", b"1"), ("archive/x", b"2")]).buf


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        os.remove(os.path.join(OUT, old))
    for name, data in cases():
        with open(os.path.join(OUT, name + ".zip"), "wb") as f:
            f.write(bytes(data))
    # Valid archives of the same layout: fuzzing seeds, and the control that the base parses.
    os.makedirs(SEEDS, exist_ok=True)
    for name, archive in [("valid", base()), ("valid_zip64", base(zip64=True)), ("empty", Archive([]))]:
        with open(os.path.join(SEEDS, name + ".zip"), "wb") as f:
            f.write(bytes(archive.buf))


if __name__ == "__main__":
    main()
