"""Property names: generated from the rules' grammar they are accepted; each mutation is refused by
its rule (spec E4 name rules). Plus the Latin-only rule for creation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from expectations.content_names import NAME_SYMBOLS, name_problems, non_latin

LOWER = st.characters(categories=("Ll",), exclude_characters="ᵃᵇ")
LETTER = st.characters(categories=("Lu", "Ll", "Lo"))
WORD = st.builds(lambda first, rest: first + rest, LOWER, st.text(LETTER, max_size=8))
NUMBER = st.text(st.sampled_from("0123456789"), min_size=1, max_size=5)
SYMBOL = st.sampled_from(NAME_SYMBOLS)
PIECE = st.one_of(WORD, WORD, NUMBER, st.builds(lambda s, w: s + w, SYMBOL, WORD))


@st.composite
def names(draw: st.DrawFn) -> str:
    """A name the grammar allows: words (one with a lower-case letter first), numbers of at most five
    digits, symbols from the list, single spaces; 3 to 255 characters."""
    first = draw(WORD)
    rest = draw(st.lists(PIECE, max_size=12))
    name = " ".join([first, *rest])
    if len(name) < 3:
        name = name + " " + draw(st.sampled_from(["Inn", "Hotel", "Casa"]))
    return name[:255].rstrip() if len(name) > 255 else name


@settings(max_examples=300, deadline=None)
@given(names())
def test_names_from_the_grammar_are_accepted(name: str) -> None:
    assert name_problems(name) == (), name


MUTATIONS = {
    "name_characters": lambda n, pos: n[:pos] + "@" + n[pos:],
    "name_digits": lambda n, pos: (n[:pos] + " 123456 " + n[pos:])[:250],
    "name_length": lambda n, pos: (n + " x" * 200)[:256 + pos % 10],
    "name_all_caps": lambda n, pos: n.upper(),
}


@settings(max_examples=200, deadline=None)
@given(names(), st.sampled_from(sorted(MUTATIONS)), st.integers(min_value=0, max_value=255))
def test_mutated_names_are_refused_by_their_rule(name: str, rule: str, pos: int) -> None:
    mutated = MUTATIONS[rule](name, pos % (len(name) + 1))
    if rule == "name_all_caps" and any(ch.islower() for ch in mutated):
        return  # a lower-case letter without an upper case (e.g. `ⱱ`): upper() cannot mutate it
    assert rule in {r for r, _ in name_problems(mutated)}, (name, mutated)


def test_short_names_and_punctuation_name_their_problem() -> None:
    assert name_problems("Ab") == (("name_length", "the name has 2 characters; it needs 3 to 255: write the full "
                                                   "name"),)
    assert [r for r, _ in name_problems("HOTEL 1234567 (SEA)")] == ["name_digits", "name_characters",
                                                                     "name_all_caps"]
    assert name_problems("Ryokan 旅館 Kyō") == ()
    assert name_problems("Hôtel de l'Opéra & Spa, Nice #2!") == ()


def test_latin_only_names_the_other_letters() -> None:
    assert non_latin("Hôtel Ærø Łódź") == ""
    assert non_latin("Hotel Москва") == "Москва"
    assert non_latin("旅館 Kyoto 123") == "旅館"
