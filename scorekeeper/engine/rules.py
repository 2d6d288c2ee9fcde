"""Why a card may not be played: precise, player-understandable errors.

Legality itself is ``bitmasks.legal_mask`` (one table lookup); this module
explains a refusal, so its cost is paid on the error path alone, and answers
questions about a trick given by its cards (status, winner, legal cards).
"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.game.cards import Suit
from scorekeeper.game.errors import N_

from .bitmasks import BIT, CARD, STRENGTH, SUIT_MASK, SUIT_OF, TUTTI_ID, UNDER, legal_mask
from .errors import IllegalCard


def explain_illegal(hand: int, card: int, mid: int, led: int, under: int, high_trump: int | None) -> IllegalCard | None:
    """The error for playing ``card`` from ``hand`` now, or None if it is legal.

    ``mid``: mode id of the trick; ``led``: suit led or -1; ``under``: mask of the
    trumps below the highest trump in the trick; ``high_trump``: that trump card.
    """
    c = CARD[card]
    if not hand & BIT[card]:
        return IllegalCard(N_("You do not hold %(card)s."), "card_not_in_hand", card=c)
    if legal_mask(hand, mid, led, under) & BIT[card]:
        return None
    led_suit = Suit(led)
    if mid < 4 and under & BIT[card] and high_trump is not None:
        return IllegalCard(
            N_(
                "%(card)s would undertrump %(high)s: you may not play a trump lower than the highest"
                " trump in the trick while you hold other cards."
            ),
            "undertrump",
            card=c,
            high=CARD[high_trump],
        )
    if mid < 4 and led == mid:
        return IllegalCard(
            N_(
                "%(card)s is not allowed: trumps (%(trump)s) were led and you hold a trump, so play a trump"
                " (only the jack, the Puur, may be kept back when it is your only trump)."
            ),
            "must_play_trump",
            card=c,
            trump=led_suit,
        )
    if mid < 4:
        return IllegalCard(
            N_(
                "%(card)s does not follow: %(led)s was led and you hold %(led)s; follow suit or play a trump (%(trump)s)."  # noqa: E501
            ),
            "must_follow_or_trump",
            card=c,
            led=led_suit,
            trump=Suit(mid),
        )
    if mid == TUTTI_ID and hand & SUIT_MASK[led]:
        return IllegalCard(
            N_(
                "%(card)s does not follow: %(led)s was led and is trump in this trick; follow suit (only"
                " the jack, the Puur, may be kept back when it is your only %(led)s)."
            ),
            "must_follow",
            card=c,
            led=led_suit,
        )
    return IllegalCard(
        N_("%(card)s does not follow: %(led)s was led and you hold %(led)s, so you must play %(led)s."),
        "must_follow",
        card=c,
        led=led_suit,
    )


def trick_status(mid: int, cards: Sequence[int]) -> tuple[int, int, int]:
    """(led suit, index in ``cards`` of the winning card, mask of trumps nobody may
    undertrump with) of a trick so far; led is -1 for an empty trick."""
    if not cards:
        return -1, -1, 0
    k = mid * 4 + SUIT_OF[cards[0]]
    strength = STRENGTH[k]
    best, win = strength[cards[0]], 0
    for i in range(1, len(cards)):
        if strength[cards[i]] > best:
            best, win = strength[cards[i]], i
    return SUIT_OF[cards[0]], win, UNDER[k][cards[win]]


def trick_winner(mid: int, cards: Sequence[int], leader: int, n_players: int) -> int:
    """The seat that wins the trick ``cards`` (in playing order) led by ``leader``
    (``TrickRecord.winner`` speaks of seats too)."""
    return (leader + trick_status(mid, cards)[1]) % n_players


def legal_in_trick(hand: int, mid: int, cards: Sequence[int]) -> int:
    """Mask of the legal cards of ``hand`` after ``cards`` were played in the trick."""
    led, _, under = trick_status(mid, cards)
    return legal_mask(hand, mid, led, under)


def explain_in_trick(hand: int, card: int, mid: int, cards: Sequence[int]) -> IllegalCard | None:
    """``explain_illegal`` for a trick given by its cards."""
    led, win, under = trick_status(mid, cards)
    return explain_illegal(hand, card, mid, led, under, cards[win] if cards else None)
