"""Helpers more than one layer of the tests uses (``from shared_helpers import ...``).

Every layer keeps its own helpers in ONE module next to its tests (``game``: none;
``engine_helpers``, ``bots_helpers``, ``scoring_helpers``, ``render_helpers``,
``web_helpers``, ``api_helpers``, ``services_helpers``, ``table_helpers``,
``e2e_helpers``, ``i18n_helpers``, ``history_helpers``, ``hosting_helpers``), imported
the same way: by module name (pytest puts each test folder, and this one, on the import path).

- ``rid``: a fresh request id; ``SOAK``: long property runs (``SCOREKEEPER_SOAK=1``);
- ``race``: jobs released together, as several phones or workers would write;
- ``forms``/``hidden``/``flashes``: a page's forms and messages read as a phone sends them;
  ``hand_data``: a hand as the record form's fields;
- hands of cards: ``any_ruleset`` (one row, ``any``, playable as any contract),
  ``contracts_for`` (every contract a table of that size plays), ``row_contracts``
  (every contract a row accepts), ``deck_for`` (a deck that deals rigged hands);
- ``store_record``: a ``history.records.CircleRecord`` (e.g. ``history.sample``) written
  straight into the database as a new circle (statistics, purse and bench/history_web.py);
  ``counted``: the SQL statements a block sends;
- ``cpu_budget``: a block fails once it has spent so many seconds of this process's CPU
  (not wall-clock time: a loaded machine does not make it flaky).
"""

from __future__ import annotations

import html as html_lib
import itertools
import os
import random
import re
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, cast

from flask import Flask
from sqlalchemy import Table, insert

from scorekeeper.engine.actions import CONTRACTS
from scorekeeper.game.cards import parse_cards
from scorekeeper.game.contracts import Contract, Kind, all_contracts
from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import BarrelRule, Row, RuleSet, Variant
from scorekeeper.history.records import CircleRecord
from scorekeeper.models import Circle, CutRow, EntryRow, Evening, Player, Seat, utcnow
from scorekeeper.scoring.final import Result
from scorekeeper.scoring.payouts import Payout
from scorekeeper.services.read.snapshot import load_snapshot

SOAK = os.environ.get("SCOREKEEPER_SOAK", "").strip().lower() in ("1", "true", "yes", "on")
_ids = itertools.count(1)


def rid(prefix: str = "r") -> str:
    """A fresh request id (unique in the test run)."""
    return f"{prefix}-{next(_ids)}"


def race(
    app: Flask,
    jobs: list[Callable[..., Any]],
    *,
    prepare: Callable[[], Any] | None = None,
    timeout: float = 60.0,
) -> list[Any]:
    """Each job in its own thread and app context, released together by a barrier.

    ``prepare`` runs in the job's context before the barrier (e.g. a phone reading the
    slate) and its result is passed to the job. Returns each job's result or exception.
    """
    results: list[Any] = [None] * len(jobs)
    barrier = threading.Barrier(len(jobs))

    def run(i: int) -> None:
        try:
            with app.app_context():
                args = () if prepare is None else (prepare(),)
                barrier.wait(timeout=10)
                results[i] = jobs[i](*args)
        except BaseException as exc:  # noqa: BLE001 - reported to the test thread
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout)
    return results


# --- pages, read as a phone sends them ---------------------------------------------------
@dataclass
class Form:
    action: str
    fields: dict[str, str] = field(default_factory=dict)


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self._current: Form | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._current = Form(a.get("action", ""))
            self.forms.append(self._current)
        elif tag == "input" and self._current is not None and a.get("type") == "hidden" and "name" in a:
            self._current.fields[a["name"]] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._current = None


def forms(html: str) -> list[Form]:
    p = _Forms()
    p.feed(html)
    return p.forms


def hidden(html: str, action_end: str) -> dict[str, str]:
    """The hidden fields (CSRF token, request id, version...) of the form posting to ``...action_end``."""
    for f in forms(html):
        if f.action.split("#")[0].split("?")[0].endswith(action_end):
            return dict(f.fields)
    raise AssertionError(f"no form posting to {action_end!r}")


def flashes(html: str) -> list[str]:
    return [
        html_lib.unescape(re.sub(r"\s+", " ", m).strip())
        for m in re.findall(r'<p class="flash flash-\w+">(.*?)</p>', html, re.S)
    ]


def hand_data(entry: HandEntry) -> dict[str, str]:
    """A hand as the record form's fields."""
    data = {"declarer": str(entry.declarer_seat)}
    if entry.seich:
        data["seich"] = "y"
        return data
    data.update(
        row=entry.row_key or "",
        played_as=entry.contract.code if entry.contract else "",
        declarer_points=str(entry.declarer_points),
        defender_points=str(entry.defender_points),
    )
    if entry.match:
        data["match"] = "y"
    if entry.countermatch:
        data["countermatch"] = "y"
    return data


# --- hands of cards -------------------------------------------------------------------
ANY_ROW = Row("any", tuple(Kind), 1)


def any_ruleset(n_players: int, teams: bool = False, six11: bool = False) -> RuleSet:
    """One row (key ``any``) that may be played as any contract, with 3 or 4 players."""
    variant = Variant.THREE if n_players == 3 else (Variant.TEAMS if teams else Variant.SOLO4)
    return RuleSet(variant=variant, rows=(ANY_ROW,), barrel=BarrelRule.BOOK, undenufe_six11=six11)


def contracts_for(n_players: int) -> list[Contract]:
    """Every concrete contract a table of that size plays (Gustav is the three-player split)."""
    return [c for c in CONTRACTS if not (c.kind is Kind.GUSTAV and n_players == 4)]


def row_contracts(row: Row) -> list[Contract]:
    """Every concrete contract a row accepts."""
    return [c for k in row.kinds for c in all_contracts(k) if row.allows(c)]


def deck_for(hands: dict[int, str], n_players: int, dealer: int = 0, seed: int = 0) -> list[int]:
    """A deck order that deals the given (possibly partial) hands to their seats; the
    other cards at random (``seed``)."""
    per = 36 // n_players
    wanted = {seat: [int(c) for c in parse_cards(text)] for seat, text in hands.items()}
    used = {c for cs in wanted.values() for c in cs}
    assert len(used) == sum(len(cs) for cs in wanted.values()), "a card is given twice"
    rest = [c for c in range(36) if c not in used]
    random.Random(seed).shuffle(rest)
    full: dict[int, list[int]] = {}
    for seat in range(n_players):
        cs = list(wanted.get(seat, []))
        assert len(cs) <= per
        while len(cs) < per:
            cs.append(rest.pop())
        full[seat] = cs
    first = (dealer + 1) % n_players
    deck = []
    taken = dict.fromkeys(range(n_players), 0)
    for i in range(36):
        seat = (first + i // 3) % n_players
        deck.append(full[seat][taken[seat]])
        taken[seat] += 1
    return deck


# --- a circle's history written straight into the database -----------------------------
def store_record(record: CircleRecord) -> tuple[str, str]:
    """Write ``record`` as a new circle (bulk inserts; no checks): (write token, view token).
    A benchmark's shortcut, not an import: the synthetic records are valid by construction."""
    from scorekeeper.extensions import db
    from scorekeeper.services import circles

    circle, write, view = circles.create_circle(record.name)
    s = db.session()
    ids: dict[str, int] = {}
    for p in record.players:
        row = Player(circle_id=circle.id, name=p.name, created_at=p.created_at or utcnow())
        s.add(row)
        s.flush()
        ids[p.id] = row.id
    entries: list[dict[str, Any]] = []
    seats: list[dict[str, Any]] = []
    cuts: list[dict[str, Any]] = []
    for n, ev in enumerate(record.evenings):
        row_ev = Evening(
            circle_id=circle.id,
            ruleset=ev.ruleset.to_dict(),
            first_dealer=ev.first_dealer,
            version=len(ev.log) + len(ev.cuts) + 1,
            status=ev.status.value,
            ended_early=not ev.counts_in_money,
            created_at=ev.created_at or utcnow(),
            ended_at=ev.ended_at,
        )
        s.add(row_ev)
        s.flush()
        seats += [{"evening_id": row_ev.id, "seat": i, "player_id": ids[p]} for i, p in enumerate(ev.seats)]
        for item in ev.log:
            e = item.entry
            assert e is not None and e.cell is None, "the database stores no paper cells yet (sample with paper_rate=0)"
            entries.append(
                {
                    "evening_id": row_ev.id,
                    "seq": item.seq,
                    "kind": item.kind.value,
                    "supersedes": item.supersedes,
                    "row_key": e.row_key,
                    "declarer_seat": e.declarer_seat,
                    "contract": e.contract.code if e.contract else None,
                    "declarer_points": e.declarer_points,
                    "defender_points": e.defender_points,
                    "match": e.match,
                    "countermatch": e.countermatch,
                    "seich": e.seich,
                    "digital": False,
                    "request_id": f"bench-{n}-{item.seq}",
                    "created_at": item.created_at or utcnow(),
                }
            )
        for i, c in enumerate(ev.cuts):
            cuts.append(
                {
                    "evening_id": row_ev.id,
                    "row_key": c.cut.row_key,
                    "end_": c.cut.end,
                    "ranking": ",".join(str(x) for x in c.cut.order),
                    "winner": c.cut.winner,
                    "drawn": c.cut.drawn,
                    "request_id": f"bench-cut-{n}-{i}",
                    "created_at": c.created_at or utcnow(),
                }
            )
    s.execute(insert(Seat), seats)
    s.execute(insert(EntryRow), entries)
    if cuts:
        s.execute(insert(cast(Table, CutRow.__table__)), cuts)
    s.commit()
    assert db.session.get(Circle, circle.id) is not None
    return write, view


@contextmanager
def counted() -> Iterator[list[str]]:
    """Every SQL statement sent to the database inside the block (in an app context), also the
    one-statement reads of ``stamp.Prepared``, which run past SQLAlchemy's events (on any engine)."""
    from sqlalchemy import event

    from scorekeeper.extensions import db
    from scorekeeper.services.read.stamp import Prepared

    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    run = Prepared.first

    def prepared(self: Prepared, values: dict[str, Any]) -> Any:
        seen.append(self.sql)
        return run(self, values)

    event.listen(db.engine, "before_cursor_execute", count)
    Prepared.first = prepared  # type: ignore[method-assign]  # counting, put back below
    try:
        yield seen
    finally:
        Prepared.first = run  # type: ignore[method-assign]  # the real method back
        event.remove(db.engine, "before_cursor_execute", count)


def bench_last_line(script: str, *args: str, timeout: int = 300) -> str:
    """Run ``bench/<script>`` with ``args`` (a smoke test) and return the last line it printed."""
    import subprocess
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parents[1] / "bench" / script
    out = subprocess.run(
        [sys.executable, str(bench), *args], capture_output=True, text=True, check=True, timeout=timeout
    ).stdout
    return out.strip().splitlines()[-1]


class CpuBudgetExceeded(BaseException):
    """A block spent more CPU than its budget (a BaseException: no ``except Exception`` hides it)."""


@contextmanager
def cpu_budget(seconds: float) -> Iterator[None]:
    """Run the block with at most ``seconds`` of this process's CPU (``ITIMER_PROF``, user and
    system time of every thread): past it, ``CpuBudgetExceeded`` is raised inside the block.
    Main thread only (where Python runs signal handlers)."""

    def over(_signum: int, _frame: Any) -> None:
        raise CpuBudgetExceeded(f"more than {seconds} s of CPU")

    previous = signal.signal(signal.SIGPROF, over)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def settled(evening: Evening) -> tuple[Result, Payout] | None:
    """The evening's final standing and money as its snapshot holds them (the one read of an
    evening; ``None`` while undecided)."""
    snap = load_snapshot(evening)
    return None if snap.result is None or snap.payout is None else (snap.result, snap.payout)
