"""A read of the table plays nothing: the computers move in the write that made it their turn,
or when the seat page posts ``sit`` (issue 22, point 3)."""

from __future__ import annotations

from flask import Flask
from table_helpers import start

from scorekeeper.services import digital_table as tables
from scorekeeper.services import seats


def test_a_computer_that_did_not_move_waits_for_a_post_never_for_a_read(app: Flask) -> None:
    with app.app_context():
        ev = start()
        table = tables.open_table(ev)
        mover = tables.load(table).to_move()
        assert mover is not None
        human = (mover + 2) % 4
        # given to the computers without being played (a worker stopped between write and moves)
        for seat in {mover, (mover + 1) % 4}:
            seats.set_computer(table, seat, "easy")
        token = seats.issue_seat_token(table, human)
        table_id = table.public_id
    phone = app.test_client()
    assert phone.get(f"/s/{token}").status_code == 302
    for _ in range(3):  # the seat page, its poll, the API's read: nothing moves, nobody joins
        page = phone.get(f"/t/{table_id}")
        assert page.status_code == 200 and 'class="sit"' in page.text
        assert phone.get(f"/t/{table_id}/poll?v=0").status_code == 200
        assert phone.get(f"/api/v1/tables/{table_id}/seat", headers={"X-Seat-Token": token}).status_code == 200
    with app.app_context():
        st = tables.load(tables.get_table(table_id))
        assert st.seq == 0 and st.to_move() == mover and human not in st.joined
    # the page's POST: the seat is noted, and both computers play up to the human's turn
    r = phone.post(f"/t/{table_id}/sit", headers={"HX-Request": "true"})  # as htmx sends the form
    assert r.status_code == 200 and 'class="sit"' not in r.text
    with app.app_context():
        st = tables.load(tables.get_table(table_id))
        assert st.seq >= 2 and st.to_move() == human and human in st.joined
