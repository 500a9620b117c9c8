"""Amounts written with their currency: ``€ 99,50``, ``99.99 EUR``, ``£99.50``, ``¥12,000``, ``CHF 120.-``.

:func:`split_currency` takes the currency mark off an amount and says which ISO 4217 codes it
can mean (``$`` is any dollar, ``¥`` the yen or the yuan, ``kr`` any krone or krona). Whether
the mark agrees with the row's currency is decided by the reader, which knows the row.
"""

from __future__ import annotations

import re

_DOLLARS = frozenset({"USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN", "TWD", "ARS", "CLP", "COP", "BSD", "BBD",
                      "BMD", "BZD", "FJD", "JMD", "KYD", "LRD", "NAD", "SBD", "SRD", "TTD", "XCD", "GYD", "BND"})
#: currency signs and abbreviations people type next to amounts, and the codes each can mean
SYMBOLS: dict[str, frozenset[str]] = {
    "€": frozenset({"EUR"}), "£": frozenset({"GBP"}), "¥": frozenset({"JPY", "CNY"}), "￥": frozenset({"JPY", "CNY"}),
    "円": frozenset({"JPY"}), "元": frozenset({"CNY"}), "$": _DOLLARS, "US$": frozenset({"USD"}),
    "A$": frozenset({"AUD"}), "AU$": frozenset({"AUD"}), "C$": frozenset({"CAD"}), "CA$": frozenset({"CAD"}),
    "NZ$": frozenset({"NZD"}), "HK$": frozenset({"HKD"}), "S$": frozenset({"SGD"}), "R$": frozenset({"BRL"}),
    "NT$": frozenset({"TWD"}), "MX$": frozenset({"MXN"}), "₹": frozenset({"INR"}), "₩": frozenset({"KRW"}),
    "₺": frozenset({"TRY"}), "₽": frozenset({"RUB"}), "฿": frozenset({"THB"}), "₫": frozenset({"VND"}),
    "₪": frozenset({"ILS"}), "₱": frozenset({"PHP"}), "₴": frozenset({"UAH"}), "zł": frozenset({"PLN"}),
    "Kč": frozenset({"CZK"}), "Ft": frozenset({"HUF"}), "kr": frozenset({"SEK", "NOK", "DKK", "ISK"}),
    "kr.": frozenset({"SEK", "NOK", "DKK", "ISK"}), "Fr.": frozenset({"CHF"}), "SFr.": frozenset({"CHF"}),
    "Fr": frozenset({"CHF"}), "lei": frozenset({"RON"}), "RM": frozenset({"MYR"}), "Rp": frozenset({"IDR"}),
    "лв": frozenset({"BGN"}), "R": frozenset({"ZAR"}),
}
_BY_LENGTH = sorted(SYMBOLS, key=len, reverse=True)
_CODE_BEFORE = re.compile(r"^([A-Za-z]{3})(?=[\s\d+\-.(])")
_CODE_AFTER = re.compile(r"(?<=[\d\s.,\-)])([A-Za-z]{3})$")
_SWISS_DASH = re.compile(r"[.,][-\u2013\u2014]$")  # 120.- is 120.00


def split_currency(text: str) -> tuple[str, frozenset[str] | None, str | None]:
    """``(number text, codes the mark can mean, the mark)``; without a mark, ``(text, None, None)``.

    ``€ 99,50`` -> ``("99,50", {"EUR"}, "€")``; ``CHF 120.-`` -> ``("120", {"CHF"}, "CHF")``.
    Two different marks (``€ 99 USD``) give an empty set of codes.
    """
    t = text.strip()
    if not t or not any(ch.isdigit() for ch in t) or t[0].isdigit() and t[-1].isdigit():
        return text, None, None
    sign = ""
    if t[0] in "+-":
        sign, t = t[0], t[1:].lstrip()
    marks: list[tuple[str, frozenset[str]]] = []
    front = _mark(t, at_start=True)
    if front is not None:
        marks.append(front)
        t = t[len(front[0]):].strip()
        if t[:1] in "+-" and not sign:
            sign, t = t[0], t[1:].lstrip()
    back = _mark(t, at_start=False)
    if back is not None:
        marks.append(back)
        t = t[: len(t) - len(back[0])].strip()
    if not marks:
        return text, None, None
    t = _SWISS_DASH.sub("", t)
    codes = marks[0][1] if len(marks) == 1 else marks[0][1] & marks[1][1]
    return sign + t, codes, " ".join(m for m, _ in marks)


def _mark(t: str, at_start: bool) -> tuple[str, frozenset[str]] | None:
    for sym in _BY_LENGTH:
        hit = t.startswith(sym) if at_start else t.endswith(sym)
        if not hit:
            continue
        rest = t[len(sym):] if at_start else t[: len(t) - len(sym)]
        # a letter sign (R, kr, Ft) must stand apart from other letters: `RO` is not rand
        if sym[-1 if at_start else 0].isalpha() and rest[:1 if at_start else None][-1:].isalpha():
            continue
        return sym, SYMBOLS[sym]
    m = (_CODE_BEFORE if at_start else _CODE_AFTER).search(t)
    if m:
        return m.group(1), frozenset({m.group(1).upper()})
    return None
