"""Review before sending: the plan of a rates push and its price-jump warnings. Nothing is sent.

>>> from workbench import check_rates, plan_rates, Settings
>>> check = check_rates(["rates.xlsx"], as_of="2026-12-01")
>>> plan = plan_rates(check, Settings.from_file(".sandbox/connection.env"), journal=".workbench/journal.sqlite")
>>> plan.room_rates      # per property and room-rate: added, changed, unchanged, removed
>>> plan.ranges()        # the changes as date ranges with weekday masks
>>> plan.warnings        # price_jump / price_outlier warnings, on the price cells
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from expectations.price_jumps import PriceJumpLimits, price_jump_issues, read_price_jump_table
from loaders.issues import combine, empty_issues
from workbench.config import Settings
from workbench.errors import SettingsError
from workbench.transport.estimate import send_estimate
from workbench.writers import (
    DEFAULT_JOURNAL,
    RatesPlan,
    count_messages,
    diff_cells,
    empty_accepted,
    journal_mark,
    journal_targets,
    parse_price_keys,
    read_accepted,
)

if TYPE_CHECKING:
    from workbench.flows.rates import RatesCheck

OPERATION = "OTA_HotelRateAmountNotif"


def price_jump_limits(settings: Settings | None = None) -> PriceJumpLimits:
    """The price-jump limits of ``settings``: ``WORKBENCH_PRICE_JUMP_SHARE`` (default 0.5),
    ``WORKBENCH_PRICE_OUTLIER_FACTOR`` (default 10), and the per-property table named by
    ``WORKBENCH_PRICE_JUMPS_FILE`` (``HotelCode, PriceJumpShare, PriceOutlierFactor``)."""
    s = settings or Settings()
    try:
        if s.price_jumps_file:
            if not Path(s.price_jumps_file).is_file():
                raise SettingsError(f"setting `WORKBENCH_PRICE_JUMPS_FILE` names `{s.price_jumps_file}`, which does "
                                    "not exist")
            return read_price_jump_table(s.price_jumps_file, s.price_jump_share, s.price_outlier_factor)
        return PriceJumpLimits(s.price_jump_share, s.price_outlier_factor)
    except ValueError as exc:
        raise SettingsError(f"WORKBENCH_PRICE_JUMP_SHARE / WORKBENCH_PRICE_OUTLIER_FACTOR: {exc}") from None


def plan_target(settings: Settings | None, journal: str | Path, target: str | None = None) -> str:
    """The target a plan compares with: ``target``, else the settings' base URL, else the journal's
    only target ('' when the journal has none; several without a base URL cannot be chosen)."""
    chosen = (target or (settings.base_url if settings else "") or "").rstrip("/")
    if chosen:
        return chosen
    known = journal_targets(journal)
    if len(known) > 1:
        raise SettingsError(f"the journal `{journal}` holds accepted prices of {len(known)} targets "
                            f"({', '.join(known)}): say which with WORKBENCH_BASE_URL or --env-file")
    return known[0] if known else ""


def plan_rates(check: RatesCheck, settings: Settings | None = None, *, journal: str | Path = DEFAULT_JOURNAL,
               target: str | None = None, skip_invalid: bool = False, full: bool = False,
               price_jumps: bool = True, limits: PriceJumpLimits | None = None) -> RatesPlan:
    """What ``push_rates(check, settings, journal=..., skip_invalid=..., full=...)`` would do, without
    sending anything or writing the journal: per property and room-rate, cells added, changed,
    unchanged and removed from the sheet; requests, messages and the least send time at the
    configured limits; and, unless ``price_jumps=False``, the price-jump warnings (``plan.warnings``).

    The rows planned are those a push sends: no errors, no repeats, no refused property. When errors
    would stop the push (``skip_invalid`` not given), ``plan.blocked`` says so and the plan shows what
    ``skip_invalid`` would send. Accepted cells before ``check.as_of`` minus one day (nights the
    platform no longer takes) are not counted as removed.
    """
    settings = settings or Settings()
    chosen = plan_target(settings, journal, target)
    frame = check.frame.reset_index(drop=True)
    leave = check.invalid_mask() | check.repeat_mask() | check.refused_mask()
    send = frame[~leave].reset_index(drop=True)
    send.attrs = frame.attrs
    blocked = blocked_text(check, skip_invalid)
    hotels = send["hotel_code"].dropna().unique()
    mark = journal_mark(journal)
    accepted = read_accepted(journal, chosen, hotels) if chosen else empty_accepted()
    since = check.as_of - dt.timedelta(days=1)
    diff = diff_cells(send, accepted, since=since)
    delta = send if full else send[diff.send_mask]
    requests, messages = count_messages(delta)
    estimate = send_estimate(settings, OPERATION, requests)
    warnings = empty_issues()
    if price_jumps:
        limits = limits or price_jump_limits(settings)
        moved = diff.change == 1  # a jump needs another accepted price: only changed cells are compared
        before = parse_price_keys(pd.Series(diff.before[moved], dtype=object))
        warnings = combine([price_jump_issues(send, None, limits),
                            price_jump_issues(send[moved], before, limits, outliers=False)])
    return RatesPlan(chosen, Path(journal), send, diff, requests, messages, estimate, full, since,
                     int(leave.sum()), blocked, warnings, mark)


def blocked_text(check: RatesCheck, skip_invalid: bool) -> str:
    """Why a push would stop before sending ('' when nothing stops it)."""
    return "" if check.ok or skip_invalid else (
        f"{len(check.errors):,} error(s) block the push; fix them, or send only the rows without errors with "
        "`skip_invalid=True` (`--skip-invalid` on the command line; the plan shows what that would send)")


def as_pushed(plan: RatesPlan, check: RatesCheck, skip_invalid: bool) -> RatesPlan:
    """``plan`` (made with ``skip_invalid``) as a push with or without ``skip_invalid`` would follow it."""
    return dataclasses.replace(plan, blocked=blocked_text(check, skip_invalid))


def with_warnings(check: RatesCheck, warnings: pd.DataFrame) -> RatesCheck:
    """``check`` with ``warnings`` (e.g. ``plan.warnings``) among its issues, so its summaries and
    reports show them; warnings never block a push."""
    if warnings.empty:
        return check
    return dataclasses.replace(check, issues=combine([check.issues, warnings]))


def with_row_warnings(rows: pd.DataFrame, warnings: pd.DataFrame) -> pd.DataFrame:
    """A push's ``rows`` with ``warnings`` (``plan.warnings``) on the lines of the cells they concern:
    the rule added to ``codes``, the message to ``message``, ``ok`` becoming ``warning`` (so the push
    reports mark those cells). Warnings on cells the push did not send (unchanged) have no line."""
    if warnings.empty or rows.empty:
        return rows
    keys = ["source", "sheet", "row", "column"]
    w = warnings.assign(row=warnings["row"].astype("Int64"), sheet=warnings["sheet"].fillna(""))
    w = w.groupby(keys, dropna=False, sort=False).agg(rule=("rule", ", ".join), text=("message", " | ".join))
    lines = rows.assign(row=rows["row"].astype("Int64"), sheet=rows["sheet"].fillna(""))
    found = lines[keys].merge(w.reset_index(), on=keys, how="left")
    hit = found["rule"].notna().to_numpy(bool)
    if not hit.any():
        return rows
    out = rows.copy()
    codes = out["codes"].fillna("").astype(str).to_numpy(object)
    message = out["message"].fillna("").astype(str).to_numpy(object)
    rule, text = found["rule"].to_numpy(object), found["text"].to_numpy(object)
    out.loc[hit, "codes"] = [f"{c}, {r}" if c else r for c, r in zip(codes[hit], rule[hit], strict=True)]
    out.loc[hit, "message"] = [f"{m} | {t}" if m else t for m, t in zip(message[hit], text[hit], strict=True)]
    out.loc[hit & (out["severity"] == "ok").to_numpy(bool), "severity"] = "warning"
    return out
