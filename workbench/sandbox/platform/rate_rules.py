"""``OTA_HotelRateAmountNotif`` as the platform answers it: every rule of the rates catalog (the
handler is :mod:`workbench.sandbox.platform.families.rates`).

:meth:`RateRules.check` turns a parsed request into the cells to store, or into errors.
A request with any error changes nothing; warnings (``WARN_DUPLICATE_DATES``) accompany
success. Amounts are exact ``Decimal`` values, stored in canonical text (``85.5``, ``100``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from lxml import etree

from workbench.ota import localname
from workbench.sandbox.platform.fx import PRICE_CAP_EUR, FXTable
from workbench.sandbox.platform.issues import Issue
from workbench.sandbox.platform.seed import Registry
from workbench.sandbox.platform.store import NO_GUESTS

#: Weekday attribute -> Python weekday number; both the spec's and OTA 2003B's spellings.
WEEKDAYS: dict[str, int] = {"Mon": 0, "Tue": 1, "Wed": 2, "Weds": 2, "Thu": 3, "Thur": 3, "Fri": 4, "Sat": 5, "Sun": 6}
_DECIMAL = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
_INTEGER = re.compile(r"^\+?\d+$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TRUE, _FALSE = ("true", "1"), ("false", "0")


@dataclass
class RatesOutcome:
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    #: ``(hotel, room, rate, date, guests, amount, currency, amount_type)`` rows to store
    cells: list[tuple[int, str, str, str, int, str, str, str]] = field(default_factory=list)


def canonical_amount(value: Decimal) -> str:
    """Plain decimal text without exponent or trailing zeros: ``85.50`` -> ``85.5``, ``1E+2`` -> ``100``."""
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "") else text


def date_window(today: date) -> tuple[date, date]:
    """Accepted rate dates: from 1 day before ``today`` (CET/CEST) to 5 years ahead, inclusive."""
    try:
        last = today.replace(year=today.year + 5)
    except ValueError:  # 29 February
        last = today.replace(year=today.year + 5, day=28)
    return today - timedelta(days=1), last


def _attrs(el: etree._Element) -> dict[str, str]:
    return {k.rsplit("}", 1)[-1]: v.strip() for k, v in el.attrib.items()}


def _children(el: etree._Element, name: str) -> list[etree._Element]:
    return [c for c in el if isinstance(c.tag, str) and localname(c) == name]


def _details(hotel: object, room: object = None, rate: object = None, dates: str | None = None, **more: object) -> str:
    parts = [f"hotel_id={hotel}"]
    if room is not None:
        parts.append(f"room_id={room}")
    if rate is not None:
        parts.append(f"rate_id={rate}")
    if dates:
        parts.append(f"dates={dates}")
    parts += [f"{k}={v}" for k, v in more.items()]
    return "; ".join(parts)


def _parse_amount(a: dict[str, str]) -> tuple[Decimal | None, str, str | None]:
    """(amount, amount_type, problem)."""
    after, before = a.get("AmountAfterTax"), a.get("AmountBeforeTax")
    if after is not None and before is not None:
        return None, "", "AMOUNT_BEFORE_AND_AFTER_TAX"
    if after is None and before is None:
        return None, "", "AMOUNT_MISSING"
    text, kind = (after, "AfterTax") if after is not None else (before, "BeforeTax")
    places = a.get("DecimalPlaces")
    if places is not None:
        if not _INTEGER.match(places) or int(places) > 10 or not _INTEGER.match(text or ""):
            return None, kind, "INVALID_AMOUNT"
        return Decimal(int(text)).scaleb(-int(places)), kind, None  # type: ignore[arg-type]
    if not _DECIMAL.match(text or "") or (text or "").startswith("-"):
        return None, kind, "INVALID_AMOUNT"
    return Decimal(text), kind, None  # type: ignore[arg-type]


def weekdays_of(a: dict[str, str]) -> tuple[frozenset[int] | None, str | None]:
    """Selected weekdays by the spec's three rules, or a problem text."""
    flags: dict[int, bool] = {}
    for name, day in WEEKDAYS.items():
        raw = a.get(name)
        if raw is None:
            continue
        value = raw.lower()
        if value not in _TRUE + _FALSE:
            return None, f"`{name}=\"{raw}\"` is not true/false/1/0"
        flag = value in _TRUE
        if day in flags and flags[day] != flag:
            return None, f"`{name}` contradicts the other spelling of the same weekday"
        flags[day] = flag
    if any(flags.values()):
        return frozenset(d for d, f in flags.items() if f), None  # rule 1: omitted days are false
    return frozenset(range(7)), None  # rule 2 (only falses) and rule 3 (none given): every day


class RateRules:
    """The registry-backed checks; build once per registry, call :meth:`check` per request."""

    def __init__(self, registry: Registry, fx: FXTable) -> None:
        self.fx = fx
        self.properties = {p.hotel_code: p for p in registry.properties}
        self.rooms = {(r.hotel_code, r.inv_type_code): r for r in registry.rooms}
        self.links = {(r.hotel_code, r.inv_type_code, r.rate_plan_code): r for r in registry.room_rates}
        self.rate_codes = {(r.hotel_code, r.rate_plan_code) for r in registry.room_rates}

    def check(self, root: etree._Element, today: date) -> RatesOutcome:
        out = RatesOutcome()
        err = out.errors.append
        if localname(root) != "OTA_HotelRateAmountNotifRQ":
            err(Issue("INVALID_REQUEST", f"expected OTA_HotelRateAmountNotifRQ, got {localname(root) or 'no element'}"))
            return out
        groups = _children(root, "RateAmountMessages")
        if len(groups) != 1:
            err(Issue("MULTIPLE_HOTELS" if groups else "INVALID_REQUEST",
                      "send exactly one RateAmountMessages (one hotel per request)"))
            return out
        raw_hotel = _attrs(groups[0]).get("HotelCode") or _attrs(root).get("HotelCode")
        if not raw_hotel:
            err(Issue("MISSING_HOTEL_CODE", "RateAmountMessages needs a HotelCode"))
            return out
        prop = self.properties.get(int(raw_hotel)) if raw_hotel.isdigit() else None
        if prop is None:
            err(Issue("UNKNOWN_HOTEL", "the property does not exist or is not connected to this account",
                      _details(raw_hotel)))
            return out
        messages = _children(groups[0], "RateAmountMessage")
        if not messages:
            err(Issue("INVALID_REQUEST", "no RateAmountMessage in the request", _details(prop.hotel_code)))
        first, last = date_window(today)
        seen: dict[tuple[str, str, str, int], int | str] = {}
        duplicates: dict[tuple[int | str, str, str], list[str]] = {}
        cap = self.fx.cap(prop.currency)
        for n, msg in enumerate(messages, start=1):
            locator = _attrs(msg).get("LocatorID")
            self._message(locator or n, msg, prop, first, last, cap, seen, duplicates, out)
        if out.errors:
            out.cells.clear()
            return out
        for (record, room, rate), dates in duplicates.items():
            out.warnings.append(Issue("WARN_DUPLICATE_DATES", "dates repeated in the request; only the first "
                                      "occurrence is applied", _details(prop.hotel_code, room, rate,
                                                                        _ranges(dates)), record))
        return out

    def _message(self, n: int | str, msg: etree._Element, prop, first: date, last: date, cap: Decimal | None,
                 seen: dict, duplicates: dict, out: RatesOutcome) -> None:
        hotel = prop.hotel_code
        err = out.errors.append
        controls = _children(msg, "StatusApplicationControl")
        if len(controls) != 1:
            err(Issue("INVALID_REQUEST", "each RateAmountMessage needs one StatusApplicationControl",
                      _details(hotel), n))
            return
        a = _attrs(controls[0])
        missing = [k for k in ("Start", "End", "RatePlanCode", "InvTypeCode") if not a.get(k)]
        if missing:
            err(Issue("MISSING_ATTRIBUTE", f"StatusApplicationControl lacks {', '.join(missing)}", _details(hotel), n))
            return
        room, rate, span = a["InvTypeCode"], a["RatePlanCode"], f"{a['Start']}..{a['End']}"
        where = _details(hotel, room, rate, span)
        try:
            if not (_DATE.match(a["Start"]) and _DATE.match(a["End"])):
                raise ValueError
            start, end = date.fromisoformat(a["Start"]), date.fromisoformat(a["End"])
        except ValueError:
            err(Issue("INVALID_DATE", "Start and End must be dates written YYYY-MM-DD", where, n))
            return
        ok = True
        if start > end:
            err(Issue("INVALID_DATE_RANGE", "Start is after End", where, n))
            ok = False
        elif start < first or end > last:
            err(Issue("DATE_OUT_OF_RANGE", f"dates must lie from {first} (1 day in the past, CET) to {last} "
                      "(5 years ahead)", where, n))
            ok = False
        days, problem = weekdays_of(a)
        if problem:
            err(Issue("INVALID_WEEKDAY_FLAG", problem, where, n))
            ok = False
        room_row = self.rooms.get((hotel, room))
        link = self.links.get((hotel, room, rate))
        if room_row is None:
            err(Issue("UNKNOWN_ROOM", "the room type does not exist for this property", where, n))
            ok = False
        elif (hotel, rate) not in self.rate_codes:
            err(Issue("UNKNOWN_RATE_PLAN", "the rate plan does not exist for this property", where, n))
            ok = False
        elif link is None or not link.active:
            err(Issue("RATE_NOT_ACTIVE_FOR_ROOM", "the rate plan is not active for the room", where, n))
            ok = False
        elif link.read_only:
            err(Issue("RATE_READ_ONLY", "the rate plan is read-only; its prices cannot be set", where, n))
            ok = False
        elif link.parent_rate_plan_code and link.follows_price:
            err(Issue("CHILD_RATE_FOLLOWS_PRICE", f"the rate plan is a child rate that follows the price of "
                      f"rate {link.parent_rate_plan_code}; set the price on the parent rate", where, n))
            ok = False
        amounts = [b for r in _children(msg, "Rates") for rr in _children(r, "Rate")
                   for g in _children(rr, "BaseByGuestAmts") for b in _children(g, "BaseByGuestAmt")]
        if not amounts:
            err(Issue("AMOUNT_MISSING", "Rates > Rate > BaseByGuestAmts > BaseByGuestAmt is required", where, n))
            return
        prices: list[tuple[int, str, str]] = []
        for b in amounts:
            priced = self._amount(n, _attrs(b), prop, room_row, cap, where, out)
            if priced is not None:
                prices.append(priced)
        if not ok or out.errors or days is None:
            return
        d = start
        selected = 0
        while d <= end:
            if d.weekday() in days:
                selected += 1
                iso = d.isoformat()
                for guests, amount, kind in prices:
                    key = (room, rate, iso, guests)
                    if key in seen:
                        duplicates.setdefault((n, room, rate), []).append(iso)
                        continue
                    seen[key] = n
                    out.cells.append((hotel, room, rate, iso, guests, amount, prop.currency, kind))
            d += timedelta(days=1)
        if not selected:
            out.warnings.append(Issue("WARN_NO_DATES_SELECTED", "the weekday flags select no date in the range",
                                      where, n))

    def _amount(self, n: int | str, a: dict[str, str], prop, room_row, cap: Decimal | None, where: str,
                out: RatesOutcome) -> tuple[int, str, str] | None:
        err = out.errors.append
        amount, kind, problem = _parse_amount(a)
        texts = {"AMOUNT_BEFORE_AND_AFTER_TAX": "send AmountAfterTax or AmountBeforeTax, not both",
                 "AMOUNT_MISSING": "BaseByGuestAmt needs AmountAfterTax or AmountBeforeTax",
                 "INVALID_AMOUNT": "the amount must be a non-negative decimal (an integer when DecimalPlaces is given)"}
        if problem:
            err(Issue(problem, texts[problem], f"{where}; amount={a.get('AmountAfterTax', a.get('AmountBeforeTax'))}", n))
        currency = a.get("CurrencyCode")
        if not currency:
            err(Issue("MISSING_CURRENCY", "BaseByGuestAmt needs a CurrencyCode", where, n))
        elif currency.upper() != prop.currency:
            err(Issue("CURRENCY_MISMATCH", f"CurrencyCode must be the property's currency {prop.currency}",
                      f"{where}; currency={currency}", n))
        if amount is not None:
            if cap is None:
                err(Issue("FX_RATE_MISSING", f"no exchange rate for {prop.currency}: the price cap cannot be checked",
                          where, n))
            elif amount > cap:
                err(Issue("PRICE_ABOVE_MAXIMUM", f"the price exceeds the maximum of {PRICE_CAP_EUR} EUR per night "
                          f"({canonical_amount(cap)} {prop.currency})", f"{where}; amount={canonical_amount(amount)}", n))
        guests_raw = a.get("NumberOfGuests")
        guests = NO_GUESTS
        if guests_raw is not None:
            if prop.pricing_model == "Standard":
                err(Issue("GUESTS_NOT_ALLOWED", "NumberOfGuests is only for occupancy based (OBP) or length of stay "
                          "(LOS) pricing; this property uses standard pricing", where, n))
            elif not _INTEGER.match(guests_raw) or int(guests_raw) < 1:
                err(Issue("INVALID_NUMBER_OF_GUESTS", "NumberOfGuests must be a whole number of at least 1",
                          f"{where}; guests={guests_raw}", n))
            elif room_row is not None and int(guests_raw) > room_row.max_adults:
                err(Issue("GUESTS_ABOVE_MAX_ADULTS", f"NumberOfGuests is above the room's maximum adult "
                          f"occupancy ({room_row.max_adults})", f"{where}; guests={guests_raw}", n))
            else:
                guests = int(guests_raw)
        if problem or amount is None:
            return None
        return guests, canonical_amount(amount), kind


def _ranges(dates: list[str]) -> str:
    """``2027-01-01,2027-01-02,2027-01-05`` -> ``2027-01-01..2027-01-02,2027-01-05``."""
    days = sorted({date.fromisoformat(d) for d in dates})
    runs: list[list[date]] = []
    for d in days:
        if runs and d - runs[-1][1] == timedelta(days=1):
            runs[-1][1] = d
        else:
            runs.append([d, d])
    return ",".join(a.isoformat() if a == b else f"{a}..{b}" for a, b in runs)
