"""Affiliate links: aid (web) / affiliate_id (app) replaced, label added, everything else kept byte for byte."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.cars import affiliate_links, with_affiliate
from workbench.cars.links import AFFILIATE_PARAM

MANAGED = {"aid", "affiliate_id", "label"}
texts = st.text(min_size=0, max_size=12)
other_params = st.lists(st.tuples(texts.filter(lambda k: k not in MANAGED), texts), max_size=6)


@given(others=other_params, kind=st.sampled_from(["web", "app"]), old_id=st.none() | texts,
       position=st.integers(0, 6), affiliate_id=texts.filter(lambda s: s.strip() != ""),
       label=texts.filter(lambda s: s.strip() != ""), fragment=st.none() | texts,
       base=st.sampled_from(["https://cars.example.com/book", "https://cars.example.com", "carsapp://offer/AB-1",
                             "myapp:///deep/path"]))
def test_rewriting_sets_the_id_and_label_and_keeps_everything_else(
        others: list[tuple[str, str]], kind: str, old_id: str | None, position: int, affiliate_id: str, label: str,
        fragment: str | None, base: str) -> None:
    param = AFFILIATE_PARAM[kind]
    pairs = list(others)
    if old_id is not None:
        pairs.insert(min(position, len(pairs)), (param, old_id))
    query = urlencode(pairs)
    url = base + ("?" + query if query else "") + ("#" + urlencode({"f": fragment}) if fragment is not None else "")

    out = with_affiliate(url, kind=kind, affiliate_id=affiliate_id, label=label)

    got = parse_qsl(urlsplit(out).query, keep_blank_values=True)
    assert [p for p in got if p[0] not in (param, "label")] == others  # every other parameter, in order
    assert [v for k, v in got if k == param] == [affiliate_id]
    assert [v for k, v in got if k == "label"] == [label]
    before, after = urlsplit(url), urlsplit(out)
    assert (after.scheme, after.netloc, after.path, after.fragment) == (before.scheme, before.netloc, before.path,
                                                                        before.fragment)
    kept = [seg for seg in query.split("&") if seg and parse_qsl(seg, keep_blank_values=True)[0][0] != param]
    assert [seg for seg in urlsplit(out).query.split("&") if seg in kept] == kept  # exact bytes, same order
    assert with_affiliate(out, kind=kind, affiliate_id=affiliate_id, label=label) == out  # idempotent


@given(label=texts.filter(lambda s: s.strip() != ""))
def test_web_rewrite_leaves_the_app_parameter_alone_and_vice_versa(label: str) -> None:
    url = "https://cars.example.com/b?affiliate_id=1&aid=2"
    web = with_affiliate(url, kind="web", affiliate_id="9", label=label)
    assert dict(parse_qsl(urlsplit(web).query))["affiliate_id"] == "1"
    app = with_affiliate(url, kind="app", affiliate_id="9", label=label)
    assert dict(parse_qsl(urlsplit(app).query))["aid"] == "2"


@pytest.mark.parametrize(("url", "kwargs", "expected"), [
    ("https://cars.example.com/book?offer=AMS-1&aid=111&prefs=air%20con%2Bgps#top",
     {"kind": "web", "affiliate_id": "999", "label": "summer & more/2026"},
     "https://cars.example.com/book?offer=AMS-1&aid=999&prefs=air%20con%2Bgps&label=summer%20%26%20more%2F2026#top"),
    ("carsapp://offer/AMS-1?affiliate_id=111&lang=en-gb",
     {"kind": "app", "affiliate_id": "999", "label": "nieuwsbrief-jan"},
     "carsapp://offer/AMS-1?affiliate_id=999&lang=en-gb&label=nieuwsbrief-jan"),
    ("https://cars.example.com/book?aid=1&x=1&aid=2&label=old",
     {"kind": "web", "affiliate_id": "3", "label": "new"},
     "https://cars.example.com/book?aid=3&x=1&label=new"),
    ("https://cars.example.com/book?x=1", {"kind": "web", "label": "ünïcødé"},
     "https://cars.example.com/book?x=1&label=%C3%BCn%C3%AFc%C3%B8d%C3%A9"),
    ("https://cars.example.com/book?x=a+b&y", {"kind": "web"}, "https://cars.example.com/book?x=a+b&y"),
])
def test_examples(url: str, kwargs: dict[str, str], expected: str) -> None:
    assert with_affiliate(url, **kwargs) == expected


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"kind": "email"}, "`web` or `app`"),
    ({"kind": "web", "label": "  "}, "`label` is empty"),
    ({"kind": "web", "affiliate_id": ""}, "`affiliate_id` is empty"),
])
def test_bad_arguments_say_what_to_fix(kwargs: dict[str, str], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        with_affiliate("https://cars.example.com/?a=1", **kwargs)  # type: ignore[arg-type]


def test_relative_links_are_refused() -> None:
    with pytest.raises(ValueError, match="not an absolute link"):
        with_affiliate("/book?aid=1", kind="web", label="x")


def test_frame_links_are_rewritten_per_column_and_missing_links_stay_missing() -> None:
    frame = pd.DataFrame({"url_web": ["https://c.example/b?aid=1&o=1", None],
                          "url_app": ["app://o/1?affiliate_id=1", ""]}).astype("string")
    out = affiliate_links(frame, affiliate_id="42", label="q3")
    assert out.loc[0, "url_web"] == "https://c.example/b?aid=42&o=1&label=q3"
    assert out.loc[0, "url_app"] == "app://o/1?affiliate_id=42&label=q3"
    assert pd.isna(out.loc[1, "url_web"]) and out.loc[1, "url_app"] == ""
    assert frame.loc[0, "url_web"] == "https://c.example/b?aid=1&o=1"  # the input is not changed
