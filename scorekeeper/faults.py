"""Faults: what a request answers when the database fails, or the app does.

An answer never claims "nothing was written" unless nothing was. The services write
one transaction per call and note its outcome on the session (``services.store.tx.outcome``):

- ``nothing``: no write committed and none was being committed: nothing was written;
- ``saved``: a write committed and the failure came afterwards (while the answer was
  built): the change is saved;
- ``unknown``: the COMMIT itself failed (the connection broke while saving): the change
  may or may not be saved.

Both add that sending the same request again is safe when the request carries a request
id (it is recorded once, never twice); otherwise they say to look first.

A database that cannot be reached (a lost or refused connection, a pool timeout) is a
503 with ``Retry-After``, never a 500; the pool checks a connection before using it
(``pool_pre_ping``), so the app recovers by itself once the database is back. Any other
failure is a 500 with the same care about what was written. Pages get the error page
(htmx requests the bare text), the API its error shape, both in the user's language.
"""

from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from flask_babel import lazy_gettext as _l
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError, PendingRollbackError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import InternalServerError
from werkzeug.wrappers import Response

from .extensions import db
from .services.store import tx

RETRY_AFTER_S = 5
READS = ("GET", "HEAD", "OPTIONS")

TITLES = {
    503: _l("The database cannot be reached"),
    500: _l("Something went wrong"),
}
# Nothing written, by status; reads write nothing and say nothing about it.
NOTHING_WRITTEN = {
    (503, "read"): ("unavailable", _l("The database cannot be reached just now. Try again in a few seconds.")),
    (503, tx.NOTHING): (
        "unavailable",
        _l("The database cannot be reached just now. Nothing was written. Try again in a few seconds."),
    ),
    (500, "read"): ("internal", _l("Something went wrong on the server. Try again, or open the page anew.")),
    (500, tx.NOTHING): ("internal", _l("Something went wrong on the server. Nothing was written.")),
}
# Something was (or may have been) written, whatever failed afterwards; by whether the
# request carried a request id (then sending it again records it once, never twice).
WRITTEN = {
    (tx.SAVED, True): (
        "saved_no_answer",
        _l(
            "Your change was saved, but the answer could not be built. Open the page again to see it; "
            "sending the same request again is safe: it is recorded once."
        ),
    ),
    (tx.SAVED, False): (
        "saved_no_answer",
        _l("Your change was saved, but the answer could not be built. Open the page again to see it."),
    ),
    (tx.UNKNOWN, True): (
        "outcome_unknown",
        _l(
            "The connection to the database broke while saving: your change may or may not be saved. "
            "Sending the same request again is safe: it is recorded once, never twice."
        ),
    ),
    (tx.UNKNOWN, False): (
        "outcome_unknown",
        _l(
            "The connection to the database broke while saving: your change may or may not be saved. "
            "Open the page again to see whether it was before you try again."
        ),
    ),
}


def _has_request_id() -> bool:
    """Whether the request carries a request id (a form field, or a JSON body's field)."""
    if request.form.get("request_id"):
        return True
    body = request.get_json(silent=True) if request.is_json else None
    return isinstance(body, dict) and bool(body.get("request_id"))


def unavailable(err: BaseException) -> bool:
    """Whether ``err`` says the database cannot be reached (rather than a bug)."""
    if isinstance(err, (OperationalError, InterfaceError, PoolTimeout, PendingRollbackError)):
        return True
    return isinstance(err, DBAPIError) and bool(err.connection_invalidated)


def _outcome() -> str:
    try:
        found = tx.outcome()
    except Exception:  # noqa: BLE001  # pragma: no cover - the session itself is gone: say what a read says
        found = tx.NOTHING
    if found == tx.NOTHING and request.method in READS:
        return "read"
    return found


def answer(status: int) -> Response | tuple[str, int, dict[str, str]]:
    """The fault answer for this request (503: the database; 500: anything else)."""
    outcome = _outcome()
    if outcome in (tx.SAVED, tx.UNKNOWN):
        code, message = WRITTEN[(outcome, _has_request_id())]
    else:
        code, message = NOTHING_WRITTEN[(status, outcome)]
    text = str(message)
    headers = {"Cache-Control": "no-store"}
    if status == 503:
        headers["Retry-After"] = str(RETRY_AFTER_S)
    if request.path.startswith("/api/"):
        response = jsonify({"error": {"code": code, "message": text, "params": {}}})
        response.status_code = status
        response.headers.update(headers)
        return response
    if request.headers.get("HX-Request"):
        return text, status, headers
    return render_template("errors/error.html", title=str(TITLES[status]), text=text), status, headers


def _database_error(err: Exception) -> Response | tuple[str, int, dict[str, str]]:
    if unavailable(err):
        current_app.logger.warning("database unavailable (%s): %s", type(err).__name__, err)
        return answer(503)
    current_app.logger.error("database error", exc_info=err)
    return answer(500)


def _internal_error(err: InternalServerError) -> Response | tuple[str, int, dict[str, str]]:
    original = err.original_exception
    if original is not None and unavailable(original):
        return answer(503)
    return answer(500)


def _close_session(_exc: BaseException | None) -> None:
    """The request's session, closed before Flask-SQLAlchemy's own teardown would close it.

    Closing rolls back the transaction a read left open. When the database went away after the
    answer was built (a restart between the last statement and that ROLLBACK), the ROLLBACK
    raises; raised from a teardown, it escapes the WSGI call and gunicorn replaces the finished
    answer (a hand that was written, say) by a bare 500. Here the failure is logged, the
    connection invalidated (the pool replaces it) and the session forgotten; the answer stands.
    """
    registry = db.session.registry
    if not registry.has():
        return
    session = registry()
    try:
        session.close()
    except Exception as err:  # logged; the answer is already built
        if unavailable(err):
            current_app.logger.warning("closing the session: database unavailable (%s): %s", type(err).__name__, err)
        else:
            current_app.logger.error("closing the session failed", exc_info=err)
        try:
            session.invalidate()
        except Exception:  # noqa: BLE001 - the connection is gone either way
            pass
    finally:
        registry.clear()


def init_app(app: Flask) -> None:
    for cls in (DBAPIError, PoolTimeout, PendingRollbackError):
        app.register_error_handler(cls, _database_error)
    app.register_error_handler(500, _internal_error)
    app.teardown_request(_close_session)  # runs before the app context's teardown
