"""The purse's settlements through the service: append-only payments, corrections and
voids, checked by the history's gate, a double tap written once; the loader reads them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from flask import Flask
from services_helpers import NAMES
from shared_helpers import rid

from scorekeeper.extensions import db
from scorekeeper.game.errors import RuleError
from scorekeeper.history import housekeeping
from scorekeeper.history.purse import purse
from scorekeeper.history.records import PaymentKind
from scorekeeper.models import Circle, SettlementRow
from scorekeeper.services import circles
from scorekeeper.services import purse as purse_service
from scorekeeper.services.purse import Payment
from scorekeeper.services.read import circle_record

WHEN = datetime(2026, 11, 20, 12, tzinfo=UTC)


def _circle() -> tuple[Circle, list[int]]:
    circle, _w, _v = circles.create_circle("Runde")
    ids = [circles.add_player(circle, name).id for name in NAMES[:3]]
    return circle, ids


def test_payments_corrections_and_voids_are_appended_and_balance_to_zero(app: Flask) -> None:
    with app.app_context():
        circle, (a, b, c) = _circle()
        first = purse_service.append(
            circle,
            Payment(PaymentKind.PAYMENT, payer_id=a, payee_id=b, rappen=1250, paid_at=WHEN),
            request_id=rid("pay"),
            entered_by="  Anna ",
        )
        assert first.seq == 1 and first.entered_by == "Anna" and first.payer == str(a)
        second = purse_service.append(
            circle,
            Payment(PaymentKind.PAYMENT, payer_id=c, payee_id=b, rappen=5, paid_at=WHEN),
            request_id=rid("pay"),
        )
        fixed = purse_service.append(
            circle,
            Payment(PaymentKind.CORRECTION, supersedes=1, payer_id=a, payee_id=c, rappen=1300, paid_at=WHEN),
            request_id=rid("fix"),
        )
        purse_service.append(circle, Payment(PaymentKind.VOID, supersedes=second.seq), request_id=rid("void"))
        assert fixed.seq == 3
        record = circle_record.load_record(circle)
        assert [s.kind for s in record.settlements] == [
            PaymentKind.PAYMENT,
            PaymentKind.PAYMENT,
            PaymentKind.CORRECTION,
            PaymentKind.VOID,
        ]
        p = purse(housekeeping.view(record))
        assert p.balances == {str(a): 1300, str(b): 0, str(c): -1300}
        assert sum(p.balances.values()) == 0
        assert db.session.query(SettlementRow).count() == 4


def test_a_double_tap_writes_once(app: Flask) -> None:
    with app.app_context():
        circle, (a, b, _c) = _circle()
        request_id = rid("pay")
        pay = Payment(PaymentKind.PAYMENT, payer_id=a, payee_id=b, rappen=100, paid_at=WHEN)
        one = purse_service.append(circle, pay, request_id=request_id)
        two = purse_service.append(circle, pay, request_id=request_id)
        assert one.seq == two.seq == 1
        assert db.session.query(SettlementRow).count() == 1


@pytest.mark.parametrize(
    ("payment", "code"),
    [
        (Payment(PaymentKind.PAYMENT, payer_id=-1, payee_id=-2, rappen=100, paid_at=WHEN), "player_unknown"),
        (Payment(PaymentKind.PAYMENT, payer_id=0, payee_id=0, rappen=100, paid_at=WHEN), "payment_same_player"),
        (Payment(PaymentKind.PAYMENT, payer_id=0, payee_id=1, rappen=0, paid_at=WHEN), "payment_amount"),
        (Payment(PaymentKind.PAYMENT, payer_id=0, payee_id=1, rappen=10, paid_at=None), "payment_date"),
        (Payment(PaymentKind.VOID, supersedes=7), "payment_unknown"),
        (
            Payment(PaymentKind.CORRECTION, supersedes=7, payer_id=0, payee_id=1, rappen=5, paid_at=WHEN),
            "payment_unknown",
        ),
    ],
)
def test_a_refused_payment_writes_nothing(app: Flask, payment: Payment, code: str) -> None:
    with app.app_context():
        circle, ids = _circle()

        def real(i: int | None) -> int | None:
            return ids[i] if i is not None and i >= 0 else i

        asked = Payment(
            payment.kind,
            payment.supersedes,
            real(payment.payer_id),
            real(payment.payee_id),
            payment.rappen,
            payment.paid_at,
        )
        with pytest.raises(RuleError) as err:
            purse_service.append(circle, asked, request_id=rid("bad"))
        assert err.value.code == code
        assert db.session.query(SettlementRow).count() == 0
