"""Housekeeping in words: what a change did (the log) and what it will do (the page that
asks for confirmation before anything is written)."""

from __future__ import annotations

from collections.abc import Mapping

from ..history.records import Housekeeping, HousekeepingKind
from ..i18n import _, local_datetime, ngettext


class Words:
    """Names of the circle's players (each one's own name now, also of a player merged
    away: ``Folded.names``) and labels of its evenings."""

    def __init__(self, names: Mapping[str, str], evenings: Mapping[str, str]) -> None:
        self.names = names
        self.evenings = evenings

    def player(self, pid: str | None) -> str:
        return self.names.get(pid or "", "?")

    def evening(self, public_id: str | None) -> str:
        return self.evenings.get(public_id or "", "?")


def evening_label(created_at: object, names: tuple[str, ...]) -> str:
    """ "Fri 6 Mar 2026 20:15: Anna, Beat, Cla" (the date in the reader's region)."""
    return _("%(when)s: %(players)s", when=local_datetime(created_at), players=", ".join(names))


def change_text(e: Housekeeping, words: Words, log: Mapping[int, Housekeeping]) -> str:
    """One line of the log: what the change did."""
    if e.kind is HousekeepingKind.RENAME:
        return _("%(player)s was renamed %(name)s.", player=words.player(e.player), name=e.name or "")
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
        ]
    target = log.get(e.undoes or 0)
    what = change_text(target, words, log) if target is not None else str(e.undoes)
    return [_("This change will be taken back:"), what]


def nothing_lost() -> str:
    return _("Nothing is erased: this change is written down and can be taken back later.")
