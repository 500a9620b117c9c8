"""CSV files as people really have them: UTF-8 (with or without BOM), UTF-16, Windows-1252.

The encoding is read from a byte-order mark, else from the bytes (UTF-16 without a mark has a
zero byte in every other place), else UTF-8 when the bytes are valid UTF-8, else Windows-1252.
``encoding=`` forces one. When the headers still cannot be found, :func:`likely_encoding` tries
the usual suspects, so the error can name the encoding that would have worked.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Callable, Sequence

import pandas as pd

from loaders.errors import LoadError

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
SUSPECTS = ("utf-8", "utf-16", "utf-16-le", "utf-16-be", "cp1252", "cp850", "mac_roman", "latin-1")
_NAMES = {"utf-8-sig": "UTF-8", "utf-8": "UTF-8", "utf-16": "UTF-16", "utf-16-le": "UTF-16 LE",
          "utf-16-be": "UTF-16 BE", "utf-32": "UTF-32", "cp1252": "Windows-1252", "cp850": "DOS (cp850)",
          "mac_roman": "Mac Roman", "latin-1": "Latin-1 (ISO-8859-1)", "iso8859-1": "Latin-1 (ISO-8859-1)"}
_GARBLED = re.compile("[\u00c3\u00c2][\u0080-\u00bf\u00a0-\u00ff\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u2018-\u203a\u20ac]"
                      "|\ufffd|\x00|\u00ef\u00bb\u00bf|\u00e2\u20ac|\u00fe\u00ff|\u00ff\u00fe")


def encoding_name(encoding: str) -> str:
    """How people call an encoding: ``cp1252`` is Windows-1252."""
    try:
        key = codecs.lookup(encoding).name
    except LookupError:
        return encoding
    return _NAMES.get(encoding.lower(), _NAMES.get(key, encoding))


def check_encoding(encoding: str, source: str = "") -> str:
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise LoadError(f"`{encoding}` is not an encoding this tool knows: use e.g. `utf-8`, `utf-16` or "
                        "`cp1252` (Windows-1252).", source=source) from None
    return encoding


def detect(data: bytes) -> str:
    """The encoding of CSV bytes, without a person's hint."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    sample = data[:4000]
    if len(sample) >= 4 and sample.count(0) >= len(sample) // 4:  # UTF-16 text without a mark
        even, odd = sample[0::2].count(0), sample[1::2].count(0)
        return "utf-16-be" if even > odd else "utf-16-le"
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:
        return "latin-1"  # decodes any byte


def decode(data: bytes, encoding: str, source: str) -> str:
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        guess = detect(data)
        hint = f"; the file looks like {encoding_name(guess)}: try --encoding {guess}" if guess != encoding else ""
        raise LoadError(f"`{source}` is not {encoding_name(encoding)} text (byte {exc.start + 1}, line {line} cannot be "
                        f"read){hint}.", source=source) from None
    return text.replace("\ufeff", "")  # a byte-order mark, also one left inside by joining files


def split(text: str, source: str) -> pd.DataFrame:
    """CSV text -> a frame of text cells (delimiter sniffed among `,` `;` tab `|`).

    Rows may have fewer cells than others (title rows above the header): the width is taken from
    the first rows, and a file whose later rows are wider is read again row by row.
    """
    sample = "\n".join(text[:20000].splitlines()[:-1] or text.splitlines()[:1])
    try:
        sep = csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        sep = ","
    width = max((len(r) for r in csv.reader(text[:20000].splitlines()[:60], delimiter=sep)), default=1)
    try:
        return pd.read_csv(io.StringIO(text), sep=sep, header=None, names=range(width), dtype=str,
                           keep_default_na=False, skip_blank_lines=False, engine="c")
    except pd.errors.EmptyDataError:
        return pd.DataFrame()
    except (pd.errors.ParserError, ValueError):
        pass
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=sep))
    except csv.Error as exc:
        raise LoadError(f"`{source}` is not a readable CSV file ({exc}).", source=source) from exc
    width = max((len(r) for r in rows), default=0)
    return pd.DataFrame([r + [""] * (width - len(r)) for r in rows], dtype=object).astype(str)


def first_rows(text: str, n: int = 20) -> list[list[str]]:
    """The first ``n`` non-blank rows of CSV text, for guessing."""
    lines = [ln for ln in text.splitlines()[: n * 3] if ln.strip()][:n]
    try:
        sep = csv.Sniffer().sniff("\n".join(lines), delimiters=",;\t|").delimiter
    except csv.Error:
        sep = ","
    return [[c.strip() for c in row] for row in csv.reader(lines, delimiter=sep)]


def likely_encoding(data: bytes, used: str, is_header: Callable[[Sequence[str]], bool]) -> str | None:
    """An encoding other than ``used`` in which the file's first rows hold a header row."""
    for enc in SUSPECTS:
        if codecs.lookup(enc).name == codecs.lookup(used).name:
            continue
        try:
            text = data.decode(enc).lstrip("\ufeff")
        except UnicodeDecodeError:
            continue
        if "\x00" in text[:2000]:
            continue
        if any(is_header(row) for row in first_rows(text)):
            return enc
    return None


def garbled(cells: Sequence[str]) -> str | None:
    """The first header cell that looks like text decoded with the wrong encoding."""
    return next((c for c in cells if c and _GARBLED.search(c)), None)
