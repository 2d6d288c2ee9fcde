"""The slate as a picture through the app: ``GET /c/<token>/e/<id>/slate.png`` and the
translated ``SlatePicture`` the web layer builds for it."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image
from shared_helpers import rid, settled

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet, Variant, default_ruleset
from scorekeeper.models import Evening
from scorekeeper.present.labels import row_label, short_names
from scorekeeper.present.picture import slate_picture
from scorekeeper.render import WIDTH, Marks, SlatePicture, picture_height, render_slate, slate_png
from scorekeeper.render.chalk import FONT_DIR, font, text_width
from scorekeeper.scoring import Payout, Result, Slate
from scorekeeper.services import circles, evenings
from scorekeeper.services.read.snapshot import load_snapshot

NAMES = ["Anna", "Beat", "Cla", "Dora"]


def _hands(ruleset: RuleSet, count: int | None, seed: int = 5) -> Iterator[HandEntry]:
    """Plausible hands: a match (hand 3), a countermatch (hand 6), a tie in the first row."""
    rng = random.Random(seed)
    entries: list[HandEntry] = []
    slate = Slate.build(ruleset, 0, entries)
    first = ruleset.rows[0].key
    while not slate.complete and (count is None or len(entries) < count):
        n = len(entries)
        open_sides = [s for s in range(ruleset.n_sides) if slate.open_rows(s)]
        side = open_sides[n % len(open_sides)]
        seat = ruleset.seats_of(side)[0]
        key = first if first in slate.open_rows(side) else rng.choice(slate.open_rows(side))
        row = ruleset.row(key)
        contract = rng.choice(row.contracts) if row.is_choice else None
        if n == 3:
            entry = HandEntry(key, seat, contract, 157, 0, match=True)
        elif n == 6:
            entry = HandEntry(key, seat, contract, 0, 157, countermatch=True)
        else:
            points = 77 if key == first else rng.randint(20, 140)
            entry = HandEntry(key, seat, contract, points, 157 - points)
        entries.append(entry)
        slate = Slate.build(ruleset, 0, entries)
        yield entry


def _evening(app: Flask, variant: Variant, count: int | None, *, cut: bool = True) -> tuple[str, str, str]:
    """(write token, view token, evening id) of an evening with ``count`` hands (all when None)."""
    with app.app_context():
        rs = default_ruleset(variant)
        circle, write, view = circles.create_circle("Donnschtig-Jass")
        ev: Evening = evenings.start_evening(
            circle, ruleset=rs, player_names=NAMES[: rs.n_players], first_dealer=0, request_id=rid("img")
        )
        for entry in _hands(rs, count):
            ev = evenings.record_hand(ev, entry, expected_version=ev.version, request_id=rid("img"))
        if cut and ev.is_open and evenings.load_slate(ev).complete:  # a tie to cut (else over with its last cell)
            ev = evenings.draw_cuts(ev, expected_version=ev.version, request_id=rid("img"))
        return write, view, ev.public_id


def _png(client: FlaskClient, token: str, evening_id: str) -> Image.Image:
    r = client.get(f"/c/{token}/e/{evening_id}/slate.png")
    assert r.status_code == 200, r.text
    assert r.mimetype == "image/png"
    assert r.headers["Cache-Control"] == "private, max-age=0"
    assert r.headers["Content-Disposition"].startswith('inline; filename="coiffeur-20')
    assert r.headers["Content-Disposition"].endswith('.png"')
    img = Image.open(io.BytesIO(r.data))
    assert img.format == "PNG" and img.mode == "P"
    img.load()
    return img.convert("RGB")


def test_read_only_link_gets_the_finished_three_player_slate(app: Flask, client: FlaskClient) -> None:
    _write, view, evening_id = _evening(app, Variant.THREE, None)
    img = _png(client, view, evening_id)
    assert img.width == WIDTH and img.getpixel((40, 40))[1] < 80  # type: ignore[index]  # RGB: a tuple; the dark slate
    assert 1500 < img.height < 2400


@pytest.mark.parametrize("variant", list(Variant), ids=[v.value for v in Variant])
def test_every_variant_part_way_through(app: Flask, client: FlaskClient, variant: Variant) -> None:
    write, _view, evening_id = _evening(app, variant, 7)
    img = _png(client, write, evening_id)
    assert img.width == WIDTH and img.height > 900


def test_unknown_links_are_404(app: Flask, client: FlaskClient) -> None:
    _write, view, evening_id = _evening(app, Variant.TEAMS, 2)
    assert client.get(f"/c/not-a-token/e/{evening_id}/slate.png").status_code == 404
    assert client.get(f"/c/{view}/e/no-such-evening/slate.png").status_code == 404
    _w2, other_view, _e2 = _evening(app, Variant.TEAMS, 0)
    assert client.get(f"/c/{other_view}/e/{evening_id}/slate.png").status_code == 404  # another circle's evening


def test_the_result_links_to_the_picture(app: Flask, client: FlaskClient) -> None:
    """Through the redirect to the picture link (tests/web/test_web_links.py), never a URL of the
    picture under the circle's link."""
    write, view, evening_id = _evening(app, Variant.TEAMS, None)
    for token in (write, view):
        page = client.get(f"/c/{token}/e/{evening_id}")
        assert page.status_code == 200
        assert f'href="/c/{token}/e/{evening_id}/picture"' in page.text
        assert f"/c/{token}/e/{evening_id}/slate.png" not in page.text  # only the picture link (/p/)


def _picture_of(
    app: Flask, variant: Variant, count: int | None, *, cut: bool = True, lang: str = "en"
) -> tuple[SlatePicture, Slate, tuple[Result, Payout] | None, list[str]]:
    _write, view, evening_id = _evening(app, variant, count, cut=cut)
    with app.test_request_context(headers={"Accept-Language": lang}):
        circle, _ = circles.open_circle(view)
        ev = evenings.get_evening(circle, evening_id)
        rs = default_ruleset(variant)
        slate = evenings.load_slate(ev)
        res = settled(ev)
        pic = slate_picture(load_snapshot(ev), title=circle.name, date="29.11.2026")
        labels = [row_label(r, rs.deck) for r in rs.rows]
        return pic, slate, res, labels


def test_three_player_picture_carries_sticks_potatoes_and_money(app: Flask) -> None:
    pic, slate, res, labels = _picture_of(app, Variant.THREE, None)
    assert res is not None
    result, pay = res
    assert result.net is not None
    assert [r.label for r in pic.rows] == labels
    assert pic.columns == ("Anna", "Beat", "Cla")
    assert pic.net == tuple(f"+{n}" if n > 0 else ("0" if n == 0 else f"−{-n}") for n in result.net)
    for row, rr in zip(pic.rows, result.rows, strict=False):
        assert row.marks == tuple(Marks(s, p) for s, p in rr.marks)
        assert row.factor == ""
    first = pic.rows[0]
    assert first.cells == ("77", "77", "77") and first.cut  # the three-way tie, cut by the app
    for m, (sticks, potatoes), after in zip(pic.match, slate.match_marks, result.match_row, strict=False):
        assert (m.sticks + m.crossed, m.potatoes + m.crossed) == (sticks, potatoes)
        assert (m.sticks, m.potatoes) == after
    assert any(m.crossed for m in pic.match)  # the match and the countermatch cancel somewhere
    assert pic.highlight == result.winners and pic.winner.startswith(("Winner", "Shared"))
    assert len(pic.money) == 3 + max(1, len(pay.transfers))
    assert pic.status == ""


def test_team_picture_in_progress_and_in_swiss_german(app: Flask) -> None:
    pic, slate, res, labels = _picture_of(app, Variant.TEAMS, 5, lang="de-CH")
    assert res is None and pic.net == () and pic.match == () and pic.money == () and pic.winner == ""
    assert pic.columns == ("Anna & Cla", "Beat & Dora")
    assert [r.label for r in pic.rows] == labels
    assert [r.factor for r in pic.rows] == [f"×{r.factor}" for r in default_ruleset(Variant.TEAMS).rows]
    assert pic.totals == tuple(str(t) for t in slate.totals)
    filled = sum(1 for r in pic.rows for c in r.cells if c)
    assert filled == len(slate.cells) == 5
    assert "5" in pic.status and "16" in pic.status
    assert [r.group_end for r in pic.rows].count(True) == 2  # suits | Obenabe, Undenufe | jokers
    assert picture_height(pic) > 1000


def test_complete_slate_waiting_for_a_cut(app: Flask) -> None:
    pic, slate, res, _labels = _picture_of(app, Variant.THREE, None, cut=False)
    assert slate.complete and res is None
    assert pic.status and pic.net == () and all(not r.marks for r in pic.rows)


def test_an_evening_ended_early_shows_its_standing(app: Flask, client: FlaskClient) -> None:
    write, view, evening_id = _evening(app, Variant.THREE, 12)
    with app.app_context():
        circle, _ = circles.open_circle(write)
        ev = evenings.get_evening(circle, evening_id)
        evenings.end_evening(ev, early=True, expected_version=ev.version, request_id=rid("img"), rng=random.Random(1))
    with app.test_request_context():
        ev = evenings.get_evening(circles.open_circle(view)[0], evening_id)
        assert settled(ev) is not None
        pic = slate_picture(load_snapshot(ev), title="x", date="y")
    assert pic.status == "ended early" and pic.net and pic.winner
    assert _png(client, view, evening_id).height == picture_height(pic)  # the route draws the same standing


def test_a_club_picture_shows_where_each_seich_went(app: Flask) -> None:
    """Issue 20: the picture's Seich row says the same as the slate page (present.slate.seich_marks)."""
    rs = default_ruleset(Variant.CLUB)
    with app.app_context():
        circle, _write, _view = circles.create_circle("Beiz")
        ev = evenings.start_evening(circle, ruleset=rs, player_names=NAMES, first_dealer=0, request_id=rid("img"))
        plain = slate_picture(load_snapshot(ev), title="Beiz", date="y")
        turn = load_snapshot(ev).turn
        assert turn is not None and turn.barrel_seat is not None  # the club's first deal: a barrel
        barrel = turn.barrel_seat
        ev = evenings.record_hand(ev, HandEntry.seich_hand(barrel), expected_version=ev.version, request_id=rid("img"))
    with app.test_request_context():
        pic = slate_picture(load_snapshot(ev), title="Beiz", date="y")
    assert plain.seich == () and plain.seich_label == ""  # nothing called: no row
    side = rs.side_of(barrel)
    assert pic.seich_label == "Seich"
    assert pic.seich == tuple(f"hand 1 · {NAMES[barrel]}" if s == side else "" for s in range(2))
    assert picture_height(pic) > picture_height(plain)


ANNAS = ["Anna Zimmermann", "Beat Imboden", "Anna Zurbriggen", "Maria-Vittoria Bernasconi-Imboden"]


def _annas_picture(app: Flask, variant: Variant) -> SlatePicture:
    """The picture of an evening (six hands) of two players who share a first name, in French."""
    with app.app_context():
        rs = default_ruleset(variant)
        circle, _write, view = circles.create_circle("Jass du jeudi")
        ev = evenings.start_evening(circle, ruleset=rs, player_names=ANNAS, first_dealer=0, request_id=rid("img"))
        for entry in _hands(rs, 6):
            ev = evenings.record_hand(ev, entry, expected_version=ev.version, request_id=rid("img"))
        evening_id = ev.public_id
    with app.test_request_context(headers={"Accept-Language": "fr-CH"}):
        circle, _ = circles.open_circle(view)
        snap = load_snapshot(evenings.get_evening(circle, evening_id))
        return slate_picture(snap, title=circle.name, date="29.11.2026")


def _joined(lines: tuple[str, ...]) -> str:
    """Chalked lines read as one text: a line ending in a hyphen goes on without a space."""
    text = ""
    for line in lines:
        text += line if not text or text.endswith("-") else " " + line
    return text


@pytest.mark.parametrize("variant", [Variant.TEAMS, Variant.SOLO4], ids=["teams", "solo4"])
def test_two_annas_get_different_whole_word_names_on_the_picture(app: Flask, variant: Variant) -> None:
    # Issue 20, point 11: the picture heads its columns with the evening's short names (the
    # pages' rule), never cut ("Anna Zimm…") nor broken inside a word, the two Annas told apart.
    pic = _annas_picture(app, variant)
    short = short_names(ANNAS)
    assert short == ["Anna Zimmermann", "Beat", "Anna Zurbriggen", "Maria-Vittoria"]
    rs = default_ruleset(variant)
    assert pic.column_names == tuple(tuple(short[s] for s in rs.seats_of(side)) for side in range(rs.n_sides))
    assert pic.key == "Joueurs : " + ", ".join(ANNAS)  # the full names under the slate
    room = slate_png._grid(pic, FONT_DIR).col_w - slate_png.NAME_MARGIN
    drawn = slate_png.name_lines(pic)
    for c, fitted in enumerate(drawn):
        f = font("bold", fitted.size)
        assert all(text_width(f, line) <= room for line in fitted.lines), fitted  # within its column
        assert fitted.size >= 16, fitted  # readable on a phone
        words = _joined(fitted.lines).replace(" &", "").split()
        assert words == " ".join(pic.column_names[c]).split(), fitted  # every word whole, nothing cut
        assert not any("…" in line for line in fitted.lines)
    chalked = [_joined(f.lines).replace(" &", " ") for f in drawn]
    for seat in (0, 2):  # each Anna under her own label, whole, in her side's column
        assert short[seat] in chalked[rs.side_of(seat)]
    assert short[0] != short[2]
    img = Image.open(io.BytesIO(render_slate(pic)))
    assert img.size == (WIDTH, picture_height(pic))
