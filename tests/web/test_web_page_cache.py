"""Slate pages and live fragments kept per worker once drawn (scorekeeper/web/page_cache.py).

A kept text is what a fresh drawing gives, in every state, language and kind of link; only the
CSRF token (each phone its own) and the request ids (fresh on every answer) differ. A waiting
message is never hidden behind a kept page, a kept page never carries one, and a replaced link
never gets the text of the old one. Runs on SQLite, and on PostgreSQL with SCOREKEEPER_TEST_DB=postgres.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import counted, flashes, hand_data, hidden
from sqlalchemy import make_url
from web_helpers import create_circle, start_evening

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant
from scorekeeper.web.page_cache import CSRF, Kept, PageCache, cache_of, cut

API = "/api/v1"
CSRF_VALUE = re.compile(r'(?:name="csrf_token"[^>]*value="|"X-CSRFToken": ")([^"]+)"')
REQUEST_ID = re.compile(r'name="request_id"[^>]*value="([^"]+)"')
FIRST = HandEntry("suit_C", 0, None, 90, 67)


def _tokens(html: str) -> tuple[set[str], list[str]]:
    """(the CSRF tokens of a page, its request ids in order of first appearance)."""
    ids: list[str] = []
    for rid in REQUEST_ID.findall(html):
        if rid not in ids:
            ids.append(rid)
    return set(CSRF_VALUE.findall(html)), ids


def _plain(html: str) -> str:
    """The page without what belongs to one request: tokens and request ids by their place."""
    csrf, ids = _tokens(html)
    for token in csrf:
        html = html.replace(token, "CSRF")
    for n, rid in enumerate(ids):
        html = html.replace(rid, f"RID{n}")
    return html


def _queries(seen: list[str]) -> int:
    return sum(1 for statement in seen if statement.split()[0].upper() not in ("BEGIN", "COMMIT", "ROLLBACK"))


def _stamp_reads(db_url: str, statements: int) -> range:
    """The statements a request may send when it reads ``statements`` of them, the evening's stamp
    among them: on SQLite exactly those; on PostgreSQL up to two fewer (the fast layer's look and
    the kept page's look at the stamp come from the process's watched copy, ``stamp_watch``)."""
    if make_url(db_url).get_backend_name() == "sqlite":
        return range(statements, statements + 1)
    return range(max(statements - 2, 0), statements + 1)


def _bearer(path: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {path.rsplit('/', 1)[-1]}"}


def _api(client: FlaskClient, write: str, path: str, body: dict[str, Any]) -> Any:
    resp = client.post(f"{API}{path}", json=body, headers=_bearer(write))
    assert resp.status_code in (200, 201), resp.get_data(as_text=True)
    return resp.get_json()


def _evening(client: FlaskClient) -> tuple[str, str, str, str]:
    """(write link, view link, write slate path, view slate path) of a new teams evening."""
    write, view = create_circle(client)
    page = start_evening(client, write, Variant.TEAMS)
    return write, view, page, view + page[len(write) :]


def test_a_kept_page_is_what_a_fresh_drawing_gives(
    app: Flask, client: FlaskClient, app_factory: Callable[..., Flask], db_url: str
) -> None:
    """In every state (hands, a digital table, a rename, the outlook hidden), for both links and in
    several languages and regions, the page asked for a second time is taken from memory (one
    statement) and is the page a worker without the cache draws, but for tokens and request ids."""
    fresh = app_factory(db_url, WTF_CSRF_ENABLED=True, PAGE_CACHE_ENTRIES=0).test_client()
    write, _view, page, view_page = _evening(client)
    evening = page.rsplit("/", 1)[-1]
    players = client.get(f"{API}/players", headers=_bearer(write)).get_json()["players"]
    rename = {"kind": "rename", "player": players[0]["id"], "name": "Annelies", "request_id": "hk-1"}
    changes: list[Callable[[], Any]] = [
        lambda: None,
        lambda: client.post(f"{page}/hands", data={**hidden(client.get(page).text, "/hands"), **hand_data(FIRST)}),
        lambda: _api(client, write, f"/evenings/{evening}/table", {"computers": [1, 2, 3], "level": "easy"}),
        lambda: _api(client, write, "/housekeeping", rename),
        lambda: _api(client, write, f"/evenings/{evening}/settings", {"outlook_hidden": True}),
    ]
    asked: list[tuple[str, dict[str, str]]] = [
        ("", {}),
        ("", {"Accept-Language": "de-CH,de;q=0.9"}),
        ("", {"Accept-Language": "en-GB"}),  # dates as in Britain, words in English
        ("?lang=fr_CH", {}),
        ("", {"Accept-Language": "it-CH", "Host": "other.example", "X-Forwarded-Proto": "https"}),
    ]
    for change in changes:
        change()
        client.get(page)  # a message the change left is shown (and gone) first
        for path in (page, view_page):
            for query, headers in asked:
                drawn = client.get(path + query, headers=headers)
                with client.application.app_context(), counted() as seen:
                    kept = client.get(path + query, headers=headers)
                other = fresh.get(path + query, headers=headers)
                assert drawn.status_code == kept.status_code == other.status_code == 200
                # link -> evening's stamp (PostgreSQL: none while the process keeps the stamp)
                assert _queries(seen) in _stamp_reads(db_url, 1), (path, query, headers, seen)
                assert _plain(kept.text) == _plain(drawn.text) == _plain(other.text), (path, query, headers)
                assert kept.headers["ETag"] == drawn.headers["ETag"]
    assert "Annelies" in kept.text and "Annelies" in drawn.text


def test_each_phone_gets_its_own_token_and_fresh_request_ids(app: Flask, client: FlaskClient) -> None:
    """The kept page carries the asking phone's CSRF token and request ids never given before: the
    other phone records a hand with its form, and the first phone's form (the same version) is then
    a conflict, not a hand recorded twice or refused as a reused request id."""
    _write, _view, page, _view_page = _evening(client)
    other = app.test_client()
    drawn = client.get(page).text
    one, two = other.get(page).text, other.get(page).text
    (csrf_a,), ids_a = _tokens(drawn)
    (csrf_b,), ids_b = _tokens(one)
    _same_csrf, ids_c = _tokens(two)
    assert csrf_a != csrf_b and len(ids_a) == len(ids_b) == len(ids_c) >= 2
    assert not set(ids_a) & set(ids_b) and not set(ids_b) & set(ids_c)
    sent = other.post(f"{page}/hands", data={**hidden(one, "/hands"), **hand_data(FIRST)})
    assert sent.status_code == 302
    again = client.post(f"{page}/hands", data={**hidden(drawn, "/hands"), **hand_data(FIRST)})
    assert again.status_code == 409
    assert len(re.findall(r'class="filled', client.get(page).text)) == 1


def test_a_waiting_message_is_never_hidden_nor_kept(app: Flask, client: FlaskClient) -> None:
    write, _view, page, _view_page = _evening(client)
    other = app.test_client()
    kept = other.get(page)  # drawn and kept
    assert 'class="flashes"' not in kept.text and 'class="flashes"' not in other.get(page).text
    # a choice the form does not offer: nothing written (the stamp stays), a message for this phone
    form = hidden(client.get(page).text, "/outlook")
    assert client.post(f"{page}/outlook", data={**form, "hidden": "2"}).status_code == 302
    shown = client.get(page)
    assert "nothing else can be chosen here" in " ".join(flashes(shown.text))
    assert not flashes(other.get(page).text)  # the other phone's page from memory: no message
    assert not flashes(client.get(page).text)  # shown once, then the kept page


def test_three_phones_after_a_hand_draw_the_fragment_once(
    app: Flask, client: FlaskClient, app_factory: Callable[..., Flask], db_url: str
) -> None:
    _write, _view, page, view_page = _evening(client)
    poll = re.search(r'hx-get="([^"]+)"', client.get(view_page).text)
    assert poll is not None
    url = poll.group(1).replace("&amp;", "&")
    assert client.post(f"{page}/hands", data={**hidden(client.get(page).text, "/hands"), **hand_data(FIRST)})
    phones = [app.test_client() for _ in range(3)]
    fresh = app_factory(db_url, WTF_CSRF_ENABLED=True, PAGE_CACHE_ENTRIES=0).test_client().get(url)
    counts, texts = [], []
    for phone in phones:
        with app.app_context(), counted() as seen:
            got = phone.get(url)
        assert got.status_code == 200
        counts.append(_queries(seen))
        texts.append(_plain(got.text))
    # the fast layer's look (the version changed), the link and the stamp, then from memory
    later = _stamp_reads(db_url, 3)  # on PostgreSQL the stamp's two looks may come from the kept copy
    assert counts[1] in later and counts[2] in later and max(later) < counts[0], (counts, [q[:60] for q in seen])
    assert texts[0] == texts[1] == texts[2] == _plain(fresh.text)


def test_a_replaced_link_never_gets_the_old_links_page(app: Flask, client: FlaskClient) -> None:
    write, _view, page, _view_page = _evening(client)
    token = write.rsplit("/", 1)[-1]
    assert token in client.get(page).text and token in client.get(page).text  # drawn, then kept
    new = client.post(f"{API}/circle/write-token", headers=_bearer(write)).get_json()["write_token"]
    assert client.get(page).status_code == 410  # the link was replaced: said so
    renewed = client.get(page.replace(token, new))
    assert renewed.status_code == 200 and token not in renewed.text and new in renewed.text


def test_cut_and_fill_put_fresh_values_where_the_drawing_had_its_own() -> None:
    kept = cut("<a X><b r1><c r2><d r1>", "X", ["r1", "r2"])
    assert kept == Kept(("<a ", "><b ", "><c ", "><d ", ">"), (CSRF, 0, 1, 0))
    fresh = iter(["n1", "n2", "n3"])
    assert kept.fill("T", lambda: next(fresh)) == "<a T><b n1><c n2><d n1>"
    assert cut("nothing to cut", None, []).fill("T", lambda: "x") == "nothing to cut"


def test_the_cache_is_bounded_and_drops_the_least_recently_used(app: Flask) -> None:
    cache = PageCache(2)
    keys: list[Any] = [("page", "link", f"e{n}", None, True, "en", "en") for n in range(3)]  # no stamp: never read
    for key in keys[:2]:
        cache.put(key, Kept((key[2],), ()))
    assert cache.get(keys[0]) is not None  # used: the other one is older now
    cache.put(keys[2], Kept(("e2",), ()))
    assert len(cache) == 2
    assert cache.get(keys[1]) is None and cache.get(keys[0]) is not None
    assert cache_of(app) is not None
