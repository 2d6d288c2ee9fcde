"""The one rule for short names (issue 20, point 11): the fewest first words of a name that tell
it apart from every other name of the evening, whole words only. Worked examples and Hypothesis
properties: unique, never empty, a prefix of the name's words."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from shared_helpers import SOAK

from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.present.labels import names_key, short_members, short_names


def test_first_words_where_they_tell_the_players_apart() -> None:
    assert short_names(["Anne-Marie Zurbriggen", "Vreni Schmid", "Hans-Peter Oberholzer", "Sepp"]) == [
        "Anne-Marie",
        "Vreni",
        "Hans-Peter",
        "Sepp",
    ]
    assert short_names(["Anna", "Beat", "Cla"]) == ["Anna", "Beat", "Cla"]


def test_two_annas_get_their_whole_names() -> None:
    # never "Anna Z." twice, never a cut "Anna Zimm…": whole words that differ
    assert short_names(["Anna Zimmermann", "Anna Zurbriggen", "Beat Imboden", "Cla Caduff"]) == [
        "Anna Zimmermann",
        "Anna Zurbriggen",
        "Beat",
        "Cla",
    ]
    assert short_names(["Hans", "Hans Meier", "Cla"]) == ["Hans", "Hans Meier", "Cla"]
    assert short_names(["Hans Meier", "hans Müller", "Vreni"]) == ["Hans Meier", "hans Müller", "Vreni"]  # any case
    # three words: only as many as it takes
    assert short_names(["Anna Maria Zimmermann", "Anna Maria Zurbriggen", "Anna Lea Keller"]) == [
        "Anna Maria Zimmermann",
        "Anna Maria Zurbriggen",
        "Anna Lea",
    ]


def test_the_key_and_the_headers_use_the_same_rule() -> None:
    names = ["Anna Zimmermann", "Beat Imboden", "Anna Zurbriggen", "Cla Caduff"]
    rs = default_ruleset(Variant.TEAMS)
    assert short_members(rs, names) == [["Anna Zimmermann", "Anna Zurbriggen"], ["Beat", "Cla"]]
    assert names_key(names) == [("Beat", "Beat Imboden"), ("Cla", "Cla Caduff")]


# Names as a circle keeps them: 1 to 40 characters, words separated by one space.
word = st.text(st.characters(categories=["L", "Nd"], include_characters="-'."), min_size=1, max_size=12)
name = st.lists(word, min_size=1, max_size=4).map(" ".join).filter(lambda n: len(n) <= 40)
evening = st.lists(name, min_size=1, max_size=6, unique_by=lambda n: n.casefold())


@settings(max_examples=500 if SOAK else 100, deadline=None)
@given(names=evening)
def test_short_names_are_unique_never_empty_and_the_first_words(names: list[str]) -> None:
    short = short_names(names)
    assert len(short) == len(names)
    assert len({s.casefold() for s in short}) == len(short)  # unique within the evening
    for s, full in zip(short, names, strict=True):
        assert s.strip()  # never empty
        words = s.split(" ")
        assert words == full.split(" ")[: len(words)]  # the name's first words, each whole
        # the fewest: one word less would clash with another name's short form or first words
        if len(words) > 1:
            fewer = " ".join(words[:-1]).casefold()
            assert any(o is not full and " ".join(o.split(" ")[: len(words) - 1]).casefold() == fewer for o in names)


@settings(max_examples=200 if SOAK else 50, deadline=None)
@given(names=evening)
def test_the_key_names_every_player_whose_short_name_is_not_the_full_name(names: list[str]) -> None:
    key = dict(names_key(names))
    for s, full in zip(short_names(names), names, strict=True):
        assert (s in key) == (s != full) and key.get(s, full) == full
