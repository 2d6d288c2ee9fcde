"""Issue 24: "same again" on a finished evening starts the next one in one tap."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from shared_helpers import flashes, hidden
from sqlalchemy import select
from web_helpers import create_circle, fill_evening, start_evening

from scorekeeper.extensions import db
from scorekeeper.game.rulesets import Variant
from scorekeeper.models import Evening
from scorekeeper.services import circles as circle_service
from scorekeeper.services import evenings as svc
from scorekeeper.services.read.replay import ruleset_of


def _end(client: FlaskClient, ev: str) -> None:
    fields = hidden(client.get(ev).text, "/end")
    r = client.post(f"{ev}/end", data={**fields, "early": "1", "counts_in_money": "1"})
    assert r.status_code == 302


def _evenings(app: Flask) -> list[Evening]:
    with app.app_context():
        return list(db.session.execute(select(Evening).order_by(Evening.id)).scalars())


def test_same_again_starts_the_next_evening_once(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(
        client, write, Variant.TEAMS, first_dealer=3, extra={"factor_suit_S": "17", "extra_rows": ["slalom"]}
    )
    fill_evening(client, ev, Variant.TEAMS, hands=2)
    assert 'id="same-again"' not in client.get(ev).text  # only on a finished evening
    _end(client, ev)
    page = client.get(ev).text
    assert 'id="same-again"' in page and "Anna deals first" in page  # seat 4 dealt: seat 1 is next
    fields = hidden(page, "/again")
    first = client.post(f"{ev}/again", data=fields)
    assert first.status_code == 302
    again = client.post(f"{ev}/again", data=fields)  # the double tap
    assert again.status_code == 302 and again.headers["Location"] == first.headers["Location"]
    evenings = _evenings(app)
    assert len(evenings) == 2
    old, new = evenings
    assert new.status == "open" and new.first_dealer == 0
    assert new.ruleset == old.ruleset
    with app.app_context():
        circle, _w = circle_service.open_circle(write.split("/")[2])
        assert svc.names_of(svc.get_evening(circle, new.public_id)) == ("Anna", "Beat", "Cla", "Dora")
        rules = ruleset_of(svc.get_evening(circle, new.public_id))
    assert rules.row("suit_S").factor == 17 and "slalom" in [r.key for r in rules.rows]
    assert first.headers["Location"].endswith(new.public_id)
    assert "Same again" in " ".join(flashes(client.get(first.headers["Location"]).text))


def test_same_again_is_refused_while_the_evening_is_played(app: Flask, client: FlaskClient) -> None:
    write, view = create_circle(client)
    ev = start_evening(client, write, Variant.THREE)
    _end(client, ev)
    fields = hidden(client.get(ev).text, "/again")
    # an onlooker's link may not start an evening
    r = client.post(ev.replace(write, view) + "/again", data=fields)
    assert r.status_code in (403, 404)
    assert len(_evenings(app)) == 1
    # reopened: the button's page is stale, and the evening is being played again
    reopen = hidden(client.get(ev).text, "/reopen")
    assert client.post(f"{ev}/reopen", data=reopen).status_code == 302
    r = client.post(f"{ev}/again", data=fields)
    assert r.status_code == 302
    assert "still being played" in " ".join(flashes(client.get(ev).text))
    assert len(_evenings(app)) == 1
    r = client.post(f"{ev}/again", data={**fields, "csrf_token": "forged"})
    assert r.status_code == 400 and len(_evenings(app)) == 1


def test_same_again_for_three_players_wraps_the_dealer(app: Flask, client: FlaskClient) -> None:
    write, _view = create_circle(client)
    ev = start_evening(client, write, Variant.THREE, first_dealer=2)
    _end(client, ev)
    r = client.post(f"{ev}/again", data=hidden(client.get(ev).text, "/again"))
    assert r.status_code == 302
    assert _evenings(app)[-1].first_dealer == 0
