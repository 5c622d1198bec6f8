#!/usr/bin/env python3
"""Writes the malformed safetensors corpus (tests/serialize/malformed/safetensors/*.safetensors).

Every file must be rejected with brasa::SerializationError (test_safetensors_malformed.cpp).
Regenerate with: python3 tests/serialize/safetensors_make_malformed.py
"""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "malformed", "safetensors")


def image(header, data=b"", pad=True):
    if isinstance(header, str):
        header = header.encode("utf-8")
    if pad:
        header += b" " * (-len(header) % 8)
    return struct.pack("<Q", len(header)) + header + data


F32_2 = '"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}'
VALID = image("{" + F32_2 + "}", bytes(8))

CASES = {
    "empty_file": b"",
    "too_short": b"\x08\x00\x00",
    "header_past_end": struct.pack("<Q", 1000) + b'{"a":{}}',
    "header_too_large": struct.pack("<Q", 100_000_001) + b"{" + b" " * 15,
    "header_length_u64_max": b"\xff" * 8 + b"{}",
    "header_not_brace": image(" {" + F32_2 + "}", bytes(8)),
    "header_array": image("[]"),
    "empty_header": struct.pack("<Q", 0),
    "invalid_utf8": image(b'{"\xff":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}', bytes(8)),
    "invalid_json": image('{"a":{"dtype":"F32",}}', bytes(8)),
    "unterminated_json": image('{"a":{"dtype":"F32","shape":[2]', bytes(8), pad=False),
    "trailing_garbage_in_header": image("{" + F32_2 + "}x", bytes(8)),
    "tab_padding": image("{" + F32_2 + "}\t\t\t", bytes(8), pad=False),
    "duplicate_key": image('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},'
                           '"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}', bytes(8)),
    "duplicate_field": image('{"a":{"dtype":"F32","dtype":"F32","shape":[2],"data_offsets":[0,8]}}',
                             bytes(8)),
    "metadata_non_string": image('{"__metadata__":{"k":1},' + F32_2 + "}", bytes(8)),
    "metadata_not_object": image('{"__metadata__":"x",' + F32_2 + "}", bytes(8)),
    "tensor_not_object": image('{"a":[1,2]}'),
    "missing_dtype": image('{"a":{"shape":[2],"data_offsets":[0,8]}}', bytes(8)),
    "missing_data_offsets": image('{"a":{"dtype":"F32","shape":[2]}}', bytes(8)),
    "unknown_dtype": image('{"a":{"dtype":"F7","shape":[2],"data_offsets":[0,8]}}', bytes(8)),
    "unsupported_dtype": image('{"a":{"dtype":"F8_E4M3","shape":[2],"data_offsets":[0,2]}}', bytes(2)),
    "negative_shape": image('{"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}', bytes(8)),
    "non_integer_shape": image('{"a":{"dtype":"F32","shape":[2.0],"data_offsets":[0,8]}}', bytes(8)),
    "string_shape": image('{"a":{"dtype":"F32","shape":["2"],"data_offsets":[0,8]}}', bytes(8)),
    "shape_beyond_u64": image('{"a":{"dtype":"F32","shape":[18446744073709551616],'
                              '"data_offsets":[0,8]}}', bytes(8)),
    "shape_beyond_i64": image('{"a":{"dtype":"U8","shape":[9223372036854775808],'
                              '"data_offsets":[0,8]}}', bytes(8)),
    "element_count_overflow": image('{"a":{"dtype":"F32","shape":[4294967296,4294967296,2],'
                                    '"data_offsets":[0,8]}}', bytes(8)),
    "byte_size_overflow": image('{"a":{"dtype":"F64","shape":[4611686018427387904],'
                                '"data_offsets":[0,8]}}', bytes(8)),
    "empty_shape_too_large": image('{"a":{"dtype":"F32","shape":[0,4611686018427387904,4],'
                                   '"data_offsets":[0,0]}}'),
    "data_offsets_three": image('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8,8]}}', bytes(8)),
    "data_offsets_negative": image('{"a":{"dtype":"F32","shape":[2],"data_offsets":[-8,0]}}', bytes(8)),
    "data_offsets_gap": image('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},'
                              '"b":{"dtype":"F32","shape":[2],"data_offsets":[12,20]}}', bytes(20)),
    "data_offsets_overlap": image('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},'
                                  '"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}', bytes(12)),
    "data_offsets_reversed": image('{"a":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}}', bytes(8)),
    "data_offsets_not_from_zero": image('{"a":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}',
                                        bytes(12)),
    "size_mismatch": image('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}', bytes(4)),
    "trailing_bytes": VALID + b"\x00\x00\x00\x00",
    "truncated_buffer": VALID[:-4],
    "deep_nesting": image('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8],"x":' + "[" * 200
                          + "]" * 200 + "}}", bytes(8)),
    "control_char_in_string": image(b'{"a\x01":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}',
                                    bytes(8)),
    "lone_surrogate_escape": image('{"\\ud800":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}',
                                   bytes(8)),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".safetensors"):
            os.remove(os.path.join(OUT, old))
    for name, data in sorted(CASES.items()):
        with open(os.path.join(OUT, name + ".safetensors"), "wb") as f:
            f.write(data)
    print("wrote %d files to %s" % (len(CASES), OUT))


if __name__ == "__main__":
    main()
