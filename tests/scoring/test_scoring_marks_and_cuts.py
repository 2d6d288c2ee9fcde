"""Two rules of the end of the evening, decided in the core once: a stick and a potato in
the same match cell cancel; a real three-way cut is told as the highest and the lowest card."""

from __future__ import annotations

import pytest

from scorekeeper.game.errors import RuleError
from scorekeeper.scoring import Cut, Tie, cancel_marks


@pytest.mark.parametrize(
    ("marks", "left"),
    [
        (((0, 0), (2, 0), (0, 1)), ((0, 0), (2, 0), (0, 1))),
        (((2, 1), (1, 2), (1, 1)), ((1, 0), (0, 1), (0, 0))),
        (((4, 2),), ((2, 0),)),
    ],
)
def test_a_stick_and_a_potato_in_one_cell_cancel(
    marks: tuple[tuple[int, int], ...], left: tuple[tuple[int, int], ...]
) -> None:
    assert cancel_marks(marks) == left


def test_the_order_of_a_real_three_way_cut() -> None:
    tie = Tie("suit_C", "all", (0, 1, 2))
    assert tie.order_of(2, 0) == (2, 1, 0)
    assert tie.order_of(1, 2) == (1, 0, 2)
    assert tie.order_of(1) == () and tie.order_of(1, 1) == ()  # not enough to rank three
    order = tie.order_of(0, 1)
    assert Cut("suit_C", "all", 0, False, order).ranking(tie) == (0, 2, 1)
    with pytest.raises(RuleError) as err:
        Cut("suit_C", "all", 0, False, tie.order_of(0)).ranking(tie)
    assert err.value.code == "cut_order_required"


def test_two_tied_sides_need_only_the_highest_card() -> None:
    tie = Tie("obenabe", "high", (0, 2))
    assert tie.order_of(2, 0) == (2, 0)
    assert Cut("obenabe", "high", 2, False, tie.order_of(2)).ranking(tie) == (2, 0)
