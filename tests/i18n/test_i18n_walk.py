"""A whole evening of every variant, walked page by page in German, French and Italian: no English
source string may be left on a page (visible text, user-visible attributes, JSON data islands).

A msgid whose translation is the same word (Slalom, Match, Total in French...) is allowed only
where docs/GLOSSARY.md lists it for that language (test_identical_translations_are_glossary_words).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from i18n_helpers import (
    CONVERSION,
    ROOT,
    client_circle,
    client_record,
    client_start,
    ids,
    load_catalog,
    strings,
    visible_texts,
)
from shared_helpers import flashes, hidden

from scorekeeper.bots import choose_action
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.services import digital_table as tables

LANGS = ("de_CH", "fr_CH", "it_CH")
GLOSSARY = ROOT / "docs" / "GLOSSARY.md"
COLUMN = {"de_CH": 1, "fr_CH": 2, "it_CH": 3}  # the glossary tables: en | de-CH | fr-CH | it-CH | source


def glossary_words(lang: str) -> set[str]:
    """Every word the glossary writes in ``lang``'s column, lower case."""
    words: set[str] = set()
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and not set(cells[0]) <= set("-: "):
            words |= {w.lower() for w in re.findall(r"[^\W\d_]+", cells[COLUMN[lang]])}
    return words


def same_words(lang: str) -> set[str]:
    """msgids the catalog leaves as they are (the same word in ``lang``)."""
    return {i for m in load_catalog(lang) if m.id for i, s in zip(ids(m), strings(m), strict=False) if i == s}


@pytest.mark.parametrize("lang", LANGS)
def test_identical_translations_are_glossary_words(lang: str) -> None:
    words = glossary_words(lang)
    assert {"obenabe", "undenufe", "slalom"} <= words
    stray = {
        msgid
        for msgid in same_words(lang)
        if not {w.lower() for w in re.findall(r"[^\W\d_]+", CONVERSION.sub("", msgid))} <= words
    }
    assert not stray, f"left as in English but not in the glossary's {lang} column: {sorted(stray)}"


Needle = tuple[str, re.Pattern[str], bool, str]


def english_needles(lang: str) -> list[Needle]:
    """(msgid, pattern, sentence, probe): a whole text node that is the msgid (placeholders as any
    text), or, for a sentence of three words or more, the msgid anywhere in a text. ``probe``, the
    msgid's longest stretch without a placeholder, is in every text the pattern matches: a text
    without it is not searched (a substring test costs a small part of a search)."""
    keep = same_words(lang)
    needles = []
    for m in load_catalog(lang):
        if not m.id:
            continue
        for msgid in ids(m):
            if msgid in keep or not re.search(r"[A-Za-z]{2}", CONVERSION.sub("", msgid)):
                continue
            parts = CONVERSION.split(msgid)
            literal = [p for i, p in enumerate(parts) if i % 3 == 0]  # split() also returns the two groups
            pattern = ".+?".join(re.escape(p) for p in literal)
            sentence = len(CONVERSION.sub("", msgid).split()) >= 3
            compiled = re.compile(rf"(?<!\w){pattern}(?!\w)" if sentence else rf"{pattern}")
            needles.append((msgid, compiled, sentence, max(literal, key=len)))
    return needles


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def page_texts(html: str) -> list[str]:
    """What a person reads: text nodes, user-visible attributes, the strings of JSON data islands."""
    texts = visible_texts(html)
    for island in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', html, re.S):
        texts.extend(re.sub(r"\s+", " ", s).strip() for s in _strings(json.loads(island)))
    return [t for t in texts if t]


def english_on(html: str, needles: list[Needle]) -> list[str]:
    found = []
    for text in page_texts(html):
        for msgid, pattern, sentence, probe in needles:
            if probe in text and (pattern.search(text) if sentence else pattern.fullmatch(text)) is not None:
                found.append(f"{msgid!r} in {text!r}")
    return found


# A colon as punctuation (followed by a space or the end of the text, so not 20:15 or https://)
# right after a letter, a digit or a closing mark: French wants a (no-break) space before it.
BARE_COLON = re.compile(r"[^\s\u00a0\u202f]:(?=\s|$)")


def french_colons(html: str) -> list[str]:
    """French texts whose colon has no space before it (a template's own ``:`` after a word)."""
    return [f"colon without the space before it in {t!r}" for t in page_texts(html) if BARE_COLON.search(t)]


class Walk:
    """Fetches each page in every language and keeps what is left in English."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.crawled: set[str] = set()
        self.needles = {lang: english_needles(lang) for lang in LANGS}
        self.leftovers: dict[str, list[str]] = {}
        self.seen = 0

    def look(self, path: str, name: str, status: int = 200, **kw: Any) -> None:
        for lang in LANGS:
            self.client.set_cookie("lang", lang)
            r = self.client.get(path, **kw)
            assert r.status_code == status, (name, lang, r.status_code)
            self.check(r.get_data(as_text=True), f"{name} [{lang}]", lang)
        self.client.delete_cookie("lang")

    def crawl(self, start: list[str], prefixes: tuple[str, ...]) -> None:
        """Every HTML page of the circle reachable by links from ``start`` (the statistics, the
        purse, the circle's data... whatever the pages link to), read in every language."""
        seen = set(start)
        todo = [p for html in (self.client.get(s).text for s in start) for p in links_of(html, prefixes)]
        while todo:
            path = todo.pop()
            if path in seen or path.split("?")[0].endswith((".png", ".json", ".csv", ".svg")):
                continue
            seen.add(path)
            r = self.client.get(path)
            if r.status_code != 200 or r.mimetype != "text/html":
                continue
            self.look(path, f"linked page {path.split('/', 3)[-1]}")
            todo.extend(links_of(r.text, prefixes))
        self.crawled = seen

    def check(self, html: str, name: str, lang: str) -> None:
        assert f'lang="{lang.replace("_", "-")}"' in html or "<html" not in html, name
        self.seen += 1
        found = english_on(html, self.needles[lang])
        if lang == "fr_CH":
            found += french_colons(html)
        if found:
            self.leftovers[name] = found


def play_moves(app: Flask, table_id: str, moves: int) -> None:
    """``moves`` more moves at the table, each by the computer players' easiest choice."""
    with app.app_context():
        table = tables.get_table(table_id)
        st = tables.load(table)
        for _ in range(moves):
            mover = st.to_move()
            assert mover is not None
            view = st.view(mover)
            assert view is not None
            st = tables.act(table, mover, choose_action(view, st.ruleset, "easy"), expected_seq=st.seq)


def links_of(html: str, prefixes: tuple[str, ...]) -> set[str]:
    """The circle's pages a page links to (GET links under the circle's paths)."""
    found = set()
    for href in re.findall(r'<a [^>]*href="([^"#]+)', html):
        path = href.replace("&amp;", "&").split("://", 1)[-1]
        path = path[path.index("/") :] if not path.startswith("/") and "/" in path else path
        if path.startswith(prefixes):
            found.add(path)
    return found


def _close_table(client: FlaskClient, write: str, ev: str) -> None:
    manage = client.get(f"{write}/e/{ev}/table").text
    r = client.post(f"{write}/e/{ev}/table/close", data=hidden(manage, "/table/close"))
    assert r.status_code == 302


@pytest.mark.parametrize("variant", list(Variant))
def test_a_whole_evening_has_no_english_left(app: Flask, client: FlaskClient, variant: Variant) -> None:
    walk = Walk(client)
    for lang in LANGS:  # the new circle's page (its links, shown once), in each language
        client.set_cookie("lang", lang)
        r = client.post("/", data={"name": f"Jass {lang}", **hidden(client.get("/").text, "/")})
        walk.check(r.text, f"circle created [{lang}]", lang)
        r = client.post("/", data={"name": "  ", **hidden(client.get("/").text, "/")})
        assert r.status_code == 422
        walk.check(r.text, f"circle refused [{lang}]", lang)
    client.delete_cookie("lang")
    write, view = client_circle(client)
    walk.look("/", "home")
    walk.look(f"{write}/start?variant={variant.value}", "start form")
    for lang in LANGS:  # a start form sent without names: the field errors in each language
        client.set_cookie("lang", lang)
        page = client.get(f"{write}/start?variant={variant.value}").text
        r = client.post(f"{write}/start?variant={variant.value}", data=hidden(page, "/start"))
        assert r.status_code == 422
        walk.check(r.text, f"start form refused [{lang}]", lang)
        r = client.post(f"{write}/view-link", data=hidden(client.get(write).text, "/view-link"))
        walk.check(r.text, f"new onlookers link [{lang}]", lang)
        link = re.search(r'id="view-link"[^>]*value="https?://[^/]+(/c/[^"]+)"', r.text)
        assert link
        view = link.group(1)  # the old one stops working
    client.delete_cookie("lang")
    walk.look("/no/such/page", "not found", status=404)
    slate = client_start(client, write, variant)
    ev = slate.rsplit("/", 1)[1]
    walk.look(slate, "empty slate")
    walk.look(slate.replace(write, view), "empty slate, onlookers")

    # A refused hand: the flash in each language.
    rs = default_ruleset(variant)
    for lang in LANGS:
        client.set_cookie("lang", lang)
        page = client.get(slate).text
        bad = {"declarer": "1", "row": rs.rows[0].key, "declarer_points": "100", "defender_points": "50"}
        r = client.post(f"{slate}/hands", data={**hidden(page, "/hands"), **bad})
        assert r.status_code == 422 and flashes(r.text)
        walk.check(r.text, f"refused hand [{lang}]", lang)
    client.delete_cookie("lang")

    # The digital table: the organiser's page and a seat with its cards.
    page = client.get(slate).text
    r = client.post(f"{slate}/table/open", data=hidden(page, "/table/open"))
    assert r.status_code == 302
    walk.look(f"{slate}/table", "digital table")
    manage = client.get(f"{slate}/table").text
    links = client.post(f"{slate}/table/links", data=hidden(manage, "/table/links"))
    seat_links = re.findall(r'value="https?://[^/]+(/s/[^"]+)"', links.text)
    assert seat_links
    phone = app.test_client()
    seat_page = phone.get(seat_links[0]).headers["Location"]
    for moves in (0, 6, 12):  # choosing; a trick on the table; the last trick beside the next one
        play_moves(app, seat_page.rsplit("/", 1)[1], moves)
        for lang in LANGS:
            phone.set_cookie("lang", lang)
            r = phone.get(seat_page)
            assert r.status_code == 200
            walk.check(r.text, f"seat page after {moves} moves [{lang}]", lang)
    walk.look(f"{slate}/table", "digital table in play")
    _close_table(client, write, ev)

    sent: list[Any] = []
    for i in range(rs.n_hands // 2):  # each hand recorded by a phone in another language: its flash too
        lang = LANGS[i % 3]
        client.set_cookie("lang", lang)
        client_record(client, slate, rs, sent, len(sent) + 1)
        walk.check(client.get(slate).text, f"hand {i + 1} recorded [{lang}]", lang)
    client.delete_cookie("lang")
    walk.look(slate, "slate half way")
    walk.look(f"{slate}/entries/0", "correcting a hand")
    walk.look(write, "circle with an evening in progress")
    client.set_cookie("lang", "it_CH")
    client_record(client, slate, rs, sent, rs.n_hands)
    page = client.get(slate).text  # the last "recorded" flash; over with its last cell, unless a tie waits
    walk.check(page, "last hand recorded [it_CH]", "it_CH")
    if f'action="{slate}/end"' in page:  # a tie to cut (three players): the slate is full, still open
        client.delete_cookie("lang")
        walk.look(slate, "complete slate")
        client.set_cookie("lang", "it_CH")
        r = client.post(f"{slate}/end", data=hidden(client.get(slate).text, "/end"))
        assert r.status_code == 302
        walk.check(client.get(slate).text, "evening closed [it_CH]", "it_CH")
    client.delete_cookie("lang")
    walk.look(slate, "result")
    walk.look(slate.replace(write, view), "result, onlookers")
    walk.look(write, "circle with its history")
    walk.look(view, "circle, onlookers")
    walk.crawl([write, view, slate, slate.replace(write, view)], prefixes=(write, view))
    assert any("/start?variant=" in p for p in walk.crawled)  # the circle's links were followed
    assert walk.seen >= 3 * 14
    assert not walk.leftovers, json.dumps(walk.leftovers, indent=1, ensure_ascii=False)


def test_the_walk_sees_english_where_it_is() -> None:
    """The needles catch a whole English text, a filled-in template and a sentence inside a text,
    and leave the glossary's shared words and players' names alone."""
    needles = english_needles("fr_CH")
    page = (
        '<html lang="fr-CH"><body><h2>Record a hand</h2><p>Hand 12</p>'
        "<p>Note: Every cell is filled. Bravo</p><p>Slalom</p><p>Total</p><p>Beat</p>"
        '<button value="easy" title="Try again">facile</button>'
        '<script type="application/json">{"words": ["Your turn."]}</script></body></html>'
    )
    found = {f.split(" in ")[0] for f in english_on(page, needles)}
    # ("Record a hand" is also "%(num)s hand" with num = "Record a": either way it is English)
    assert found - {"'%(num)s hand'"} == {
        "'Record a hand'",
        "'Hand %(n)s'",
        "'Every cell is filled.'",
        "'Try again'",
        "'Your turn.'",
    }


def test_the_walk_sees_a_french_colon_without_its_space() -> None:
    page = (
        '<html lang="fr-CH"><body><p><strong>Équipe A:</strong> Obenabe</p><p>Place\u00a01\u00a0: Anna</p>'
        "<p>à 20:15</p><p>https://example.ch/</p></body></html>"
    )
    assert french_colons(page) == ["colon without the space before it in 'Équipe A:'"]
