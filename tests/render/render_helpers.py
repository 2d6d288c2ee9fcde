"""Evenings for the picture tests: plausible hands for any rule set, and a plain English
``SlatePicture`` built from a ``Slate`` and its ``Result`` (no Flask: the render
package is tested on its own; the web layer's translated builder has its own tests)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from shared_helpers import row_contracts

from scorekeeper.game.hand_entry import HandEntry
from scorekeeper.game.rulesets import RuleSet, Variant
from scorekeeper.render import Marks, PictureRow, SlatePicture
from scorekeeper.scoring import Cut, Result, Slate, draw_cut, final_result, payout, ties

NAMES = ("Anna", "Beat", "Cla", "Dora")


def play(
    ruleset: RuleSet,
    hands: int | None = None,
    *,
    seed: int = 7,
    first_dealer: int = 0,
    tie_row: str | None = None,
    matches: int = 1,
    countermatches: int = 1,
) -> Slate:
    """A slate after ``hands`` plausible hands (all when None): the next side with open rows
    declares a random open row; ``matches`` matches and ``countermatches`` countermatches early
    on; every side writes the same value in ``tie_row`` when given."""
    rng = random.Random(seed)
    entries: list[HandEntry] = []
    slate = Slate.build(ruleset, first_dealer, entries)
    turn = 0
    while not slate.complete and (hands is None or len(entries) < hands):
        open_sides = [s for s in range(ruleset.n_sides) if slate.open_rows(s)]
        side = open_sides[turn % len(open_sides)]
        seat = ruleset.seats_of(side)[(turn // len(open_sides)) % len(ruleset.seats_of(side))]
        rows = slate.open_rows(side)
        key = tie_row if tie_row in rows else rng.choice(rows)
        row = ruleset.row(key)
        contract = rng.choice(row_contracts(row)) if row.is_choice else None
        if turn == 2 and matches:
            entry = HandEntry(key, seat, contract, 157, 0, match=True)
            matches -= 1
        elif turn == 5 and countermatches:
            entry = HandEntry(key, seat, contract, 0, 157, countermatch=True)
            countermatches -= 1
        else:
            points = 91 if key == tie_row else rng.randint(25, 135)
            entry = HandEntry(key, seat, contract, points, 157 - points)
        entries.append(entry)
        slate = Slate.build(ruleset, first_dealer, entries)
        turn += 1
    return slate


def decide(slate: Slate, seed: int = 3) -> tuple[Result, list[Cut]]:
    """The final result, every tie cut by a seeded draw."""
    rng = random.Random(seed)
    cuts = [draw_cut(t, rng) for t in ties(slate)]
    return final_result(slate, cuts), cuts


def _label(ruleset: RuleSet, key: str) -> str:
    row = ruleset.row(key)
    return row.suit.name.title() if row.suit is not None else key.replace("_", " ").title()


def _group(ruleset: RuleSet, key: str) -> int:
    row = ruleset.row(key)
    if ruleset.variant is Variant.THREE:
        return row.factor
    return 0 if row.suit is not None else (2 if row.is_joker else 1)


def picture(
    ruleset: RuleSet,
    slate: Slate,
    result: Result | None = None,
    *,
    names: Sequence[str] = NAMES,
    title: str = "Donnschtig-Jass",
) -> SlatePicture:
    """A plain English picture of ``slate`` (and its result, once decided)."""
    three = ruleset.variant is Variant.THREE
    sides = [" & ".join(names[s] for s in ruleset.seats_of(side)) for side in range(ruleset.n_sides)]
    rows = []
    for i, row in enumerate(ruleset.rows):
        cells = [slate.cell(row.key, s) for s in range(ruleset.n_sides)]
        notes = tuple(
            c.contract.code if c is not None and c.contract is not None and row.is_choice else "" for c in cells
        )
        nxt = ruleset.rows[i + 1] if i + 1 < len(ruleset.rows) else None
        rr = result.rows[i] if result is not None else None
        rows.append(
            PictureRow(
                label=_label(ruleset, row.key),
                factor="" if three else f"×{row.factor}",
                cells=tuple("" if c is None else str(c.value) for c in cells),
                notes=notes if any(notes) else (),
                marks=tuple(Marks(s, p) for s, p in rr.marks) if three and rr is not None else (),
                group_end=nxt is not None and _group(ruleset, nxt.key) != _group(ruleset, row.key),
                cut="" if rr is None or rr.cut is None else f"cut won by {sides[rr.cut.winner]}",
            )
        )
    match: tuple[Marks, ...] = ()
    if three:
        match = tuple(Marks(s - min(s, p), p - min(s, p), min(s, p)) for s, p in slate.match_marks)
    money: tuple[str, ...] = ()
    if result is not None:
        pay = payout(ruleset, result)
        money = tuple(f"{names[seat]} {pay.net[seat] / 100:+.2f}" for seat in range(ruleset.n_players))
        money += tuple(f"{names[t.payer]} pays {names[t.payee]} {t.rappen / 100:.2f}" for t in pay.transfers)
    return SlatePicture(
        title=title,
        date="29 Nov 2026",
        variant=ruleset.variant.value,
        columns=tuple(sides),
        rows=tuple(rows),
        totals_label="Points" if three else "Total",
        totals=tuple(str(t) for t in slate.totals),
        status="" if result is not None else f"{len(slate.cells)} of {ruleset.n_hands} hands",
        match_label="Match" if three else "",
        match=match,
        net_label="Net sticks" if result is not None and result.net is not None else "",
        net=tuple(f"{n:+d}" for n in result.net) if result is not None and result.net is not None else (),
        winner="" if result is None else "Winner: " + ", ".join(sides[s] for s in result.winners),
        money=money,
        highlight=tuple(result.winners) if result is not None else (),
    )
