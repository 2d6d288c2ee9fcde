"""Why a card may not be played: precise, player-understandable errors.

Legality itself is ``tables.legal_mask`` (one table lookup); this module only
explains a refusal, so its cost is paid on the error path alone.
"""

from __future__ import annotations

from scorekeeper.game.cards import Suit
from scorekeeper.game.errors import N_

from .errors import IllegalCard
from .tables import BIT, CARD, SUIT_MASK, TUTTI_ID, legal_mask


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
                "Trumps (%(trump)s) were led and you hold a trump: play a trump (only the jack, the Puur,"
                " may be kept back when it is your only trump)."
            ),
            "must_play_trump",
            card=c,
            trump=led_suit,
        )
    if mid < 4:
        return IllegalCard(
            N_("%(card)s does not follow: %(led)s was led and you hold %(led)s; follow suit or play a trump (%(trump)s)."),
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
