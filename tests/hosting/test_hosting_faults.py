"""Faults injected in one process: an answer never claims "nothing was written" unless
nothing was. A database failure before the commit (nothing written), after it (saved: the
answer is read again from what was committed, or says it was saved), and during the COMMIT
itself (not known; resending the same request is safe). A database that cannot be reached
is 503 with Retry-After, never 500. Runs on SQLite, and on PostgreSQL with
SCOREKEEPER_TEST_DB=postgres."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from hosting_helpers import API, bearer, circle_tokens, hand, start_evening
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from scorekeeper.services import evenings
from scorekeeper.services.read import snapshot
from scorekeeper.services.read.snapshot import load_snapshot


def _lost(*_args: Any, **_kwargs: Any) -> None:
    raise OperationalError("SELECT 1", {}, Exception("server closed the connection unexpectedly"))


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"PROPAGATE_EXCEPTIONS": False}  # as in production: a failure is answered, not raised


@pytest.fixture
def circle(client: FlaskClient) -> Iterator[tuple[FlaskClient, str, dict[str, Any]]]:
    token = circle_tokens(client)[0]
    yield client, token, start_evening(client, token)


def _hands(client: FlaskClient, token: str, evening: dict[str, Any]) -> list[int]:
    resp = client.get(f"{API}/evenings/{evening['id']}/entries", headers=bearer(token))
    assert resp.status_code == 200
    return [e["hand"]["declarer_points"] for e in resp.get_json()["entries"]]


def _post(client: FlaskClient, token: str, evening: dict[str, Any], body: dict[str, Any]) -> Any:
    return client.post(f"{API}/evenings/{evening['id']}/hands", json=body, headers=bearer(token))


def _fault(resp: Any, status: int, code: str) -> str:
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.headers["Cache-Control"] == "no-store"
    if status == 503:
        assert resp.headers["Retry-After"] == "5"
    error = resp.get_json()["error"]
    assert error["code"] == code, error
    message: str = error["message"]
    return message


def _fail_after_commit(monkeypatch: pytest.MonkeyPatch, *, commit_happens: bool) -> None:
    """The next COMMIT fails: after it reached the database (``commit_happens``) or before."""
    original: Callable[[Session], None] = Session.commit

    def commit(self: Session) -> None:
        monkeypatch.setattr(Session, "commit", original)  # once
        if commit_happens:
            original(self)
        else:
            self.rollback()
        _lost()

    monkeypatch.setattr(Session, "commit", commit)


def test_a_failure_before_the_commit_wrote_nothing(circle: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client, token, evening = circle
    body = hand(evening)
    monkeypatch.setattr(evenings, "entry_rows", _lost)  # while the change is checked
    message = _fault(_post(client, token, evening, body), 503, "unavailable")
    assert "Nothing was written" in message
    monkeypatch.undo()
    assert _hands(client, token, evening) == []
    assert _post(client, token, evening, body).status_code == 200  # the same request, now written
    assert _hands(client, token, evening) == [90]


def test_a_failure_after_the_commit_answers_from_what_was_committed(
    circle: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, token, evening = circle
    body = hand(evening)
    calls: list[int] = []
    real = load_snapshot

    def once(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            _lost()
        return real(*args, **kwargs)

    monkeypatch.setattr(snapshot, "load_snapshot", once)
    resp = _post(client, token, evening, body)
    assert resp.status_code == 200, resp.get_data(as_text=True)  # read again, on a fresh connection
    assert resp.get_json()["version"] == 1 and len(calls) == 2
    monkeypatch.undo()
    assert _hands(client, token, evening) == [90]


def test_an_answer_that_cannot_be_built_says_the_change_was_saved(circle: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client, token, evening = circle
    body = hand(evening)
    monkeypatch.setattr(snapshot, "load_snapshot", _lost)
    message = _fault(_post(client, token, evening, body), 503, "saved_no_answer")
    assert "was saved" in message and "Nothing was written" not in message
    monkeypatch.undo()
    assert _hands(client, token, evening) == [90]
    again = _post(client, token, evening, body)  # resending is safe: the answer, no second hand
    assert again.status_code == 200 and again.get_json()["version"] == 1
    assert _hands(client, token, evening) == [90]


@pytest.mark.parametrize("commit_happens", [True, False], ids=["committed", "not-committed"])
def test_a_failing_commit_says_the_outcome_is_unknown(
    circle: Any, monkeypatch: pytest.MonkeyPatch, commit_happens: bool
) -> None:
    client, token, evening = circle
    body = hand(evening)
    _fail_after_commit(monkeypatch, commit_happens=commit_happens)
    message = _fault(_post(client, token, evening, body), 503, "outcome_unknown")
    assert "Nothing was written" not in message and "same request again is safe" in message
    monkeypatch.undo()
    assert _hands(client, token, evening) == ([90] if commit_happens else [])
    assert _post(client, token, evening, body).status_code == 200  # resent: recorded exactly once
    assert _hands(client, token, evening) == [90]


def test_a_bug_after_the_commit_is_a_500_that_says_saved(circle: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client, token, evening = circle

    def bug(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("a bug while building the answer")

    monkeypatch.setattr(snapshot, "load_snapshot", bug)
    _fault(_post(client, token, evening, hand(evening)), 500, "saved_no_answer")
    message = _fault(client.get(f"{API}/evenings/{evening['id']}", headers=bearer(token)), 500, "internal")
    assert "Nothing was written" not in message  # a read says nothing about writing
    monkeypatch.undo()
    assert _hands(client, token, evening) == [90]


def test_pages_say_it_in_the_users_language(circle: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client, token, evening = circle
    page = f"/c/{token}/e/{evening['id']}"
    client.set_cookie("lang", "de")
    form = {
        "expected_version": "0",
        "request_id": "page-fault-1",
        "declarer": "0",
        "row": evening["slate"]["open_rows"][0][0],
        "declarer_points": "90",
        "defender_points": "67",
    }
    _fail_after_commit(monkeypatch, commit_happens=True)
    resp = client.post(page + "/hands", data=form)
    assert resp.status_code == 503 and resp.headers["Retry-After"] == "5"
    text = resp.get_data(as_text=True)
    assert "vielleicht" in text and "nichts eingetragen" not in text
    assert client.post(page + "/hands", data=form).status_code == 302  # sent again: once
    assert _hands(client, token, evening) == [90]

    monkeypatch.setattr(snapshot, "load_snapshot", _lost)
    resp = client.get(page)
    assert resp.status_code == 503 and resp.headers["Retry-After"] == "5"
    assert "Datenbank" in resp.get_data(as_text=True)
    fragment = client.get(page + "/version?v=-1", headers={"HX-Request": "true"})
    assert fragment.status_code == 503 and "<html" not in fragment.get_data(as_text=True)


def test_the_error_log_writes_no_token(
    circle: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    client, token, evening = circle

    def bug(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(snapshot, "load_snapshot", bug)
    with caplog.at_level("ERROR"):
        assert client.get(f"/c/{token}/e/{evening['id']}").status_code == 500
    assert "Exception on /c/…/e/" in caplog.text and token not in caplog.text


def test_without_a_request_id_resending_is_not_promised(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new circle has no request id: sending it again would make a second one, so the answer says to look first."""
    _fail_after_commit(monkeypatch, commit_happens=True)
    message = _fault(client.post(f"{API}/circles", json={"name": "Runde"}), 503, "outcome_unknown")
    assert "may or may not" in message and "safe" not in message


def test_a_database_lost_after_the_answer_keeps_the_answer(circle: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database goes away between the answer and the ROLLBACK of the request's session
    (seen when PostgreSQL restarts): the written hand's 200 stands, and the next request works."""
    client, token, evening = circle
    original: Callable[[Session], None] = Session.close
    closed: list[int] = []

    def close(self: Session) -> None:
        monkeypatch.setattr(Session, "close", original)  # once
        original(self)
        closed.append(1)
        _lost()

    monkeypatch.setattr(Session, "close", close)
    resp = _post(client, token, evening, hand(evening))
    assert resp.status_code == 200, resp.get_data(as_text=True)
    assert resp.get_json()["version"] == 1 and closed == [1]
    assert _hands(client, token, evening) == [90]
