"""One schema per frame (issue 20): the columns of ``loaders.content_schema`` and the request
``build_content`` makes are pinned together. Every column has exactly one place in the message, the
one its path declares (with the column it is sent with, if any); a column that is not sent says why;
and every value in a full message is at the path of some column."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest
from lxml import etree

from loaders.content_schema import KEY_FIELDS, PART_FIELDS, PARTS, ContentField
from workbench.ota.content_notif import PART_COLUMNS, build_content
from workbench.ota.ns import OTA_NS, localname

HDC = f"{{{OTA_NS}}}HotelDescriptiveContents/{{{OTA_NS}}}HotelDescriptiveContent"
_PREDICATE = re.compile(r"\[@(\w+)='([^']*)'\]")


def _frames_module():
    path = Path(__file__).resolve().parents[1] / "content" / "frames.py"
    spec = importlib.util.spec_from_file_location("content_frames_paths", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


F = _frames_module()
FIELDS = [(part, f) for part in PARTS for f in PART_FIELDS[part]]


def sample(f: ContentField, n: int) -> tuple[object, list[str]]:
    """A value for the column and the texts it is sent as."""
    if f.kind == "list":
        items = list(f.choices[:2]) if f.choices else [f"a{n}", f"b{n}"]
        return items, items
    if f.kind == "flag":
        return 1, ["1"]
    if f.kind == "int":
        return 100 + n, [str(100 + n)]
    if f.kind == "float":
        return n + 0.5, [f"{n}.5"]
    if f.kind == "date":
        return "2001-02-03", ["2001-02-03"]
    if f.kind == "time":
        return "07:30", ["07:30"]
    text = f.choices[0] if f.choices else f"v{n}"
    return text, [text]


def leaves(body: bytes) -> dict[str, list[str]]:
    """Every attribute and text of the HDC, by its path under HDC (``element/element@Attribute``)."""
    hdc = etree.fromstring(body).find(HDC)
    assert hdc is not None
    out: dict[str, list[str]] = {}
    for el in hdc.iter(etree.Element):
        steps = []
        at = el
        while at is not hdc:
            steps.append(localname(at))
            at = at.getparent()
        path = "/".join(reversed(steps))
        for name, value in el.attrib.items():
            out.setdefault(f"{path}@{name}", []).append(value)
        if el.text is not None and el.text.strip():
            out.setdefault(path, []).append(el.text)
    return out


def declared(f: ContentField) -> dict[str, list[str]]:
    """The leaves a column's path declares besides its own value: the constants of its predicates."""
    element = _PREDICATE.sub("", f.element)
    return {f"{element}@{a}": [v] for a, v in _PREDICATE.findall(f.element)}


def place(f: ContentField) -> str:
    element = _PREDICATE.sub("", f.element)
    return f"{element}@{f.attribute}" if f.attribute else element


def build(part: str, row: dict) -> dict[str, list[str]]:
    rows: dict[str, list[dict]] = {"Property": [{"hotel_code": 5}]}
    if part == "Property":
        rows["Property"] = [{"hotel_code": 5, **row}]
    elif row:
        rows[part] = [{"hotel_code": 5, **row}]
    return leaves(build_content(F.parts(**rows)))


BASE = build("Property", {})


def changed(found: dict[str, list[str]]) -> dict[str, list[str]]:
    return {p: v for p, v in found.items() if BASE.get(p) != v}


def test_the_builder_takes_its_columns_from_the_loaders_schema() -> None:
    assert list(PART_COLUMNS) == list(PARTS)
    for part in PARTS:
        assert list(PART_COLUMNS[part]) == [f.name for f in PART_FIELDS[part]], part


@pytest.mark.parametrize(("part", "field"), FIELDS, ids=[f"{p}.{f.name}" for p, f in FIELDS])
def test_each_column_has_exactly_one_place_in_the_message(part: str, field: ContentField) -> None:
    n = FIELDS.index((part, field))
    value, texts = sample(field, n)
    if part == "Property" and field.name == "notif_type":
        value, texts = "New", ["New"]  # the default with a HotelCode is Overlay: New shows the column's place
    if field.not_sent:
        assert changed(build(part, {field.name: value})) == {}, field.not_sent
        return
    row = {field.name: value}
    expected = {place(field): texts, **declared(field)}
    if field.sent_with:
        alone = changed(build(part, row))
        assert alone == {}, f"{field.name} is sent only with {field.sent_with}"
        with_value, with_texts = sample(next(f for f in PART_FIELDS[part] if f.name == field.sent_with), n + 1)
        row[field.sent_with] = with_value
        companion = next(f for f in PART_FIELDS[part] if f.name == field.sent_with)
        expected[place(companion)] = with_texts
    assert changed(build(part, row)) == expected


def test_the_key_columns_are_hdc_attributes() -> None:
    code, custom = KEY_FIELDS
    assert build("Property", {})[place(code)] == ["5"]
    body = build_content(F.parts(Property=[{"custom_id": "P-7"}]))
    assert leaves(body)[place(custom)] == ["P-7"]


def test_every_value_of_a_full_message_is_at_the_path_of_a_column() -> None:
    rows: dict[str, list[dict]] = {}
    for part in PARTS:
        row: dict[str, object] = {"hotel_code": 5}
        for n, f in enumerate(PART_FIELDS[part]):
            if not f.not_sent:
                row[f.name] = sample(f, n)[0]
        rows[part] = [row]
    rows["Property"][0]["notif_type"] = "Overlay"
    found = leaves(build_content(F.parts(**rows)))
    paths = {place(f) for _, f in FIELDS} | {place(f) for f in KEY_FIELDS}
    paths |= {p for _, f in FIELDS for p in declared(f)}
    assert set(found) <= paths, sorted(set(found) - paths)
    every = {place(f) for _, f in FIELDS if not f.not_sent}
    assert every <= set(found), sorted(every - set(found))
