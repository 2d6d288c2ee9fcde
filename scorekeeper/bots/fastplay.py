"""The search's playout in one tight loop: the rule-based policy (``policy``) on
every seat, greedy, the whole rest of a hand on ints.

``policy_playout`` (``playout.py``) asks ``engine.fast.Playout`` for every card
through a chooser that calls ``policy.choose_card``, which scans the trick
again, builds the legal cards as a tuple and lists its candidates. Here the
loop keeps the trick's key, best strength, winner and points as it goes, and
the policy's follow-up rules work on masks (``ABOVE``: the cards that beat a
strength; ``FREE``: the cards that cost nothing to win with), so a card is a
few int operations; the lead and the smear are the policy's
own functions (the low discard inlined). It chooses exactly the cards ``policy_playout`` chooses with
``eps = 0`` (tested card for card on random deals of every mode), some
twice as fast; Misère (``avoid``) keeps the general path.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.engine.bitmasks import BIT, LAST_TRICK_BONUS, LEGAL_PARAMS, N_MODES, STRENGTH, SUIT_MASK, UNDER
from scorekeeper.engine.bitmasks import card_ints as cards
from scorekeeper.engine.rules import trick_status

from .policy import COST, MASTER_BITS, TOP, _lead, _low_keys, _smear


def _above(k: int) -> tuple[int, ...]:
    st = STRENGTH[k]
    return tuple(sum(1 << c for c in range(36) if st[c] > v) for v in range(128))


# ABOVE[k][v]: the cards whose strength in a trick of key k is above v (v < 128).
ABOVE: tuple[tuple[int, ...], ...] = tuple(_above(k) for k in range(N_MODES * 4))
# FREE[k]: the cards that give nothing away when they win a trick of key k (COST 0).
FREE: tuple[int, ...] = tuple(sum(1 << c for c in range(36) if COST[k][c] == 0) for k in range(N_MODES * 4))


def _cheapest(m: int, cost: tuple[int, ...], st: tuple[int, ...]) -> int:
    """The card of ``m`` with the least cost, then the weakest (the first such, ascending)."""
    best_c = -1
    best_key = 1 << 30
    for c in cards(m):
        key = cost[c] * 256 + st[c]
        if key < best_key:
            best_key = key
            best_c = c
    return best_c


def greedy_playout(
    hands: Sequence[int],
    leader: int,
    modes: Sequence[int],
    points: Sequence[int],
    trick: Sequence[int],
    teams: Sequence[int],
    declaring_team: int,
) -> tuple[list[int], list[int]]:
    """Play the rest of the hand with the policy on every seat (no Misère).
    Arguments as ``engine.fast.Playout``; returns (points won here per seat, the
    last trick's 5 included; tricks won here per seat)."""
    hs = list(hands)
    n = len(hs)
    pts = [0] * n
    won = [0] * n
    unplayed = 0
    for h in hs:
        unplayed |= h
    bit = BIT
    tk = tuple(trick)
    win = leader
    low_mid = -1
    low_keys: tuple[int, ...] = ()
    mb0 = mb1 = mb2 = mb3 = low_keys
    for mid in modes:
        if tk:
            led, fw, under = trick_status(mid, tk)
            k = mid * 4 + led
            st = STRENGTH[k]
            best = st[tk[fw]]
            win = (leader + fw) % n
            tp = 0
            for c in tk:
                tp += points[c]
            pos = len(tk)
            seat = (leader + pos) % n
            tk = ()
        else:
            seat = leader
            h = hs[seat]
            if h & (h - 1):
                c = _lead(h, cards(h), mid, unplayed, False, teams[seat] == declaring_team, points)
            else:
                c = h.bit_length() - 1
            hs[seat] = h ^ bit[c]
            k = mid * 4 + c // 9
            st = STRENGTH[k]
            best = st[c]
            win = seat
            under = UNDER[k][c]
            tp = points[c]
            unplayed ^= bit[c]
            pos = 1
            seat = (seat + 1) % n
        if mid != low_mid:
            low_mid = mid
            low_keys = _low_keys(mid, points)
            mb0, mb1, mb2, mb3 = MASTER_BITS[mid * 4 : mid * 4 + 4]
        follow, puur, trump_in, non_trump = LEGAL_PARAMS[k]
        under_of = UNDER[k]
        above = ABOVE[k]
        free = FREE[k]
        cost = COST[k]
        ls, lt, ts, tt = TOP[k]
        led = k & 3
        mid_trumps = mid < 4 and led != mid
        while pos < n:
            h = hs[seat]
            f = h & follow
            legal = f | (h & trump_in) if f and f != puur else h
            if under and h & non_trump:
                legal &= ~under
            if not legal & (legal - 1):
                c = legal.bit_length() - 1
            else:
                last = pos == n - 1
                out = unplayed & ~h
                if teams[win] == teams[seat]:
                    if last:
                        c = _smear(cards(legal), mid, unplayed, points)
                    else:
                        a = lt[out >> ls & 511]
                        b = tt[out >> ts & 511]
                        top_out = a if a > b else b
                        if best > top_out:
                            c = _smear(cards(legal), mid, unplayed, points)
                        else:
                            sure = legal & above[top_out] & free
                            c = max(cards(sure), key=points.__getitem__) if sure else -1
                else:
                    c = -1
                    winners = legal & above[best]
                    if winners:
                        take = _cheapest(winners, cost, st)
                        if last:
                            if tp >= cost[take] or (cost[take] == 0 and (tp > 0 or mid >= 4)):
                                c = take
                        else:
                            # a master of the led suit counts as sure, although it might be trumped
                            m = out if mid >= 4 or led == mid or best >= 100 else out & SUIT_MASK[led]
                            a = lt[m >> ls & 511]
                            b = tt[m >> ts & 511]
                            top_out = a if a > b else b
                            sure = winners & above[top_out]
                            if sure:
                                take = _cheapest(sure, cost, st)
                                if cost[take] == 0 or tp + points[take] >= cost[take] + 4:
                                    c = take
                            elif mid_trumps and tp >= 10 and take // 9 == mid and cost[take] <= 9:
                                c = take
                if c < 0:  # policy._low, inlined: few points, no trump, no master card, weak
                    top = (
                        mb0[unplayed & 511] | mb1[unplayed >> 9 & 511] | mb2[unplayed >> 18 & 511] | mb3[unplayed >> 27]
                    )
                    key_c = 1 << 30
                    for x in cards(legal):
                        key = low_keys[x] + 3840 if top >> x & 1 else low_keys[x]
                        if key < key_c:
                            key_c = key
                            c = x
            hs[seat] = h ^ bit[c]
            unplayed ^= bit[c]
            s = st[c]
            if s > best:
                best = s
                win = seat
                under = under_of[c]
            tp += points[c]
            pos += 1
            seat = (seat + 1) % n
        pts[win] += tp
        won[win] += 1
        leader = win
    if modes:
        pts[win] += LAST_TRICK_BONUS
    return pts, won
