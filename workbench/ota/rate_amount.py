"""OTA_HotelRateAmountNotifRQ: build requests from compressed messages.

One request per hotel and calendar month. Each ``RateAmountMessage`` carries ``LocatorID`` (its
1-based position in the request; OTA 2003B's attribute for exactly this), so an ``Error@RecordID``
points back at it. Weekday flags use OTA 2003B's spelling (``Mon Tue Weds Thur Fri Sat Sun``, the
``DOW_PatternGroup``) unless the spec table's (``Wed``/``Thu``, which fails the OTA schema) is
asked for, all seven written out when a message does not apply to every day, and none when it does
(weekday rule 3: all days).
Amounts are written exactly as loaded: ``99.99``; or, when the sheet gave ``DecimalPlaces``
(or the amount has more than 3 decimals, which OTA's decimal type cannot carry), as an integer
with ``DecimalPlaces``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import SupportsInt

import pandas as pd
from lxml import etree

from workbench.ota.ns import OTA_NS

ROOT = f"{{{OTA_NS}}}OTA_HotelRateAmountNotifRQ"
_T = {name: f"{{{OTA_NS}}}{name}" for name in (
    "RateAmountMessages", "RateAmountMessage", "StatusApplicationControl", "Rates", "Rate", "BaseByGuestAmts",
    "BaseByGuestAmt")}
DOW = ("Mon", "Tue", "Weds", "Thur", "Fri", "Sat", "Sun")
#: Weekday attribute names by spelling: OTA 2003B's (the default; what real clients send) or the spec table's.
SPELLINGS: dict[str, tuple[str, ...]] = {"ota": DOW, "spec": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")}
ALL_DAYS = 0b1111111
VERSION = "1.0"
MAX_PLAIN_DECIMALS = 3


def amount_attributes(amount_type: str, minor: int, scale: int, decimal_places: SupportsInt | None, currency: str,
                      guests: SupportsInt | None) -> dict[str, str]:
    """The attributes of one ``BaseByGuestAmt``."""
    attrs: dict[str, str] = {}
    if guests is not None and not pd.isna(guests):
        attrs["NumberOfGuests"] = str(int(guests))
    dp = None if decimal_places is None or pd.isna(decimal_places) else int(decimal_places)
    if dp is None and scale > MAX_PLAIN_DECIMALS:
        dp = scale
    if dp is not None:
        attrs[f"Amount{amount_type}"] = str(int(minor) * 10 ** (dp - int(scale)))
        attrs["DecimalPlaces"] = str(dp)
    else:
        attrs[f"Amount{amount_type}"] = _decimal(int(minor), int(scale))
    attrs["CurrencyCode"] = currency
    return attrs


def _decimal(minor: int, scale: int) -> str:
    if scale == 0:
        return str(minor)
    sign = "-" if minor < 0 else ""
    digits = str(abs(minor)).rjust(scale + 1, "0")
    return f"{sign}{digits[:-scale]}.{digits[-scale:]}"


def weekday_attributes(mask: int, spelling: str = "ota") -> dict[str, str]:
    """``StatusApplicationControl`` weekday flags for a mask (bit 0 = Monday); none for every day."""
    if mask == ALL_DAYS:
        return {}
    names = SPELLINGS[spelling]
    return {name: ("true" if mask >> i & 1 else "false") for i, name in enumerate(names)}


def vector_amounts(prices: pd.DataFrame) -> dict[int, list[dict[str, str]]]:
    """BaseByGuestAmt attribute dicts for each price vector (built once, shared by messages)."""
    out: dict[int, list[dict[str, str]]] = {}
    cols = [prices[c].tolist() for c in ("vector", "amount_type", "amount_minor", "amount_scale", "decimal_places",
                                         "currency_code", "number_of_guests")]
    for vec, kind, minor, scale, dp, cur, guests in zip(*cols, strict=True):
        out.setdefault(int(vec), []).append(amount_attributes(kind, minor, scale, dp, cur, guests))
    return out


def build_request(hotel_code: int, messages: pd.DataFrame, amounts: dict[int, list[dict[str, str]]],
                  timestamp: dt.datetime | None = None, echo_token: str | None = None,
                  spelling: str = "ota") -> etree._Element:
    """The request element for one hotel's messages (normally one calendar month)."""
    return build_from_lists(hotel_code, messages["start"].dt.strftime("%Y-%m-%d").tolist(),
                            messages["end"].dt.strftime("%Y-%m-%d").tolist(), messages["inv_type_code"].tolist(),
                            messages["rate_plan_code"].tolist(), messages["mask"].tolist(),
                            messages["vector"].tolist(), amounts, timestamp, echo_token, spelling)


_WEEKDAYS: dict[tuple[int, str], dict[str, str]] = {}


def build_from_lists(hotel_code: int, starts: Sequence[str], ends: Sequence[str], rooms: Sequence[object],
                     rates: Sequence[object], masks: Sequence[int], vectors: Sequence[int],
                     amounts: dict[int, list[dict[str, str]]], timestamp: dt.datetime | None = None,
                     echo_token: str | None = None, spelling: str = "ota") -> etree._Element:
    """As :func:`build_request`, from plain lists (the fast path for many requests). The n-th
    message (1-based) gets ``LocatorID="n"``."""
    if spelling not in SPELLINGS:
        raise ValueError(f"weekday spelling `{spelling}` is not one of {', '.join(SPELLINGS)}")
    ts = (timestamp or dt.datetime.now(dt.UTC)).isoformat(timespec="seconds")
    root_attrs = {"Version": VERSION, "TimeStamp": ts}
    if echo_token:
        root_attrs["EchoToken"] = echo_token
    root = etree.Element(ROOT, root_attrs, nsmap={None: OTA_NS})
    msgs = etree.SubElement(root, _T["RateAmountMessages"], {"HotelCode": str(int(hotel_code))})
    sub = etree.SubElement
    t_msg, t_sac, t_rates, t_rate, t_amts, t_amt = (_T[n] for n in (
        "RateAmountMessage", "StatusApplicationControl", "Rates", "Rate", "BaseByGuestAmts", "BaseByGuestAmt"))
    for n, (start, end, room, rate, mask, vec) in enumerate(zip(starts, ends, rooms, rates, masks, vectors,
                                                                 strict=True), start=1):
        msg = sub(msgs, t_msg, {"LocatorID": str(n)})
        attrs = {"Start": start, "End": end, "RatePlanCode": str(rate), "InvTypeCode": str(room)}
        if mask != ALL_DAYS:
            days = _WEEKDAYS.get((mask, spelling))
            if days is None:
                days = _WEEKDAYS[(mask, spelling)] = weekday_attributes(mask, spelling)
            attrs.update(days)
        sub(msg, t_sac, attrs)
        amts = sub(sub(sub(msg, t_rates), t_rate), t_amts)
        for a in amounts[vec]:
            sub(amts, t_amt, a)
    return root


_PLAIN = re.compile(r"[A-Za-z0-9_.:+/ -]*")  # attribute text that lxml writes as it is (no escaping)
_DAY_TEXT: dict[tuple[int, str], str] = {}  # (weekday mask, spelling) -> ` Mon="true" ...` ("" for every day)


def _attributes(attrs: dict[str, str]) -> str | None:
    """``name="value"`` pairs as lxml writes them, or None when a value would need escaping."""
    if not all(_PLAIN.fullmatch(v) for v in attrs.values()):
        return None
    return "".join(f' {k}="{v}"' for k, v in attrs.items())


def build_bytes_from_lists(hotel_code: int, starts: Sequence[str], ends: Sequence[str], rooms: Sequence[object],
                           rates: Sequence[object], masks: Sequence[int], vectors: Sequence[int],
                           amounts: dict[int, list[dict[str, str]]], timestamp: dt.datetime | None = None,
                           echo_token: str | None = None, spelling: str = "ota",
                           fragments: dict[int, str | None] | None = None) -> bytes:
    """``to_bytes(build_from_lists(...))``, byte for byte, written from templates: one string per
    message instead of seven lxml elements. Text that would need escaping (or that lxml refuses)
    takes the lxml path for the whole request. ``fragments`` caches each vector's amounts across calls
    with the same ``amounts``."""
    if spelling not in SPELLINGS:
        raise ValueError(f"weekday spelling `{spelling}` is not one of {', '.join(SPELLINGS)}")
    ts = (timestamp or dt.datetime.now(dt.UTC)).isoformat(timespec="seconds")
    fragments = {} if fragments is None else fragments

    def by_lxml() -> bytes:
        return to_bytes(build_from_lists(hotel_code, starts, ends, rooms, rates, masks, vectors, amounts, timestamp,
                                         echo_token, spelling))

    head = _attributes({"Version": VERSION, "TimeStamp": ts, **({"EchoToken": echo_token} if echo_token else {})})
    if head is None or not len(starts):
        return by_lxml()
    parts = [f"<?xml version='1.0' encoding='UTF-8'?>\n<OTA_HotelRateAmountNotifRQ xmlns=\"{OTA_NS}\"{head}>"
             f'<RateAmountMessages HotelCode="{int(hotel_code)}">']
    checked: dict[str, bool] = {}  # each distinct value is looked at once

    def plain(v: str) -> bool:
        ok = checked.get(v)
        if ok is None:
            ok = checked[v] = _PLAIN.fullmatch(v) is not None
        return ok

    for n, (start, end, room, rate, mask, vec) in enumerate(zip(starts, ends, rooms, rates, masks, vectors,
                                                                 strict=True), start=1):
        rate_text, room_text = str(rate), str(room)
        if not (plain(start) and plain(end) and plain(rate_text) and plain(room_text)):
            return by_lxml()
        days = _DAY_TEXT.get((mask, spelling))
        if days is None:
            days = _DAY_TEXT[(mask, spelling)] = "" if mask == ALL_DAYS else \
                "".join(f' {k}="{v}"' for k, v in weekday_attributes(mask, spelling).items())
        if vec not in fragments:
            each = [_attributes(x) for x in amounts[vec]]
            fragments[vec] = None if any(e is None for e in each) else "".join(
                f"<BaseByGuestAmt{e}/>" for e in each)
        amts = fragments[vec]
        if amts is None:
            return by_lxml()
        parts.append(f'<RateAmountMessage LocatorID="{n}"><StatusApplicationControl Start="{start}" End="{end}" '
                     f'RatePlanCode="{rate_text}" InvTypeCode="{room_text}"{days}/><Rates><Rate>'
                     + (f"<BaseByGuestAmts>{amts}</BaseByGuestAmts>" if amts else "<BaseByGuestAmts/>")
                     + "</Rate></Rates></RateAmountMessage>")
    parts.append("</RateAmountMessages></OTA_HotelRateAmountNotifRQ>")
    return "".join(parts).encode()


def to_bytes(root: etree._Element) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def parse_request_messages(body: bytes | etree._Element) -> list[dict[str, object]]:
    """Read a request back into plain messages (for checks and tests): one dict per message with
    ``hotel_code, locator, start, end, rate_plan_code, inv_type_code, days`` (weekday rules applied)
    and ``amounts`` (list of BaseByGuestAmt attribute dicts). Accepts either weekday spelling."""
    from workbench.ota.ns import localname, parse_xml

    root = parse_xml(body) if isinstance(body, bytes) else body
    out = []
    for msgs in root.iter():
        if localname(msgs) != "RateAmountMessages":
            continue
        hotel = msgs.get("HotelCode")
        for msg in msgs:
            if localname(msg) != "RateAmountMessage":
                continue
            sac = next(el for el in msg if localname(el) == "StatusApplicationControl")
            flags = [_flag(sac, names) for names in (("Mon",), ("Tue",), ("Weds", "Wed"), ("Thur", "Thu"), ("Fri",),
                                                     ("Sat",), ("Sun",))]
            days = [True] * 7 if not any(f is True for f in flags) else [f is True for f in flags]
            amounts = [dict(el.attrib) for el in msg.iter() if localname(el) == "BaseByGuestAmt"]
            out.append({"hotel_code": int(hotel) if hotel else None, "locator": msg.get("LocatorID"),
                        "start": sac.get("Start"), "end": sac.get("End"),
                        "rate_plan_code": sac.get("RatePlanCode"), "inv_type_code": sac.get("InvTypeCode"),
                        "days": days, "amounts": amounts})
    return out


def _flag(el: etree._Element, names: Sequence[str]) -> bool | None:
    for n in names:
        v = el.get(n)
        if v is not None:
            return v.strip().lower() in ("1", "true")
    return None
