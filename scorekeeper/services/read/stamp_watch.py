"""Each process's copy of the stamps the fast poll reads, kept current by PostgreSQL (issue 15).

On PostgreSQL the fast poll's one statement (``stamp.by_link``) is a round trip to the database
server: a poll then costs about what the bare route's whole request costs. ``Watched`` keeps what
that statement answered, per link and evening, and drops it the moment the database says it
changed:

- triggers (migration ``d3a7c5e1f920``) ``NOTIFY scorekeeper_stamp, 'c:<circle id>'`` whenever a
  row the statement reads changes (a link rotated, a version bumped, the outlook setting, a digital
  table opened, dealt at or closed, a housekeeping event, a deletion), ``'*'`` on a TRUNCATE;
  ``flask restore`` sends ``'*'`` itself (it replaces the tables, which fires no row trigger);
- a thread of each process LISTENs on its own connection and drops the circle's entries;
- the copy answers only while that thread is proven current: it sends itself a beat every
  ``BEAT_S`` through the same channel, and PostgreSQL delivers notifications in commit order, so a
  beat received says every change committed before it was sent has been applied. Without a beat for
  ``LIVE_S`` (a lost or stuck connection) every lookup reads the database again; a new connection
  starts with an empty copy;
- a commit in this process (``_after_commit``, any session) is not yet known to the listener: the
  copy is not used until a sync sent after it (``s:<watch>:<commit count>``) has come back, so a
  request sees what an earlier request of this process wrote (a phone's own hand, a rotation);
- an entry is filled only by a read that began while the copy was current and during which no
  change arrived (``gen``), so a read from before a change is never kept after it;
- no entry is older than ``MAX_AGE_S`` (a bound on a change made with the triggers switched off).

A change that makes a link stop working (a rotation, an erased circle) is answered only once no
copy anywhere can still answer the old link (``honour_everywhere``): the process asks every copy it
has heard beating in the last ``LIVE_S`` (``r:<watch>:<mark>``; only a copy that beat then can be
answering); each acknowledges (``a:<asker>:<mark>:<watch>``) after it has applied every change
committed before the ask; the answer waits for all of them, at most ``LIVE_S`` after the commit: by
then a copy that has not heard the change has stopped answering (its last beat was sent before the
commit). A copy listening for less than ``LIVE_S`` does not know all the others: it waits the bound.
So once a phone is shown the new link, the old one is refused by every worker and host. SQLite
needs none of it: its statement runs in process (``Direct``).
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import weakref
from contextlib import suppress
from time import monotonic, sleep
from typing import Any, Protocol

from sqlalchemy import Engine, event, text
from sqlalchemy.orm import Session

from ..store.tokens import hash_token
from .stamp import Stamp, by_link, link_row, stamp_of_row, valid_link

log = logging.getLogger(__name__)

CHANNEL = "scorekeeper_stamp"
BEAT_S = 0.5  # a beat this often
LIVE_S = 1.5  # the copy answers while the last beat it received was sent less than this ago
MAX_AGE_S = 60.0  # an entry is read again after this long whatever happened
MAX_ENTRIES = 50_000  # links x evenings watched at once (some 12,000 tables); past it, start over
RETRY_S = (0.2, 0.5, 1.0, 2.0, 5.0)  # waits before connecting again

Found = tuple[Stamp, bool]  # the stamp, whether the link may write

# Commits of this process (every session, every app): a lookup uses the copy only once the
# listener has caught up with all of them.
_commits = 0
_commits_lock = threading.Lock()
_WATCHES: weakref.WeakSet[Watched] = weakref.WeakSet()  # this process's copies (one per app)


@event.listens_for(Session, "after_commit")
def _after_commit(_session: Session) -> None:
    global _commits
    with _commits_lock:
        _commits += 1


class Stamps(Protocol):
    def by_link(self, token: str, public_id: str) -> Found | None: ...

    def close(self) -> None: ...


class Direct:
    """The statement every time (SQLite: in process, no round trip)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def by_link(self, token: str, public_id: str) -> Found | None:
        return by_link(self.engine, token, public_id)

    def close(self) -> None:
        pass


class Watched:
    """The statement's answers kept per (hashed link, evening), dropped on PostgreSQL's word."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.name = f"{os.getpid()}.{secrets.token_hex(4)}"
        self.lock = threading.Lock()
        self.entries: dict[tuple[str, str], tuple[int, Stamp, bool, float]] = {}
        self.circles: dict[int, set[tuple[str, str]]] = {}
        self.gen = 0  # bumped by every change that arrives and every flush
        self.live_until = 0.0  # monotonic
        self.synced = 0  # the commits of this process the listener has caught up with
        self.asked = (-1, 0.0)  # the last sync sent: (commit count, when)
        self.listener_pid: int | None = None  # the backend of the listening connection
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None
        self.started_in: int | None = None  # the process that started the thread (a fork has none)
        self.marks = 0  # syncs and asks sent (one count: each is a mark this copy hears back)
        self.heard = 0  # the last sync heard back
        self.changed = threading.Condition(self.lock)  # an ask or an acknowledgement heard
        self.peers: dict[str, float] = {}  # the other copies heard beating: name -> when (monotonic)
        self.listening_since = 0.0  # monotonic: since then every copy's beats have been heard here
        self.waiting: dict[int, tuple[set[str] | None, set[str]]] = {}  # ask -> (who must answer, who did)
        self.owed: list[str] = []  # acknowledgements the listener sends next (its thread only)
        _WATCHES.add(self)

    # --- lookups (the request threads) ---------------------------------------------------
    def by_link(self, token: str, public_id: str) -> Found | None:
        if not valid_link(token, public_id):
            return None
        if self.started_in != os.getpid():
            self._start()
        key = (hash_token(token), public_id)
        now = monotonic()
        current = now < self.live_until and self.synced >= _commits and not self.stopping.is_set()
        if current:
            hit = self.entries.get(key)
            if hit is not None and now - hit[3] < MAX_AGE_S:
                return hit[1], hit[2]
        elif now < self.live_until:
            self._ask_sync(now)
        gen = self.gen
        row = link_row(self.engine, token, public_id)
        if row is None:
            return None  # not kept: the full path refuses and counts it
        stamp, can_write, circle = stamp_of_row(row)
        if current:
            self._keep(key, circle, stamp, can_write, gen, now)
        return stamp, can_write

    def _keep(self, key: tuple[str, str], circle: int, stamp: Stamp, can_write: bool, gen: int, now: float) -> None:
        with self.lock:
            if self.gen != gen:
                return  # a change arrived while the row was read: the row may be older than it
            if len(self.entries) >= MAX_ENTRIES:
                self._flush()
            self.entries[key] = (circle, stamp, can_write, now)
            self.circles.setdefault(circle, set()).add(key)

    def _ask_sync(self, now: float) -> None:
        """Ask the listener to catch up with this process's commits (once, or again after a
        second without an answer)."""
        asked, when = self.asked
        if asked >= _commits and now - when < 1.0:
            return
        self.asked = (_commits, now)
        try:
            self._sync()
        except Exception:  # the lookup reads the database meanwhile; asked again later
            log.warning("the stamp sync could not be sent", exc_info=True)

    def _sync(self) -> int:
        """Send the listener this process's commit count and a new mark; the mark's number. Heard
        back, everything committed before it was sent (here or elsewhere) has been applied."""
        with self.lock:
            self.marks += 1
            mark = self.marks
        self._notify(f"s:{self.name}:{_commits}:{mark}")
        return mark

    def _notify(self, payload: str) -> None:
        conn = self.engine.raw_connection()
        try:
            cursor = conn.cursor()
            cursor.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
            cursor.close()
            conn.commit()
        except BaseException:
            conn.invalidate()
            raise
        finally:
            conn.close()

    # --- the listener (its own thread and connection) ------------------------------------
    def _start(self) -> None:
        with self.lock:
            if self.started_in == os.getpid():
                return
            self.started_in = os.getpid()
            self.stopping.clear()
            self.live_until = 0.0
            self._flush()  # what a parent process kept is not this one's
            self.thread = threading.Thread(target=self._listen, name="stamp-watch", daemon=True)
            self.thread.start()

    def _psycopg(self) -> Any:
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        return psycopg.connect(
            url,
            autocommit=True,
            connect_timeout=10,
            keepalives=1,
            keepalives_idle=5,
            keepalives_interval=2,
            keepalives_count=2,
        )

    def _listen(self) -> None:
        failures = 0
        while not self.stopping.is_set():
            conn = None
            try:
                conn = self._psycopg()
                conn.execute(f"LISTEN {CHANNEL}")
                self.listener_pid = conn.info.backend_pid
                self.listening_since = monotonic()
                with self.lock:
                    self._flush()  # anything kept before the LISTEN may have changed unheard
                    self.synced = _commits  # every read after this flush sees those commits
                    self.asked = (-1, 0.0)
                failures = 0
                beat_at = 0.0
                while not self.stopping.is_set():
                    if monotonic() >= beat_at:
                        beat_at = monotonic() + BEAT_S
                        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"b:{self.name}:{monotonic()!r}"))
                    while self.owed:  # acknowledged at once: an ask waits for it
                        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, self.owed.pop(0)))
                    for note in conn.notifies(timeout=max(0.0, beat_at - monotonic())):
                        self._heard(note.payload)
                        if self.stopping.is_set() or self.owed:
                            break
            except Exception:  # no or a lost connection: forget everything, connect again
                if not self.stopping.is_set():
                    log.warning("the stamp watch has no connection", exc_info=True)
            finally:
                self.live_until = 0.0
                with self.lock:
                    self._flush()
                self.listener_pid = None
                if conn is not None:
                    with suppress(Exception):  # closing a broken connection
                        conn.close()
            if not self.stopping.is_set():
                self.stopping.wait(RETRY_S[min(failures, len(RETRY_S) - 1)])
                failures += 1

    def _heard(self, payload: str) -> None:
        kind, _, rest = payload.partition(":")
        if kind == "c":
            with self.lock:
                self.gen += 1
                for key in self.circles.pop(int(rest), ()):
                    self.entries.pop(key, None)
        elif kind == "*":
            with self.lock:
                self._flush()
        else:
            name, _, value = rest.partition(":")
            if name != self.name:
                self._heard_of(kind, name, value)  # another copy's beat, ask, acknowledgement or stop
            elif kind == "b":
                with self.lock:
                    self.live_until = float(value) + LIVE_S
                    self.changed.notify_all()
                self._forget_silent_peers()
            elif kind == "s":
                count, _, mark = value.partition(":")
                self.synced = max(self.synced, int(count))
                self.heard = max(self.heard, int(mark))
            elif kind == "r":  # this copy's own ask, back: whoever beat before it must answer it
                now = monotonic()
                if now - self.listening_since >= LIVE_S:  # else a live copy may not have beaten here yet
                    must = {peer for peer, when in self.peers.items() if now - when < LIVE_S}
                    self._answered(int(value), must=must)
            elif kind == "a":
                mark, _, peer = value.partition(":")
                self._answered(int(mark), by=peer)

    def _heard_of(self, kind: str, name: str, value: str) -> None:
        if kind == "b":
            self.peers[name] = monotonic()
        elif kind == "x":  # stopped: its copy answers no more (``close``)
            self.peers.pop(name, None)
        elif kind == "r":  # everything committed before the ask has been applied here
            self.owed.append(f"a:{name}:{value}:{self.name}")

    def _answered(self, mark: int, *, must: set[str] | None = None, by: str | None = None) -> None:
        with self.lock:
            asked = self.waiting.get(mark)
            if asked is None:
                return  # given up already
            if must is not None:
                self.waiting[mark] = asked = (must, asked[1])
            if by is not None:
                asked[1].add(by)
            self.changed.notify_all()

    def _forget_silent_peers(self) -> None:
        now = monotonic()
        for peer in [peer for peer, when in self.peers.items() if now - when > 10 * LIVE_S]:
            del self.peers[peer]

    def _flush(self) -> None:
        """Forget everything (the caller holds the lock)."""
        self.gen += 1
        self.entries.clear()
        self.circles.clear()

    def reach(self, deadline: float) -> bool:
        """Ask every copy heard beating to confirm it has applied everything committed so far;
        True once each has (False: not by ``deadline``, monotonic, or this copy is not listening)."""
        with self.changed:
            while monotonic() >= self.live_until:  # not listening (yet): a new one beats within ms
                left = deadline - monotonic()
                if left <= 0 or self.stopping.is_set():
                    return False
                self.changed.wait(left)
            self.marks += 1
            mark = self.marks
            self.waiting[mark] = (None, set())
        try:
            self._notify(f"r:{self.name}:{mark}")
            with self.changed:
                while True:
                    must, did = self.waiting[mark]
                    if must is not None and must <= did:
                        return True
                    left = deadline - monotonic()
                    if left <= 0 or self.stopping.is_set():
                        return False
                    self.changed.wait(left)
        except Exception:  # the ask could not be sent: the caller waits the bound out
            log.warning("the stamp watch could not ask the other copies", exc_info=True)
            return False
        finally:
            with self.lock:
                self.waiting.pop(mark, None)

    def listening(self) -> bool:
        """This process's listener runs (it started with the first lookup)."""
        thread = self.thread
        return (
            self.started_in == os.getpid() and thread is not None and thread.is_alive() and not self.stopping.is_set()
        )

    def settle(self, timeout: float = 5.0) -> bool:
        """Wait until the copy is current (tests; a deployment never waits): the listener has
        heard every change committed so far, in this process and elsewhere."""
        self._start()
        deadline = monotonic() + timeout
        mark = None
        while monotonic() < deadline:
            if mark is None and monotonic() < self.live_until:
                mark = self._sync()
            if mark is not None and self.heard >= mark and self.synced >= _commits and monotonic() < self.live_until:
                return True
            self.stopping.wait(0.005)
        return False

    def close(self) -> None:
        """Stop the listener (the app is disposed): wakes it with a notification of its own."""
        thread = self.thread
        if thread is None or not thread.is_alive():
            return
        self.stopping.set()  # this copy answers no more; then the others are told
        try:
            self._notify(f"x:{self.name}:0")
        except Exception:  # noqa: BLE001 - it wakes at its next beat anyway
            pass
        thread.join(timeout=BEAT_S * 4)


def forget_everywhere(engine: Engine) -> None:
    """Tell every process's copy to start over (``flask restore`` replaced the tables)."""
    with engine.begin() as conn:
        conn.execute(text("SELECT pg_notify(:channel, '*')"), {"channel": CHANNEL})


def honour_everywhere(engine: Engine) -> None:
    """Call after the commit of a change that makes a link stop working (a rotation, an erased
        circle): returns once no process's copy can still answer the old link. At once on SQLite
        (nothing is kept); on PostgreSQL when every copy has acknowledged, at most ``LIVE_S`` later (the
    bound itself when this process has no copy listening, e.g. a worker that has served no poll yet)."""
    if engine.dialect.name != "postgresql":
        return
    deadline = monotonic() + LIVE_S
    watch = next((w for w in list(_WATCHES) if w.engine.url == engine.url and w.listening()), None)
    if watch is not None and watch.reach(deadline):
        return
    left = deadline - monotonic()  # no copy of this process listens: every other has stopped by then
    if left > 0:
        sleep(left)


def stamps_of(engine: Engine) -> Stamps:
    """The fast poll's reader: a watched copy on PostgreSQL, else the statement every time."""
    if engine.dialect.name == "postgresql":
        return Watched(engine)
    return Direct(engine)
