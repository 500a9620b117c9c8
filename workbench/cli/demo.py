"""``workbench demo``: samples -> validation reports -> requests -> a live push
to the local sandbox over HTTPS -> a changed copy pushed as a delta -> availability pushed, read back and
reconciled (step 4b) -> notifications arriving.

Every step checks what it expected and the demo fails loudly (exit 1) if anything differs,
so it doubles as a smoke test on a fresh machine. It needs no account and no network.

Step 6 checks property health on what the pushes left on the sandbox, after a small "health
seed" pushed with them: December prices for Kraków with the three nights of Christmas left unpriced,
and its triple room closed (priced 0) from 16 January, so its prices end next month.

Step 7 is property content (E4): the sample content workbook is checked (its deliberate
problems found), a copy with each problem fixed is pushed to the sandbox, and the new properties'
HotelCodes are written into that copy. The demo's date (1 December 2026) is before the content operation's
sunset, so step 7 uses it; step 8 shows the other side: a second sandbox whose date is set past the sunset
(``MODULAR_AS_OF``, 31 December 2026) takes the same workbook through the modular JSON APIs (the default of
``push content`` from that day), reads it back with GET into the workbook's layout, and a second push of what
was read sends nothing.
The last step (9) is room types after 2026-12-31 for a Home provider: the Rooms and Facilities APIs (two units
created in one bulk request, read back as a workbook, one cell changed and pushed: one call), with no InvNotif or
DescriptiveInfo call.
"""

from __future__ import annotations

import datetime as dt
import io
import shutil
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from workbench.cli.console import console as default_console
from workbench.paths import SAMPLES

if TYPE_CHECKING:
    import pandas as pd

DEMO_AS_OF = dt.date(2026, 12, 1)
#: step 8's platform date: past the content operation's sunset (2026-12-31), so the modular APIs are the way
MODULAR_AS_OF = dt.date(2026, 12, 31)
SAMPLE_RATES = [SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv"]
SAMPLE_REGISTRY = SAMPLES / "registry.xlsx"
#: the deliberate problems in the samples (data/samples/README.md), by rule
EXPECTED_ERRORS = {"not_a_number", "rate_not_active_for_room", "child_rate_follows_price", "read_only_rate",
                   "date_window", "price_cap", "property_currency", "price_negative", "guests_max", "date_order"}
#: warnings the samples must show too (a repeated night is sent once: the first in file order)
EXPECTED_WARNINGS = {"duplicate_key", "currency_decimals", "coverage"}
#: the changed copy: one week of Amsterdam's standard double room, 10 EUR more
CHANGED_WEEK = (dt.date(2027, 2, 8), dt.date(2027, 2, 14))
#: the health seed: Kraków's December without Christmas, and its triple room closed from this night on
SEED_GAP = (dt.date(2026, 12, 24), dt.date(2026, 12, 26))
SEED_CLOSED_FROM = dt.date(2027, 1, 16)
#: what the health step must find on the demo's state (docs/health.md), and the property with nothing to fix
EXPECTED_HEALTH = {"not_priced", "gap", "ending_soon", "closed", "short_of_year"}
HEALTHY_PROPERTY = 1000004
SAMPLE_CONTENT = SAMPLES / "content.xlsx"
SAMPLE_AVAILABILITY = SAMPLES / "availability.xlsx"
SAMPLE_ROOMS = SAMPLES / "platform_rooms.xlsx"
#: the availability sample's deliberate errors (data/samples/README.md)
EXPECTED_AVAILABILITY_ERRORS = {"not_a_number", "not_a_flag", "rooms_to_sell_range", "stay_nights", "min_above_max",
                                "rate_plan_required", "rooms_to_sell_per_room_type", "los_pricing_restriction",
                                "unknown_room", "rate_not_active_for_room", "date_window"}
#: the content sample's deliberate errors (data/samples/README.md) with the platform's lists and request to book on
EXPECTED_CONTENT_ERRORS = {"floors_max", "name_all_caps", "coordinates_country", "tax_category_not_allowed",
                           "postcode_country", "phone_extension", "phone_format", "fee_condition_required",
                           "tax_number_check_digits", "birth_date_required", "phrase_options_required",
                           "sunset_element"}  # attractions and transport: the platform refuses them since 2023
#: one fix per deliberate problem: (sheet, the row's key {header: value}, header, new value)
CONTENT_FIXES: list[tuple[str, dict[str, object], str, object]] = [
    ("Property", {"HotelCode": 1000004}, "TotalNumberOfFloors", 12),
    ("Property", {"ID": "PORTO-01"}, "HotelName", "Casa do Rio Porto"),
    ("Property", {"ID": "PORTO-01"}, "Latitude", 41.1413),  # Porto, not Vigo
    ("Property", {"ID": "PORTO-01"}, "Longitude", -8.6186),
    ("Property", {"ID": "BR-SP-01"}, "PropertyTaxCategory", None),
    ("Contacts", {"HotelCode": 1000004, "ContactProfileType": "PhysicalLocation"}, "PostalCode", "1100-016"),
    ("Contacts", {"HotelCode": 1000004, "ContactProfileType": "general"}, "Extension", None),
    ("Contacts", {"PhoneNumber": "0031206246000"}, "PhoneNumber", "+31206246000"),
    ("Fees", {"ID": "PORTO-01"}, "Conditions", "guest_doesnt_clean_before_checkout"),
    ("Invoice", {"ID": "BR-RJ-02"}, "InvoiceTaxNumber", "529.982.247-25"),
    ("Invoice", {"ID": "BR-RJ-02"}, "BirthDate", "1978-05-17"),
    ("Phrases", {"HotelCode": 1000004, "StandardPhrase": "Renovation"}, "OptionName", "RenovationFrom"),
    ("Phrases", {"HotelCode": 1000004, "StandardPhrase": "Renovation"}, "OptionValue", "2027-01-10"),
]

#: what the modular APIs refuse beyond the content operation's rules: a meal priced 0 (a meal's price is 0.1 at
#: least; an included breakfast has no price field), request to book in the Netherlands
MODULAR_FIXES: list[tuple[str, dict[str, object], str, object]] = [
    ("Services", {"ID": "BR-SP-01", "Code": 173}, "Price", 12),
    # request to book is "currently only" for fr, au, us, it, de, gb and es (Property settings, booking_model)
    ("Property", {"ID": "RTB-AMS-01"}, "BookingModel", None),
]
#: the sheets no modular API takes (attractions, relative positions: sunset 2023-06-30)
MODULAR_DROPPED = ("Attractions", "Transport")


class DemoFailed(RuntimeError):
    """A demo step did not produce what it should have."""


class Written:
    """Every file and folder the demo writes, named as it is written and listed again at the end."""

    def __init__(self, out: Path, console: Console) -> None:
        self.out, self.console = out, console
        self.items: list[tuple[Path, str]] = []

    def __call__(self, path: Path, what: str) -> Path:
        self.items.append((Path(path), what))
        self.console.print(f"  {what}: {self._name(path)}")
        return Path(path)

    def _name(self, path: Path) -> str:
        try:
            return str(Path(path).resolve().relative_to(self.out.resolve())) + ("/" if Path(path).is_dir() else "")
        except ValueError:
            return str(path)

    def listing(self) -> None:
        self.console.print(f"\nFiles written in [bold]{self.out.resolve()}[/]:")
        for path, what in self.items:
            self.console.print(f"  {self._name(path):32} {what}")


def run_demo(out: Path, console: Console | None = None, live: bool = True, notifications: bool = True,
             health: bool = True, content: bool = True, rooms: bool = True) -> bool:
    console = console or Console()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    wrote = Written(out, console)
    try:
        check = _validate(out, console, wrote)
        _dry_run(check, out, console, wrote)
        target = _live(out, console, wrote) if live else None
        if notifications:
            _notifications(out, console, wrote)
        if health and target:
            _health(out, console, target, wrote)
        if live and content:
            _content(out, console, wrote)
            _content_modular(out, console, wrote)
        if live and rooms:
            _rooms_modular(out, console, wrote)
    except DemoFailed as exc:
        console.print(f"[bold red]Demo failed:[/] {exc}")
        if wrote.items:
            wrote.listing()
        return False
    wrote.listing()
    console.print(f"\n[bold green]Demo complete.[/] Everything is in [bold]{out.resolve()}[/]")
    return True


def _validate(out: Path, console: Console, wrote: Written):
    from workbench.flows import check_rates
    from workbench.reports.validation import ReportContext, write_report

    console.rule("1. Load and validate the sample rates")
    with console.status("Reading and checking the samples…"):
        check = check_rates(SAMPLE_RATES, registry=SAMPLE_REGISTRY, as_of=DEMO_AS_OF)
    found = set(check.errors["rule"])
    console.print(f"{len(check.frame):,} prices from {len(check.files)} files; as of {DEMO_AS_OF} (CET): "
                  f"[red]{len(check.errors)} errors[/], [yellow]{len(check.warnings)} warnings[/]")
    console.print(check.summary().to_string(index=False))
    if found != EXPECTED_ERRORS:
        raise DemoFailed(f"expected the sample's deliberate problems {sorted(EXPECTED_ERRORS)}, found {sorted(found)}")
    warned = set(check.warnings["rule"])
    if not EXPECTED_WARNINGS <= warned or "not_checked" in warned:
        raise DemoFailed(f"expected the warnings {sorted(EXPECTED_WARNINGS)} (and no `not_checked`: the registry "
                         f"gives every fact), found {sorted(warned)}")
    ctx = ReportContext(title="Rates validation (sample data)", files=check.files, as_of=check.as_of,
                        rows_checked=len(check.frame))
    for ext, what in (("html", "validation report (open in a browser)"),
                      ("xlsx", "validation report: your sheets with the failing cells marked"),
                      ("csv", "validation report: every issue, one per line")):
        wrote(write_report(check.issues, out / f"rates-validation.{ext}", ctx, rates=check.frame), what)
    return check


def _dry_run(check, out: Path, console: Console, wrote: Written) -> None:
    from workbench.flows import rates_dry_run as dry_run

    console.rule("2. Dry run: compressed OTA requests, one hotel and month each")
    with console.status("Writing the requests…"):
        result = dry_run(check, out / "requests", skip_invalid=True)
    if not result.requests or result.cells != len(check.valid_frame()):
        raise DemoFailed("the dry run did not carry every valid price")
    console.print(f"{len(result.requests)} requests, {result.messages} messages for {result.cells:,} prices "
                  f"({result.cells / max(result.messages, 1):.1f} prices per message); "
                  f"{result.skipped_rows} prices with errors left out, {result.repeated_rows} repeated price(s) "
                  "not written (the first in file order is)")
    wrote(result.directory, f"{len(result.requests)} request files (.xml), one per hotel and month")
    wrote(result.directory / "manifest.csv", "the requests and the spreadsheet rows behind each")


def _live(out: Path, console: Console, wrote: Written) -> str:
    from loaders import read_registry
    from workbench.flows import check_rates, push_rates
    from workbench.platform import fetch_registry
    from workbench.reports.push import write_push_report
    from workbench.reports.text import money
    from workbench.sandbox import run_sandbox

    console.rule("3. Live push to the local sandbox (HTTPS on 127.0.0.1)")
    state = out / "sandbox"
    journal = out / "journal.sqlite"
    shutil.rmtree(state, ignore_errors=True)  # a fresh platform and journal each demo
    for suffix in ("", "-wal", "-shm", ".lock", ".lock.json"):
        Path(str(journal) + suffix).unlink(missing_ok=True)
    with run_sandbox(state, today=DEMO_AS_OF, auth="platform") as sb:
        console.print("a sandbox of the platform serves HTTPS on 127.0.0.1 for steps 3 and 4 (stopped after them)")
        wrote(state, "the sandbox's state: its database, TLS files (test CA)")
        wrote(sb.connection_file, "the sandbox's client settings (kept for the record; the sandbox is stopped)")
        settings = sb.settings
        hotels = [1000001, 1000002, 1000003, 1000004]
        with console.status("Reading rooms and rate plans from the platform…"):
            platform = fetch_registry(settings, hotels)
        console.print(f"read {len(platform.rooms)} rooms and {len(platform.room_rates)} room-rates from the platform "
                      f"({int(platform.room_rates['is_child_rate'].sum())} child rates, "
                      f"{int(platform.room_rates['read_only'].sum())} read-only); the registry workbook adds what it "
                      "does not send: currency, pricing model, FollowsPrice, MaxAdultOccupancy")
        registry = read_registry(SAMPLE_REGISTRY).merge(platform)
        with console.status("Checking and pushing the samples…"):
            check = check_rates(SAMPLE_RATES, registry=registry, as_of=DEMO_AS_OF)
            result = push_rates(check, settings, journal=journal, skip_invalid=True, progress=False,
                                command="demo: push samples")
        console.print(result.summary())
        wrote(journal, "the push journal (SQLite): every request, its outcome, the accepted prices")
        wrote(Path(str(journal) + ".lock"), "the journal's lock: one push on the journal at a time")
        if not result.ok:
            raise DemoFailed("the sandbox refused or failed requests: " + "; ".join(
                result.requests.loc[result.requests["outcome"] != "success", "texts"].head(3)))
        accepted = _calendar(sb)
        if len(accepted) != len(check.valid_frame()):
            raise DemoFailed(f"the sandbox holds {len(accepted)} prices, expected {len(check.valid_frame())}")
        console.print(f"the sandbox's calendar holds all {len(accepted):,} valid prices "
                      f"(ruid of the first request: {result.requests['ruid'].iloc[0]})")
        for ext, what in (("html", "push report (open in a browser)"),
                          ("xlsx", "push report: your sheets marked, Requests and Rows sheets"),
                          ("csv", "push report: every spreadsheet row sent, with its outcome and ruid")):
            wrote(write_push_report(result, out / f"push-report.{ext}"), what)

        console.rule("4. Push a changed copy: only the change is sent")
        changed = wrote(_changed_copy(out / "rates-changed.xlsx"), "the sample workbook with one week 10 EUR dearer")
        with console.status("Checking and pushing the changed copy…"):
            check2 = check_rates([changed, SAMPLE_RATES[1]], registry=registry, as_of=DEMO_AS_OF)
            delta = push_rates(check2, settings, journal=journal, skip_invalid=True, progress=False,
                               command="demo: push changed copy")
        console.print(delta.summary())
        nights = (CHANGED_WEEK[1] - CHANGED_WEEK[0]).days + 1
        if not delta.ok or delta.cells_changed != nights:
            raise DemoFailed(f"expected exactly the {nights} changed prices to be sent, sent {delta.cells_changed}")
        week = _calendar(sb).query("HotelCode == 1000001 and InvTypeCode == '101' and RatePlanCode == '5001'")
        week = week[(week["Date"] >= CHANGED_WEEK[0].isoformat()) & (week["Date"] <= CHANGED_WEEK[1].isoformat())]
        console.print(f"{len(delta.requests)} request with {int(delta.requests['messages'].sum())} messages; the "
                      f"sandbox now has {money(sorted(set(week['Amount'])), 'EUR')} for that week")
        wrote(write_push_report(delta, out / "push-report-delta.html"), "push report of the changed copy")
        log = out / "sandbox-requests.csv"
        log.write_bytes(_download(sb, sb.requests_csv_url))
        wrote(log, "the sandbox's request log: every call it answered, with its ruid")

        _availability(sb, out, console, wrote, journal)

        seed = wrote(_health_seed(out / "health-seed.csv"), "the health seed pushed for step 6")
        check3 = check_rates([seed], registry=registry, as_of=DEMO_AS_OF)
        seeded = push_rates(check3, settings, journal=journal, progress=False, command="demo: health seed")
        if not seeded.ok:
            raise DemoFailed("the sandbox refused the health seed: " + seeded.summary())
        console.print(f"health seed for step 6 pushed ({seeded.cells_changed} prices: Kraków's December without "
                      "Christmas, its triple room closed from 16 January)")
        return result.target


def _availability(sb, out: Path, console: Console, wrote: Written, journal: Path) -> None:
    """Step 4b: the availability sample checked, its valid values pushed (one request per hotel and month),
    read back from the platform and reconciled with the journal."""
    from workbench.flows import check_availability, fetch_availability, push_availability
    from workbench.flows import reconcile_availability as reconcile
    from workbench.reports.push import write_push_report

    console.rule("4b. Availability and restrictions: rooms to sell and stay rules, pushed and read back")
    with console.status("Checking and pushing the availability sample…"):
        check = check_availability(SAMPLE_AVAILABILITY, registry=SAMPLE_REGISTRY, rooms=SAMPLE_ROOMS,
                                   as_of=DEMO_AS_OF)
        found = set(check.errors["rule"])
        if found != EXPECTED_AVAILABILITY_ERRORS:
            raise DemoFailed(f"expected the availability sample's deliberate problems "
                             f"{sorted(EXPECTED_AVAILABILITY_ERRORS)}, found {sorted(found)}")
        result = push_availability(check, sb.settings, journal=journal, skip_invalid=True, progress=False,
                                   command="demo: push availability")
    console.print(f"{len(check.frame):,} values read, [red]{len(check.errors)} errors[/] (left out); "
                  + result.summary())
    if not result.ok or result.values_changed != len(check.valid_frame()):
        raise DemoFailed("the sandbox did not accept every valid availability value: " + result.summary())
    wrote(write_push_report(result, out / "availability-push-report.html"), "availability push report")
    hotels = sorted({int(h) for h in check.valid_frame()["hotel_code"]})
    with console.status("Reading availability back and reconciling it with the journal…"):
        held = fetch_availability(sb.settings, hotels, start=DEMO_AS_OF, days=124, progress=False)
        rec = reconcile(sb.settings, hotels, journal=journal, platform=held)
    held.table().to_csv(out / "availability-read.csv", index=False)
    wrote(out / "availability-read.csv", "availability read back (roomrateavailability), one row per room (rate) "
                                         "and night")
    if not held.ok or not rec.ok:
        raise DemoFailed(f"reading availability back: {rec.summary()}")
    console.print(f"read back {len(held.frame):,} room and room-rate nights of {len(hotels)} properties in "
                  f"{len(held.results)} calls; {rec.summary()}")


def _calendar(sb) -> pd.DataFrame:
    import pandas as pd

    return pd.read_csv(io.BytesIO(_download(sb, sb.rates_csv_url)),
                       dtype={"InvTypeCode": str, "RatePlanCode": str, "Date": str})


def _download(sb, url: str) -> bytes:
    import httpx

    s = sb.settings
    with httpx.Client(verify=_ssl(str(sb.tls.ca_bundle)), auth=(s.username, s.password.reveal())) as client:
        r = client.get(url)
        r.raise_for_status()
    return r.content


def _ssl(ca: str):
    import ssl

    return ssl.create_default_context(cafile=ca)


def _changed_copy(path: Path) -> Path:
    """A copy of the sample workbook with one week 10 EUR dearer (what an analyst would change)."""
    from openpyxl import load_workbook

    wb = load_workbook(SAMPLE_RATES[0])
    ws = wb["Amsterdam"]
    for row in ws.iter_rows(min_row=2):
        hotel, room, rate, date, amount = (c.value for c in row[:5])
        if (room, rate) == ("101", "5001") and isinstance(date, dt.datetime) and \
                CHANGED_WEEK[0] <= date.date() <= CHANGED_WEEK[1] and isinstance(amount, (int, float)):
            row[4].value = amount + 10
    wb.save(path)
    return path


def _notifications(out: Path, console: Console, wrote: Written) -> None:
    console.rule("5. Notifications: token issuance and a receiver (HTTPS on 127.0.0.1)")
    try:
        from workbench.cli.notify_demo import run_notification_demo
    except ImportError as exc:  # pragma: no cover - the notify package ships with the project
        raise DemoFailed(f"the notification service is missing: {exc}") from exc
    try:
        with console.status("Serving the notification endpoints and delivering…"):
            result = run_notification_demo(out / "notify")
    except Exception as exc:  # the notify demo raises its own error with a message for people
        raise DemoFailed(f"notifications: {exc}") from exc
    console.print(result.summary)
    wrote(out / "notify" / "notify", "the notification service's state: its database, signing keys, TLS files")
    wrote(result.inbox_path, "the notifications received, one per line")


def _health_seed(path: Path) -> Path:
    """December prices for Kraków's three room-rates without the nights of ``SEED_GAP``, and 0 (closed)
    for the triple room from ``SEED_CLOSED_FROM`` to the end of its January prices."""
    import pandas as pd

    rows = []
    for room, rate, base in (("201", "6001", 320), ("202", "6001", 410), ("201", "6002", 290)):
        for day in pd.date_range(DEMO_AS_OF, "2026-12-31"):
            if not SEED_GAP[0] <= day.date() <= SEED_GAP[1]:
                rows.append((1000002, room, rate, day.date(), base + (40 if day.dayofweek >= 4 else 0)))
    for day in pd.date_range(SEED_CLOSED_FROM, "2027-01-31"):
        rows.append((1000002, "202", "6001", day.date(), 0))
    pd.DataFrame(rows, columns=["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax"]).assign(
        CurrencyCode="PLN").to_csv(path, index=False)
    return path


def _health(out: Path, console: Console, target: str, wrote: Written) -> None:
    from workbench.flows import property_health
    from workbench.reports.health import write_health_report, write_letters
    from workbench.sandbox import run_sandbox

    console.rule("6. Property health: what will stop guests booking, told to each property")
    with run_sandbox(out / "sandbox", today=DEMO_AS_OF, auth="platform") as sb:  # the platform as steps 3-4 left it
        health = property_health(sb.settings, journal=out / "journal.sqlite", target=target, as_of=DEMO_AS_OF,
                                 registry=SAMPLE_REGISTRY)
    console.print(health.summary().to_string(index=False))
    found = set(health.findings["finding"])
    if not EXPECTED_HEALTH <= found:
        raise DemoFailed(f"expected the health findings {sorted(EXPECTED_HEALTH)}, found {sorted(found)}")
    if len(health.findings_of(HEALTHY_PROPERTY)):
        raise DemoFailed(f"property {HEALTHY_PROPERTY} has a year of prices and should have no finding")
    if health.exit_code != 1:
        raise DemoFailed("bookings are blocked on the demo's state, so `workbench health` should exit 1")
    console.print(f"{len(health.blocking)} finding(s) block bookings within {health.horizon} nights "
                  f"(`workbench health` exits {health.exit_code}); property {HEALTHY_PROPERTY} has nothing to fix")
    for ext in ("html", "xlsx", "csv"):
        wrote(write_health_report(health, out / f"health.{ext}"), f"property health report ({ext})")
    letters = write_letters(health, out / "letters")
    wrote(out / "letters", f"letters to {len(letters) // 2} properties (Markdown and HTML), for account managers")


def _fresh(state: Path, journal: Path) -> tuple[Path, Path]:
    """A step's sandbox state and journal, removed first: a second run of the demo shows the same."""
    shutil.rmtree(state, ignore_errors=True)
    for suffix in ("", "-wal", "-shm", ".lock", ".lock.json"):
        Path(str(journal) + suffix).unlink(missing_ok=True)
    return state, journal


def _content(out: Path, console: Console, wrote: Written) -> None:
    from workbench.flows import check_content, push_content
    from workbench.reports.push import write_push_report
    from workbench.reports.validation import ReportContext, write_report
    from workbench.sandbox import run_sandbox

    console.rule("7. Property content: check the content workbook, push a fixed copy")
    state, journal = _fresh(out / "sandbox-content", out / "content-journal.sqlite")
    with run_sandbox(state, today=DEMO_AS_OF, rtb_enabled=True, auth="platform") as sb:
        console.print("a sandbox of the platform, its provider allowed request to book (content_api_rtb_enabled)")
        wrote(state, "the content sandbox's state")
        settings = sb.settings.with_(content_api_rtb_enabled=True)
        with console.status("Checking the content workbook (with the platform's currencies, countries, city tax "
                            "categories)…"):
            check = check_content(SAMPLE_CONTENT, settings=settings, today=DEMO_AS_OF,
                                  cache=out / "content-lookups.json")
        wrote(out / "content-lookups.json", "the platform's lists (E5), cached a day")
        found = set(check.errors["rule"])
        console.print(f"{len(check.properties)} properties: [red]{len(check.errors)} errors[/], "
                      f"[yellow]{len(check.warnings)} warnings[/]")
        if found != EXPECTED_CONTENT_ERRORS:
            raise DemoFailed(f"expected the content sample's deliberate problems {sorted(EXPECTED_CONTENT_ERRORS)}, "
                             f"found {sorted(found)}")
        ctx = ReportContext(title="Property content validation (sample data)", files=check.files)
        for ext, what in (("html", "content validation report (open in a browser)"),
                          ("xlsx", "content validation report: the content workbook with the failing cells marked"),
                          ("csv", "content validation report: every issue, one per line")):
            wrote(write_report(check.issues, out / f"content-validation.{ext}", ctx), what)
        fixed = wrote(fixed_content(out / "content-fixed.xlsx"), "the content workbook with each problem fixed")
        check = check_content(fixed, settings=settings, today=DEMO_AS_OF, cache=out / "content-lookups.json")
        if len(check.errors):
            raise DemoFailed("the fixed content workbook still has errors: " + "; ".join(check.errors["message"]))
        with console.status("Pushing the content (one request per property)…"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the sunset notice: printed once below
            result = push_content(check, settings, journal=journal, fill=True, today=DEMO_AS_OF)
        wrote(journal, "the content journal: custom ID -> HotelCode, the content the platform accepted")
        wrote(Path(str(journal) + ".lock"), "the content journal's lock: one push on the journal at a time")
        console.print(result.summary())
        created = result.created
        if not result.ok or len(created) != int(check.properties["new"].sum()):
            raise DemoFailed("the sandbox did not accept every property's content: " + result.summary())
        console.print("new properties: " + ", ".join(f"{r.custom_id} -> HotelCode {r.hotel_code}"
                                                     for r in created.itertuples())
                      + " (written into the fixed copy's HotelCode cells)")
        console.print("[yellow]OTA_HotelDescriptiveContentNotif is deprecated: it is sunset on 2026-12-31 (CET); "
                      "the Property and Contacts interfaces replace it[/]")
        wrote(write_push_report(result, out / "content-push-report.html"), "content push report")


def _rooms_modular(out: Path, console: Console, wrote: Written) -> None:
    """Step 9: room types through the Rooms and Facilities APIs for a Home provider on 2026-12-31."""
    import pandas as pd

    from workbench.flows import (
        HOME_SUNSET,
        check_rooms_modular,
        default_api,
        fetch_rooms_modular,
        push_rooms_modular,
        write_modular_rooms_workbook,
    )
    from workbench.sandbox import run_sandbox

    console.rule("9. Room types after 2026-12-31: the Rooms and Facilities APIs (a Home provider)")
    state, journal, mapping = out / "sandbox-rooms", out / "rooms-journal.sqlite", out / "rooms-mapping.csv"
    cache = out / "rooms-meta.json"
    shutil.rmtree(state, ignore_errors=True)
    for path in (mapping, cache, *(Path(str(journal) + suffix) for suffix in ("", "-wal", "-shm", ".lock",
                                                                             ".lock.json"))):
        path.unlink(missing_ok=True)
    with run_sandbox(state, today=HOME_SUNSET, provider_type="Home") as sb:
        wrote(state, "the rooms sandbox's state (a Home provider's account)")
        settings = sb.settings.with_(provider_type="Home")
        console.print(f"on {HOME_SUNSET}, a Home provider pushes room types through: {default_api(settings, HOME_SUNSET)}")
        book = wrote(_new_units(out / "rooms-new-units.xlsx"), "two room types to create (an apartment, a double)")
        created = push_rooms_modular(check_rooms_modular(book), settings, journal=journal, mapping=mapping,
                                     meta_cache=cache)
        wrote(journal, "the rooms journal: each request, the units created (correlation id -> unit id)")
        wrote(Path(str(journal) + ".lock"), "the rooms journal's lock")
        wrote(mapping, "RoomID -> InvCode (unit id) of the units created")
        wrote(cache, "the Rooms and Facilities meta (unit types, beds, room facilities), kept a day")
        console.print(created.summary())
        if not created.ok or len(created.mapping) != 2:
            raise DemoFailed("the sandbox did not create the two units: " + created.summary())
        fetched = wrote(write_modular_rooms_workbook(fetch_rooms_modular(settings, [1000004], meta_cache=cache),
                                                     out / "rooms-fetched.xlsx"), "the property's units as a workbook")
        rooms = pd.read_excel(fetched, sheet_name="Rooms", dtype={"InvCode": str})
        double = created.mapping.loc[created.mapping["room_id"] == "4102", "inv_code"].iloc[0]
        rooms.loc[rooms["InvCode"] == double, "Quantity"] = 12
        edited = out / "rooms-edited.xlsx"
        with pd.ExcelWriter(edited) as xl:
            for name in ("Rooms", "SubRooms", "Amenities"):
                (rooms if name == "Rooms" else pd.read_excel(fetched, sheet_name=name)).to_excel(xl, sheet_name=name,
                                                                                                  index=False)
        wrote(edited, "the fetched workbook with the double's Quantity 10 -> 12")
        result = push_rooms_modular(check_rooms_modular(edited), settings, journal=journal, mapping=mapping,
                                    meta_cache=cache)
        console.print(result.summary())
        if not result.ok or len(result.requests) != 1:
            raise DemoFailed("expected one call for one changed unit: " + result.summary())
        log = pd.read_csv(io.BytesIO(_download(sb, sb.requests_csv_url)), dtype=str)
        if log["endpoint"].str.contains("InvNotif|DescriptiveInfo").any():
            raise DemoFailed("an InvNotif or DescriptiveInfo call was made for the Home provider")
        console.print("one PATCH of the double's unit; no OTA_HotelInvNotif or OTA_HotelDescriptiveInfo call")


def _new_units(path: Path) -> Path:
    import pandas as pd

    key = {"HotelCode": 1000004}
    with pd.ExcelWriter(path) as xl:
        pd.DataFrame([{**key, "RoomID": 4101, "RoomType": "Apartment", "RoomTypeName": "Garden Apartment",
                       "Quantity": 3, "MaxOccupancy": 4, "MaxAdultOccupancy": 4, "MaxChildOccupancy": 2},
                      {**key, "RoomID": 4102, "RoomType": "Double", "RoomTypeName": "Patio Double", "Quantity": 10,
                       "MaxOccupancy": 2, "MaxAdultOccupancy": 2, "MaxChildOccupancy": 1}]).to_excel(
            xl, sheet_name="Rooms", index=False)
        pd.DataFrame([{**key, "RoomID": 4101, "SubRoom": "Bedroom 1", "RoomType": "Bedroom"},
                      {**key, "RoomID": 4101, "SubRoom": "Living room 1", "RoomType": "Living room"}]).to_excel(
            xl, sheet_name="SubRooms", index=False)
        pd.DataFrame([{**key, "RoomID": 4101, "SubRoom": "Bedroom 1", "AmenityCode": 33, "Value": 1},
                      {**key, "RoomID": 4101, "AmenityCode": 92},
                      {**key, "RoomID": 4102, "AmenityCode": 33, "Value": 1, "Configuration": 1},
                      {**key, "RoomID": 4102, "AmenityCode": 2}]).to_excel(xl, sheet_name="Amenities", index=False)
    return path


def fixed_content(path: Path, *, modular: bool = False) -> Path:
    """A copy of the content sample with each deliberate problem fixed (``CONTENT_FIXES``), as an analyst would;
    the rows the platform no longer takes (``Attractions``, ``Transport``) left out; ``modular``: also as the
    modular APIs take it (``MODULAR_FIXES``)."""
    from openpyxl import load_workbook

    wb = load_workbook(SAMPLE_CONTENT)
    for sheet in MODULAR_DROPPED if modular else ():
        del wb[sheet]
    for sheet, key, header, value in [*CONTENT_FIXES, *(MODULAR_FIXES if modular else [])]:
        ws = wb[sheet]
        headers = {c.value: c.column for c in ws[1]}
        rows = [r for r in range(2, ws.max_row + 1)
                if all(ws.cell(r, headers[h]).value == v for h, v in key.items())]
        if len(rows) != 1:
            raise DemoFailed(f"the content sample changed: {len(rows)} rows of {sheet} match {key}")
        if header not in headers:  # a column the sample leaves out (e.g. Invoice's BirthDate)
            headers[header] = ws.max_column + 1
            ws.cell(1, headers[header]).value = header
        ws.cell(rows[0], headers[header]).value = value
    for gone in ("Attractions", "Transport"):  # sunset on 2023-06-30: the rows are left out (the header stays)
        if gone in wb.sheetnames:
            wb[gone].delete_rows(2, wb[gone].max_row)
    ws = wb["Phrases"]  # Renovation needs both dates: the second option on a row of its own
    headers = {c.value: c.column for c in ws[1]}
    row = ws.max_row + 1
    for h, v in {"HotelCode": 1000004, "StandardPhrase": "Renovation", "Enabled": 1,
                 "OptionName": "RenovationUntil", "OptionValue": "2027-02-28"}.items():
        ws.cell(row, headers[h]).value = v
    wb.save(path)
    return path




def _content_modular(out: Path, console: Console, wrote: Written) -> None:
    from workbench.flows import (
        check_content_modular,
        fetch_content_modular,
        modular_default,
        push_content_modular,
        write_content_workbook,
    )
    from workbench.reports.push import write_push_report
    from workbench.sandbox import run_sandbox

    console.rule("8. After the sunset: the same content through the modular JSON APIs, and back")
    state, journal = _fresh(out / "sandbox-modular", out / "modular-journal.sqlite")
    fetched = out / "content-fetched.xlsx"
    fetched.unlink(missing_ok=True)
    cache = out / "modular-lookups.json"
    with run_sandbox(state, today=MODULAR_AS_OF) as sb:
        console.print(f"a sandbox whose date is {MODULAR_AS_OF} (past the sunset): `push content` defaults to "
                      f"--api {'modular' if modular_default(MODULAR_AS_OF) else 'ota'}")
        wrote(state, "the modular sandbox's state")
        fixed = wrote(fixed_content(out / "content-modular.xlsx", modular=True),
                      "the content workbook as the modular APIs take it (attractions and transport left out)")
        check = check_content_modular(fixed, settings=sb.settings, today=MODULAR_AS_OF, cache=cache)
        if len(check.errors):
            raise DemoFailed("the modular workbook has errors: " + "; ".join(check.errors["message"]))
        with console.status("Pushing through the Property, Contacts, Facilities and Charges APIs…"):
            result = push_content_modular(check, sb.settings, journal=journal, today=MODULAR_AS_OF, cache=cache)
        wrote(cache, "the platform's lists and the modular APIs' meta crosswalks, cached a day")
        wrote(journal, "the modular journal: custom ID -> property id, the state each API accepted")
        wrote(Path(str(journal) + ".lock"), "the modular journal's lock")
        console.print(result.summary())
        if not result.ok or len(result.created) != 4:
            raise DemoFailed("the modular APIs did not accept every property's content: " + result.summary())
        wrote(write_push_report(result, out / "modular-push-report.html"), "modular push report")
        ids = [1000004, *result.created["hotel_code"]]
        with console.status("Reading the properties back (GET)…"):
            frames = fetch_content_modular(sb.settings, ids, cache=cache)
        wrote(write_content_workbook(frames, fetched), "the content read back into the workbook's layout")
        again = push_content_modular(check_content_modular(fetched, settings=sb.settings, today=MODULAR_AS_OF,
                                                           cache=cache),
                                     sb.settings, journal=journal, today=MODULAR_AS_OF, cache=cache)
        console.print(f"the workbook read back, pushed again: {again.summary()}")
        if len(again.requests):
            raise DemoFailed("the workbook read back should send nothing: " + again.summary())


def demo(out: Annotated[Path, typer.Option(help="Where to write the reports and requests.")] =
         Path("workbench-demo")) -> None:
    """Run the sample data end to end and say where the results are."""
    ok = run_demo(out, console=default_console)
    raise typer.Exit(0 if ok else 1)
