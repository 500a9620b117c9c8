"""Standard phrases (spec E4 HDC/TPA_Extensions/StandardPhrases): one row per option; rows with
the same phrase name form one StandardPhrase."""

from __future__ import annotations

from expectations.content_frames import Checker, blank, each, listed, not_in
from loaders.content_schema import OPTION_NAMES, PHRASE_OPTIONS

__all__ = ["OPTION_NAMES", "PHRASE_OPTIONS", "check"]


def check(c: Checker) -> None:
    p = c.parts["Phrases"]
    name = p["phrase_name"]
    c.flag("Phrases", blank(name), "phrase_name", "phrase_name_required", "a standard phrase needs its Name")
    c.flag("Phrases", p["enabled"].isna() & name.notna(), "enabled", "phrase_enabled_required",
           "a standard phrase needs Enabled (1 or 0)")
    c.flag("Phrases", not_in(p["option_name"], OPTION_NAMES), "option_name", "phrase_option_value",
           f"this is not an option name; the options are {listed(OPTION_NAMES)}")
    owners = {o: ph for ph, opts in PHRASE_OPTIONS.items() for o in opts}
    owner = each(p["option_name"], owners.get)
    c.flag("Phrases", owner.notna() & name.notna() & (owner.astype("string") != name).fillna(False), "option_name",
           "phrase_option_value", lambda sub: [f"option `{o}` belongs to phrase `{owner[i]}`, not `{n}`"
                                               for i, o, n in zip(sub.index, sub["option_name"], sub["phrase_name"],
                                                                  strict=True)])
    c.flag("Phrases", p["option_name"].notna() & p["option_value"].isna(), "option_value", "phrase_option_value_required",
           "an option needs its value (OptionValue)")
    key = (p["property"].astype("string") + "\x00" + name.astype("string")).astype(object)
    with_options = set(key[p["option_name"].notna()].dropna())
    needs = name.isin(list(PHRASE_OPTIONS)).fillna(False) & p["enabled"].ne(0).fillna(True)
    first = ~key.duplicated(keep="first")
    c.flag("Phrases", needs & first & ~key.isin(with_options), "phrase_name", "phrase_options_required",
           lambda sub: [f"phrase `{n}` needs its options ({listed(PHRASE_OPTIONS[n])}): add one row per option "
                        "with OptionName and OptionValue" for n in sub["phrase_name"]])
