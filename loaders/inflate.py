"""Raw DEFLATE streams (a zip part's bytes) inflated with ISA-L when it is installed, else with zlib.

The bounds check inflates a dimension-less sheet whole before the reader does (``loaders.xlsx_bounds``):
113 MB of XML for a million availability values. ISA-L (``isal``, the same stream and the same
``decompressobj`` interface as zlib) does it in 0.06 s of CPU against zlib's 0.145 s, measured on
that sheet in 2 MiB pieces. A damaged stream raises one of :data:`INFLATE_ERRORS`, whichever inflates it.
"""

from __future__ import annotations

import zlib
from typing import Protocol, cast


class Inflater(Protocol):
    """What :func:`raw_inflater` gives: zlib's ``decompressobj`` interface."""

    eof: bool
    unconsumed_tail: bytes

    def decompress(self, data: bytes, max_length: int = ..., /) -> bytes: ...


try:
    from isal import isal_zlib as _isal
except ImportError:  # pragma: no cover - a platform without ISA-L's wheels: zlib, as before
    _isal = None  # type: ignore[assignment]

#: what a damaged stream raises (zlib's error, and ISA-L's ``IsalError``, which is not a subclass of it)
INFLATE_ERRORS: tuple[type[Exception], ...] = (zlib.error,) if _isal is None else (
    zlib.error, cast(type[Exception], _isal.IsalError))  # its stubs call it an instance; it is the class


def raw_inflater() -> Inflater:
    """A decompressor for a raw DEFLATE stream (no zlib header), as zip parts hold them."""
    if _isal is not None:
        return _isal.decompressobj(-zlib.MAX_WBITS)
    return zlib.decompressobj(-zlib.MAX_WBITS)  # pragma: no cover - without ISA-L
