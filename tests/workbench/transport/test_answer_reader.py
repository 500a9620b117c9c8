"""``AnswerReader`` for every body, encoding, chunking and cap: the decoded body comes back exactly
when it fits, and an answer over the cap is refused having kept no more than the cap."""

from __future__ import annotations

import gzip
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.transport.answer import TOO_LARGE, AnswerProblem, AnswerReader, size_text


def encode(body: bytes, coding: str) -> tuple[bytes, dict[str, str]]:
    if coding == "gzip":
        return gzip.compress(body), {"content-encoding": "gzip"}
    if coding == "deflate":
        return zlib.compress(body), {"content-encoding": "deflate"}
    if coding == "raw deflate":
        return zlib.compress(body)[2:-4], {"content-encoding": "deflate"}
    return body, {}


def chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    return [data[a:b] for a, b in zip(points, points[1:], strict=False)]


@settings(max_examples=300, deadline=None)
@given(body=st.one_of(st.binary(max_size=3000), st.integers(0, 200_000).map(bytes)),  # zeros inflate well
       coding=st.sampled_from(["identity", "gzip", "deflate", "raw deflate"]),
       cuts=st.lists(st.integers(0, 10**6), max_size=6), limit=st.integers(1, 150_000))
def test_a_body_comes_back_whole_when_it_fits_and_is_refused_when_it_does_not(body, coding, cuts, limit):
    data, headers = encode(body, coding)
    kept = 0
    try:
        reader = AnswerReader(headers, limit)
        for part in chunks(data, cuts):
            reader.feed(part)
            kept = max(kept, len(reader._body.getbuffer()))
        decoded = reader.finish()
    except AnswerProblem as problem:
        assert len(body) > limit and problem.situation == TOO_LARGE
        assert problem.text == f"answer larger than {size_text(limit)} after decoding"
        assert kept <= limit
    else:
        assert len(body) <= limit and decoded == body


@pytest.mark.parametrize("n,text", [(64 << 20, "64 MiB"), (512 << 10, "512 KiB"), (1 << 30, "1 GiB"),
                                    (1000, "1,000 bytes"), (1, "1 bytes")])
def test_sizes_read_as_people_set_them(n, text):
    assert size_text(n) == text


@settings(max_examples=300, deadline=None)
@given(data=st.one_of(st.binary(max_size=2000), st.binary(max_size=300).map(gzip.compress)),
       coding=st.sampled_from(["gzip", "deflate", "x-gzip", "br", "gzip, gzip", "identity, gzip"]),
       cuts=st.lists(st.integers(0, 10**6), max_size=6), limit=st.integers(1, 5000))
def test_any_bytes_under_any_encoding_end_in_a_body_or_an_answer_problem(data, coding, cuts, limit):
    try:
        reader = AnswerReader({"content-encoding": coding}, limit)
        for part in chunks(data, cuts):
            reader.feed(part)
        assert len(reader.finish()) <= limit
    except AnswerProblem as problem:
        assert problem.text.startswith(("answer says", "answer's", "answer larger than"))
