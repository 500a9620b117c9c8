"""A long cell is cut where every issue is made (``loaders.issues``): in the ``value`` column and
where a message quotes it, saying how long it was; short values and messages are left alone."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from loaders.issues import MESSAGE_LIMIT, QUOTE_LIMIT, cut, issues_from_records


def _issue(value: str, message: str) -> dict[str, object]:
    return {"source": "a.csv", "sheet": "", "row": 2, "column": "Date", "value": value, "rule": "not_a_date",
            "severity": "error", "message": message}


def test_a_million_characters_are_cut_in_the_value_and_in_the_message() -> None:
    big = "2" * 1_000_000
    issues = issues_from_records([_issue(big, f"`{big}` is not a date: write it as YYYY-MM-DD")])
    shown = "2" * QUOTE_LIMIT + "… (1,000,000 characters)"
    assert issues.loc[0, "value"] == shown
    assert issues.loc[0, "message"] == f"`{shown}` is not a date: write it as YYYY-MM-DD"
    again = issues_from_records(issues.to_dict("records"))  # issue frames are combined more than once
    assert again.loc[0, "value"] == shown and again.loc[0, "message"] == issues.loc[0, "message"]


def test_a_message_embedding_a_long_value_without_quotes_is_cut_too() -> None:
    message = "room " + "4" * 1_000_000 + " has no prices"
    issues = issues_from_records([_issue("4", message)])
    assert issues.loc[0, "message"] == message[:MESSAGE_LIMIT] + f"… ({len(message):,} characters)"


TEXT = st.characters(blacklist_categories=("Cs",), blacklist_characters="`")  # Arrow strings hold no lone surrogate


@given(st.text(TEXT, max_size=QUOTE_LIMIT), st.text(TEXT, max_size=300))
def test_what_is_short_is_left_as_it_is(value: str, words: str) -> None:
    message = f"`{value}` {words}"[:MESSAGE_LIMIT]
    issues = issues_from_records([_issue(value, message)])
    assert issues.loc[0, "value"] == value and issues.loc[0, "message"] == message
    assert cut(value) == value


def test_only_quoted_values_are_cut_never_the_sentence_between_two_quotes() -> None:
    """A long sentence between two short quoted names is the message, not a quoted value."""
    from loaders.issues import issues_from_records

    sentence = "the `SubRooms` part replaces " + "every sub-room and its beds " * 12 + "so give `SubRoomCount`"
    long_value = "x" * 5_000
    frame = issues_from_records([{"source": "a.xlsx", "sheet": "Rooms", "row": 2, "column": "A", "value": "v",
                                  "rule": "r", "severity": "error", "message": sentence},
                                 {"source": "a.xlsx", "sheet": "Rooms", "row": 3, "column": "A", "value": "v",
                                  "rule": "r", "severity": "error", "message": f"cell `{long_value}` {sentence}"}])
    assert frame["message"].iloc[0] == sentence
    second = frame["message"].iloc[1]
    assert sentence in second and "(5,000 characters)" in second and long_value not in second
