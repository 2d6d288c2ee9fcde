"""Housekeeping in words: what a change did (the log) and what it will do (the page that
asks for confirmation before anything is written)."""

from __future__ import annotations

from collections.abc import Mapping

from ..history.records import Housekeeping, HousekeepingKind
from ..i18n import _, local_datetime, local_time, ngettext
from ..services.read.listings import EveningLabel


class Words:
    """Names of the circle's players (each one's own name now, also of a player merged
    away: ``Folded.names``) and labels of its evenings."""

    def __init__(
        self, names: Mapping[str, str], evenings: Mapping[str, str], before: Mapping[int, str] | None = None
    ) -> None:
        self.names = names
        self.evenings = evenings
        self.renamed_from = before or {}  # a rename's seq -> the name the player had just before it

    def player(self, pid: str | None) -> str:
        return self.names.get(pid or "", "?")

    def before(self, e: Housekeeping) -> str:
        """The name a rename's player had just before it (else the name now)."""
        return self.renamed_from.get(e.seq) or self.player(e.player)

    def evening(self, public_id: str | None) -> str:
        return self.evenings.get(public_id or "", "?")


def evening_label(created_at: object, names: tuple[str, ...]) -> str:
    """ "Fri 6 Mar 2026 20:15: Anna, Beat, Cla" (the date in the reader's region)."""
    return _("%(when)s: %(players)s", when=local_datetime(created_at), players=", ".join(names))


def evening_details(e: EveningLabel) -> str:
    """What tells an evening from another of the same players started the same minute:
    "12 hands, 21:24–23:05 · totals 2345 : 1987 · in progress"."""
    if e.hands:
        hands = ngettext("%(num)s hand", "%(num)s hands", e.hands)
    else:
        hands = _("no hand yet")
    parts = [hands]
    if e.first_hand is not None and e.last_hand is not None:
        first, last = local_time(e.first_hand), local_time(e.last_hand)
        when = first if first == last else "–".join((first, last))
        parts[0] = _("%(hands)s, %(when)s", hands=hands, when=when)
    if e.hands:
        parts.append(_("totals %(totals)s", totals=" : ".join(str(t) for t in e.totals)))
    if e.open:
        parts.append(_("in progress"))
    return " · ".join(parts)


def evening_words(e: EveningLabel, *, in_sentence: bool = False) -> str:
    """An evening as the housekeeping pages name it: when, who, and its details; a choice in the
    list ("... · 6 hands, ..."), or inside a sentence of the log and the confirmation ("... (6 hands, ...)")."""
    label, details = evening_label(e.created_at, e.names), evening_details(e)
    return f"{label} ({details})" if in_sentence else f"{label} · {details}"


def change_text(e: Housekeeping, words: Words, log: Mapping[int, Housekeeping]) -> str:
    """One line of the log: what the change did (a rename with the name the player had before it)."""
    if e.kind is HousekeepingKind.RENAME:
        return _("%(player)s was renamed %(name)s.", player=words.before(e), name=e.name or "")
    if e.kind is HousekeepingKind.MERGE:
        return _(
            "%(player)s was merged into %(into)s (the same person).",
            player=words.player(e.player),
            into=words.player(e.into),
        )
    if e.kind is HousekeepingKind.DELETE_EVENING:
        return _("The evening %(evening)s was deleted as a test.", evening=words.evening(e.evening))
    target = log.get(e.undoes or 0)
    what = change_text(target, words, log) if target is not None else str(e.undoes)
    return _("Taken back: %(change)s", change=what)


def confirm_text(e: Housekeeping, words: Words, log: Mapping[int, Housekeeping], evenings_of: int) -> list[str]:
    """What will happen, in sentences, for the confirmation page. ``evenings_of``: how many
    evenings the player merged away (or the evening's players) has played."""
    if e.kind is HousekeepingKind.RENAME:
        return [
            _("%(player)s will be called %(name)s.", player=words.player(e.player), name=e.name or ""),
            _("The new name is shown everywhere, also on past evenings and in the export."),
        ]
    if e.kind is HousekeepingKind.MERGE:
        return [
            _(
                "%(player)s and %(into)s are the same person: from now on there is only %(into)s.",
                player=words.player(e.player),
                into=words.player(e.into),
            ),
            ngettext(
                "The %(num)s evening of %(player)s, her money and her ratings count for %(into)s.",
                "The %(num)s evenings of %(player)s, her money and her ratings count for %(into)s.",
                evenings_of,
                player=words.player(e.player),
                into=words.player(e.into),
            ),
        ]
    if e.kind is HousekeepingKind.DELETE_EVENING:
        return [
            _("The evening %(evening)s will count nowhere:", evening=words.evening(e.evening)),
            _("not in the records, the money, the statistics nor the results of an export."),
            _("It is shown nowhere any more and takes no more hands, also on a phone that still has its slate open."),
        ]
    target = log.get(e.undoes or 0)
    what = change_text(target, words, log) if target is not None else str(e.undoes)
    if target is not None and target.kind is HousekeepingKind.DELETE_EVENING:
        return [_("This change will be taken back:"), what, _("The evening comes back as it was, with every hand.")]
    return [_("This change will be taken back:"), what]


def nothing_lost() -> str:
    return _("Nothing is erased: this change is written down and can be taken back later.")
