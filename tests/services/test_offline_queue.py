"""The acceptance rule of a hand queued on an offline phone (issue 11).

A queued hand carries the version it was made on and the request ids of the phone's
earlier queued hands; the server accepts it on a newer version only if every change
since is one of those hands. Checked by hand and, with Hypothesis, over interleavings
of several phones against a model of the rule. Runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from flask import Flask
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from services_helpers import NAMES, next_hand
from shared_helpers import rid
from sqlalchemy import select

from scorekeeper.extensions import db
from scorekeeper.game.errors import RuleError
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import Variant, default_ruleset
from scorekeeper.models import QUEUED_AFTER_MAX, EntryRow, Evening
from scorekeeper.scoring import Slate
from scorekeeper.services import circles, evenings
from scorekeeper.services.errors import StaleVersion


def _start() -> Evening:
    circle, _w, _v = circles.create_circle("Hütte")
    return evenings.start_evening(
        circle, ruleset=default_ruleset(Variant.SOLO4), player_names=list(NAMES), first_dealer=0, request_id=rid()
    )


def _hand_rows(ev: Evening) -> list[str]:
    return list(
        db.session.execute(
            select(EntryRow.request_id)
            .where(EntryRow.evening_id == ev.id, EntryRow.kind == "hand")
            .order_by(EntryRow.seq)
        ).scalars()
    )


def _queued(ev: Evening, entry: HandEntry, base: int, request_id: str, earlier: list[str]) -> Evening:
    return evenings.record_hand(ev, entry, expected_version=base, request_id=request_id, queued_after=earlier)


def _local(ev: Evening, *extra: HandEntry) -> Slate:
    """The slate a phone sees: the server's when it went offline plus its own queued hands."""
    slate = evenings.load_slate(ev)
    return Slate.build(slate.ruleset, slate.first_dealer, [*slate.entries, *extra])


def test_a_queue_of_three_lands_in_order(app: Flask) -> None:
    with app.app_context():
        ev = _start()
        base = ev.version
        hands: list[HandEntry] = []
        ids: list[str] = []
        for turn in range(3):
            hands.append(next_hand(_local(ev, *hands), turn))
            ids.append(rid("q"))
        for i, (entry, request_id) in enumerate(zip(hands, ids, strict=True)):
            ev = _queued(ev, entry, base, request_id, ids[:i])
        assert ev.version == base + 3
        assert _hand_rows(ev) == ids
        # the phone died mid-sync and sends everything again: nothing new
        for i, (entry, request_id) in enumerate(zip(hands, ids, strict=True)):
            ev = _queued(ev, entry, base, request_id, ids[:i])
        assert ev.version == base + 3 and _hand_rows(ev) == ids


def test_another_phones_change_is_a_conflict_with_nothing_written(app: Flask) -> None:
    with app.app_context():
        ev = _start()
        base = ev.version
        mine = next_hand(_local(ev), 0)
        # another phone (online) records the same real hand first
        ev = evenings.record_hand(ev, mine, expected_version=base, request_id=rid("other"))
        with pytest.raises(StaleVersion) as err:
            _queued(ev, mine, base, rid("q"), [])
        assert err.value.current_version == base + 1
        assert len(_hand_rows(ev)) == 1
        # "record anyway": a new request id on the fresh version (the rules still apply)
        with pytest.raises(RuleError) as refused:
            evenings.record_hand(ev, mine, expected_version=base + 1, request_id=rid("again"))
        assert refused.value.code == "row_closed"


def test_a_refused_hand_in_the_queue_does_not_block_the_next(app: Flask) -> None:
    with app.app_context():
        ev = _start()
        base = ev.version
        first = next_hand(_local(ev), 0)
        ids = [rid("q") for _ in range(3)]
        ev = _queued(ev, first, base, ids[0], [])
        second = next_hand(_local(ev), 1)
        bad = HandEntry(second.row_key, second.declarer_seat, second.contract, 100, 100)  # 200 points
        with pytest.raises(RuleError) as err:
            _queued(ev, bad, base, ids[1], ids[:1])
        assert err.value.code == "points_sum"
        third = next_hand(_local(ev), 1)
        ev = _queued(ev, third, base, ids[2], ids[:2])
        assert _hand_rows(ev) == [ids[0], ids[2]]


def test_the_rule_needs_every_change_to_be_mine(app: Flask) -> None:
    with app.app_context():
        ev = _start()
        base = ev.version
        a = rid("q")
        ev = _queued(ev, next_hand(_local(ev), 0), base, a, [])
        ev = evenings.record_hand(ev, next_hand(_local(ev), 1), expected_version=ev.version, request_id=rid("other"))
        with pytest.raises(StaleVersion):  # one of the two changes since is not mine
            _queued(ev, next_hand(_local(ev), 2), base, rid("q"), [a])
        # a correction or an undo is a change too, even when made by this request id's owner
        ev = evenings.undo_last(ev, expected_version=ev.version, request_id=rid("undo"))
        with pytest.raises(StaleVersion):
            _queued(ev, next_hand(_local(ev), 2), base, rid("q"), [a])


@pytest.mark.parametrize("earlier", [["x"] * (QUEUED_AFTER_MAX + 1), ["bad\nid"], "abc"])
def test_a_malformed_queue_is_refused(app: Flask, earlier: object) -> None:
    with app.app_context():
        ev = _start()
        with pytest.raises(RuleError) as err:
            _queued(ev, next_hand(_local(ev), 0), 0, rid("q"), earlier)  # type: ignore[arg-type]  # None on purpose
        assert err.value.code == "request_id"
        assert _hand_rows(ev) == []


# --- interleavings -------------------------------------------------------------------
@dataclass
class Phone:
    base: int = 0  # the version it last saw online
    queue: list[tuple[str, HandEntry]] = field(default_factory=list)
    sent: int = 0  # queued hands already sent once (a resend repeats them)


@dataclass
class Model:
    changes: list[str] = field(default_factory=list)  # request ids, in version order

    def accepts(self, base: int, earlier: list[str]) -> bool:
        return set(self.changes[base:]) <= set(earlier)


STEP = st.tuples(
    st.sampled_from(["queue", "queue", "bad", "send", "send", "send", "resend", "refresh"]), st.integers(0, 2)
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(STEP, min_size=1, max_size=20))
def test_interleavings_follow_the_rule(app: Flask, steps: list[tuple[str, int]]) -> None:
    """Three phones queue hands offline (some breaking a rule), send them in any interleaving,
    resend after a "crash" and come back online: every answer is the model's, and every hand
    the model accepted is on the slate exactly once."""
    with app.app_context():
        ev = _start()
        phones = [Phone() for _ in range(3)]
        model = Model()
        turn = 0
        for action, p in steps:
            phone = phones[p]
            if action in ("queue", "bad"):
                local = _local_of(ev, phone, model)
                if local.complete:
                    continue
                entry = next_hand(local, turn)
                turn += 1
                if action == "bad":
                    entry = HandEntry(entry.row_key, entry.declarer_seat, entry.contract, 158, 0)
                phone.queue.append((rid("q"), entry))
            elif action in ("send", "resend"):
                if action == "resend":
                    phone.sent = 0  # the page was closed mid-sync: everything goes again
                if phone.sent >= len(phone.queue):
                    continue
                request_id, entry = phone.queue[phone.sent]
                earlier = [r for r, _e in phone.queue[: phone.sent]]
                phone.sent += 1
                ev = _send(ev, model, phone.base, request_id, entry, earlier)
            elif not phone.queue or phone.sent == len(phone.queue):  # refresh: online again, queue done
                phone.base, phone.queue, phone.sent = len(model.changes), [], 0
            ev = db.session.get(Evening, ev.id) or ev
            assert ev.version == len(model.changes)
            assert _hand_rows(ev) == model.changes


def _local_of(ev: Evening, phone: Phone, model: Model) -> Slate:
    slate = evenings.load_slate(ev)
    seen = slate.entries[: phone.base]
    return Slate.build(
        slate.ruleset, slate.first_dealer, [*seen, *(e for _r, e in phone.queue if e.declarer_points <= 157)]
    )


def _send(ev: Evening, model: Model, base: int, request_id: str, entry: HandEntry, earlier: list[str]) -> Evening:
    if request_id in model.changes:
        event("a repeat")
        return _queued(ev, entry, base, request_id, earlier)  # a repeat: nothing new
    if not model.accepts(base, earlier):
        event("a conflict")
        with pytest.raises(StaleVersion):
            _queued(ev, entry, base, request_id, earlier)
        return ev
    if entry.declarer_points > 157:
        event("refused by the rules")
        with pytest.raises(RuleError):
            _queued(ev, entry, base, request_id, earlier)
        return ev
    event("accepted on a newer version" if base < len(model.changes) else "accepted")
    ev = _queued(ev, entry, base, request_id, earlier)
    model.changes.append(request_id)
    return ev


def test_other_evenings_requests_never_count(app: Flask) -> None:
    """The rule reads this evening's AppliedRequest rows only."""
    with app.app_context():
        one, two = _start(), _start()
        shared = rid("q")
        one = _queued(one, next_hand(_local(one), 0), 0, shared, [])
        two = evenings.record_hand(two, next_hand(_local(two), 0), expected_version=0, request_id=rid("other"))
        with pytest.raises(StaleVersion):
            _queued(two, next_hand(_local(two), 1), 0, rid("q"), [shared])
        assert len(_hand_rows(one)) == len(_hand_rows(two)) == 1
