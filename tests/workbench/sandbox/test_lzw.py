"""The `compress` (LZW) content coding, checked against gzip's own decoder."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.sandbox.lzw import LZWError, compress, decompress


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=3000), st.integers(9, 16))
def test_roundtrip(data, maxbits):
    assert decompress(compress(data, maxbits)) == data


@pytest.mark.skipif(shutil.which("gzip") is None, reason="gzip binary not installed")
@pytest.mark.parametrize("data", [b"", b"a", b"TOBEORNOTTOBEORTOBEORNOT" * 400, bytes(range(256)) * 200,
                                  os.urandom(150_000)])
def test_gzip_reads_what_we_write(data):
    out = subprocess.run(["gzip", "-dc"], input=compress(data), capture_output=True, check=True)
    assert out.stdout == data


def test_clear_code_resets_the_table():
    # "ab" then CLEAR (256) then "ab": codes 97, 98, 256 (9 bits each), then padding to the
    # 9-byte group, then 97, 98 again
    bits = 0
    acc = 0
    for code in (97, 98, 256):
        acc |= code << bits
        bits += 9
    bits = 9 * 8  # skip to the end of the group
    for code in (97, 98):
        acc |= code << bits
        bits += 9
    data = b"\x1f\x9d\x90" + acc.to_bytes((bits + 7) // 8, "little")
    assert decompress(data) == b"abab"


@pytest.mark.parametrize("data", [b"", b"\x1f\x8b\x08", b"\x1f\x9d\x70", b"\x1f\x9d\x05abc",
                                  b"\x1f\x9d\x90\xff\xff\xff\xff"])
def test_invalid_data_is_refused(data):
    with pytest.raises(LZWError):
        decompress(data)
