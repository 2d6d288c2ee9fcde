"""The circle's memory in words: ladders, contracts, ratings, purse lines, and the charts
(titles, descriptions, axis labels) that ``render.charts`` draws; and the days a person
gives (a season, a payment's day) as instants in the circle's time zone (pages and API).

Every figure comes from ``scorekeeper.history``; this module only names and formats it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

import flask_babel
from flask_babel import lazy_gettext as _l

from ..game.contracts import Kind
from ..game.rulesets import Variant
from ..history.purse import Purse, PurseLine
from ..history.ratings import Ladder, LadderRatings, Rating
from ..history.records import PlayerId, Settlement
from ..history.series import BarSet, SeriesSet
from ..history.stats import Filter, Season
from ..i18n import _, format_tenths, local_date, ngettext
from ..render.charts import BarChart, Lazy, LineChart, bar_chart, line_chart
from .labels import KIND_LABELS, chf

LADDER_LABELS = {
    Ladder.THREE: _l("Three players"),
    Ladder.SOLO: _l("Four players, all against all"),
    Ladder.TEAM: _l("Team game (teams and club variant)"),
}


def _instant(day: date, hour: int = 0) -> datetime:
    """``hour`` o'clock of ``day`` in the circle's time zone (the app's), as UTC."""
    return datetime.combine(day, time(hour), tzinfo=flask_babel.get_timezone()).astimezone(UTC)


def season_filter(start: date | None, end: date | None, variant: Variant | None, *, own: bool = False) -> Filter:
    """The statistics' filter for a season given by days, both included, in the circle's time
    zone; ``own``: the evenings of the circle's own rules only (``variant`` a preset's only)."""
    return Filter(
        Season(_instant(start) if start else None, _instant(end + timedelta(days=1)) if end else None), variant, own
    )


def today() -> date:
    """Today in the circle's time zone."""
    return datetime.now(flask_babel.get_timezone()).date()


def paid_at(day: date) -> datetime:
    """A payment's day as an instant: noon in the circle's time zone (the same day anywhere near)."""
    return _instant(day, 12)


def kind_label(kind: Kind) -> str:
    return str(KIND_LABELS[kind])


def percent(fraction: float) -> str:
    return f"{round(fraction * 100)} %"


def average(value: float) -> str:
    """One decimal as the language writes it (``84.5``, ``84,5`` in French)."""
    return format_tenths(value)


def decimal(value: float) -> str:
    """One decimal as the language writes it, with a real minus sign (``−1.6``, ``−1,6``)."""
    return format_tenths(value).replace("-", "−")


def rating_text(r: Rating) -> str:
    """``27.3 ± 4.1``: the skill and how sure the ladder is of it."""
    return f"{decimal(r.mu)} ± {decimal(r.sigma)}"


def ordinal_text(r: Rating) -> str:
    return decimal(r.ordinal)


def francs(rappen: float) -> str:
    """A chart's money value: ``12.50``, ``−3.00`` (the axis says CHF)."""
    r = round(rappen)
    sign = "−" if r < 0 else ""
    return f"{sign}{abs(r) // 100}.{abs(r) % 100:02d}"


def _date(when: datetime | None) -> str:
    return "" if when is None else local_date(when)


# --- the purse ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LedgerLine:
    when: datetime | None
    evening: str | None  # the evening's public id (a link), or None for a payment
    text: str  # what happened, in words
    changes: tuple[tuple[str, int], ...]  # (name, Rappen) gained or lost


def payment_text(s: Settlement, name: Callable[[PlayerId], str]) -> str:
    assert s.payer is not None and s.payee is not None and s.rappen is not None
    return _("%(payer)s paid %(payee)s %(amount)s", payer=name(s.payer), payee=name(s.payee), amount=chf(s.rappen))


def ledger_lines(p: Purse, payments: Mapping[int, Settlement], name: Callable[[PlayerId], str]) -> Lazy[LedgerLine]:
    """The running ledger, newest first (each line put in words when a page shows it)."""
    lines = p.lines
    n = len(lines)
    return Lazy(n, lambda i: _line(lines[n - 1 - i], payments, name))


def _line(line: PurseLine, payments: Mapping[int, Settlement], name: Callable[[PlayerId], str]) -> LedgerLine:
    changes = tuple((name(pid), amount) for pid, amount in line.change if amount)
    if line.payment is not None:
        return LedgerLine(line.when, None, payment_text(payments[line.payment], name), changes)
    return LedgerLine(line.when, line.evening, _("Evening"), changes)


# --- charts ---------------------------------------------------------------------------------
def money_chart(data: SeriesSet) -> LineChart:
    return line_chart(
        data,
        title=_("Net money over the season (CHF)"),
        description=_("Each player's running net money after every evening that counts in money, oldest first."),
        x_format=_date,
        value_format=francs,
        zero_line=True,
    )


def rating_chart(data: SeriesSet, ladder: Ladder) -> LineChart:
    return line_chart(
        data,
        title=_("Rating over time: %(ladder)s", ladder=LADDER_LABELS[ladder]),
        description=_(
            "Each player's rating after every evening of this ladder, with a faint band of one uncertainty either side."
        ),
        x_format=_date,
        value_format=decimal,
    )


def contracts_chart(data: BarSet, name: str) -> BarChart:
    return bar_chart(
        data,
        title=_("Average card points per contract: %(name)s", name=name),
        description=_("The average card points of the declaring side, per contract, over the hands played."),
        category=kind_label,
        hands_note=lambda n: ngettext("%(num)s hand", "%(num)s hands", n),
        value_format=lambda v: f"{v:.0f}",
    )


def ladder_rows(ladder: LadderRatings) -> list[tuple[int, str, str, str, int, PlayerId]]:
    """(rank, name, rating shown first, mu ± sigma, evenings, player id), best first."""
    return [
        (i + 1, r.name, ordinal_text(r.rating), rating_text(r.rating), r.evenings, r.player)
        for i, r in enumerate(ladder.players)
    ]
