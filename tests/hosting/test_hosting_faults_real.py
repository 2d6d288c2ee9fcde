"""Real faults under writes from several phones (slow; run in CI):

- a gunicorn worker killed with SIGKILL in the middle of writes loses and doubles no hand
  (clients resend the same request after an error; at the end the API's slate has each
  hand exactly once);
- PostgreSQL restarted during writes, on a throwaway cluster this test makes with
  initdb/pg_ctl on a free port in a temporary folder (never the shared server): clients
  (the API's writers and a slate page polling) get 503 with Retry-After, never 500, and
  the app recovers without a restart.
"""

from __future__ import annotations

import glob
import http.client
import json
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hosting_helpers import Server, free_port, gunicorn, workers_of

pytestmark = [pytest.mark.slow]

HANDS = 15  # per phone (a three-player evening has 24 cells without a choice row)
PHONES = 3
DEADLINE_S = 240.0
NO_LIMITS = {"LIMIT_EVENING_WRITES": "100000 per minute", "LIMIT_WRONG_TOKENS": "100000 per minute"}


def _call(port: int, method: str, path: str, token: str | None, body: Any = None) -> tuple[int, dict[str, str], Any]:
    """One request on a new connection: (status, headers, JSON body or None)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        data = json.loads(raw) if raw and resp.getheader("Content-Type", "").startswith("application/json") else None
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
    finally:
        conn.close()


def _ok(port: int, method: str, path: str, token: str | None, body: Any = None, status: int = 200) -> Any:
    got, _headers, data = _call(port, method, path, token, body)
    assert got == status, (method, path, got, data)
    return data


def _hand(evening: dict[str, Any], turn: int, request_id: str) -> dict[str, Any]:
    """The next hand of a three-player evening: seats in turn, each its first open row."""
    seat = turn % 3
    points = 20 + (turn * 37) % 100
    return {
        "expected_version": evening["version"],
        "request_id": request_id,
        "declarer_seat": seat,
        "row_key": evening["slate"]["open_rows"][seat][0],
        "declarer_points": points,
        "defender_points": 157 - points,
    }


@dataclass
class Phone:
    """A phone recording hands on its own evening; after an error it sends the same request again."""

    port: int
    token: str
    evening: dict[str, Any]
    recorded: list[tuple[str, int, int]] = field(default_factory=list)  # (row, seat, points) it saw written
    statuses: list[int] = field(default_factory=list)
    transport_errors: int = 0
    retry_after: set[str] = field(default_factory=set)  # Retry-After of every 503
    failure: str | None = None
    sending: bool = False  # a request of this phone is on its way

    def run(self) -> None:
        path = f"/api/v1/evenings/{self.evening['id']}/hands"
        deadline = time.monotonic() + DEADLINE_S
        try:
            for turn in range(HANDS):
                body = _hand(self.evening, turn, f"{self.evening['id']}-hand-{turn}")
                while True:
                    if time.monotonic() > deadline:
                        raise AssertionError(f"no answer in {DEADLINE_S} s")
                    self.sending = True
                    try:
                        status, headers, data = _call(self.port, "POST", path, self.token, body)
                    except (OSError, http.client.HTTPException):
                        self.transport_errors += 1  # the worker died under the request: send it again
                        time.sleep(0.2)
                        continue
                    finally:
                        self.sending = False
                    self.statuses.append(status)
                    if status == 200:
                        self.evening = data
                        self.recorded.append((body["row_key"], body["declarer_seat"], body["declarer_points"]))
                        break
                    if status == 503:
                        self.retry_after.add(headers.get("retry-after", ""))
                        time.sleep(0.5)
                        continue
                    raise AssertionError(f"answer {status}: {data}")
        except BaseException as err:  # noqa: BLE001 - reported by the test
            self.failure = repr(err)

    def slate_entries(self) -> list[tuple[str, int, int]]:
        data = _ok(self.port, "GET", f"/api/v1/evenings/{self.evening['id']}/entries", self.token)
        return [
            (e["hand"]["row_key"], e["hand"]["declarer_seat"], e["hand"]["declarer_points"]) for e in data["entries"]
        ]


def _poll(port: int, phone: Phone) -> tuple[int, str]:
    """The slate page's live fragment, as an onlooker's phone polls it: (status, Retry-After)."""
    path = f"/c/{phone.token}/e/{phone.evening['id']}/version?v=-1"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers={"HX-Request": "true"})
        resp = conn.getresponse()
        resp.read()
        return resp.status, resp.getheader("Retry-After") or ""
    finally:
        conn.close()


def _phones(server: Server) -> list[Phone]:
    token = _ok(server.port, "POST", "/api/v1/circles", None, {"name": "Fault"}, 201)["write_token"]
    phones = []
    for i in range(PHONES):
        start = {"variant": "three", "players": ["Anna", "Beat", "Cla"], "first_dealer": 0, "request_id": f"start-{i}"}
        phones.append(Phone(server.port, token, _ok(server.port, "POST", "/api/v1/evenings", token, start, 201)))
    return phones


def _write_while(phones: list[Phone], fault: Callable[[Callable[[], int]], None]) -> None:
    """Every phone records its hands in its own thread; ``fault`` runs meanwhile (it is given
    the number of hands recorded so far, to time itself)."""

    def recorded() -> int:
        failed = [p.failure for p in phones if p.failure]
        assert not failed, failed  # stop waiting for hands that will not come
        return sum(len(p.recorded) for p in phones)

    threads = [threading.Thread(target=p.run) for p in phones]
    for t in threads:
        t.start()
    try:
        fault(recorded)
    finally:
        for t in threads:
            t.join(DEADLINE_S + 30)
    for phone in phones:
        assert phone.failure is None, phone.failure
        assert len(phone.recorded) == HANDS


def _wait_for(count: Callable[[], int], at_least: int) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while count() < at_least:
        assert time.monotonic() < deadline, f"only {count()} hands recorded"
        time.sleep(0.02)


def test_a_worker_killed_during_writes_loses_and_doubles_no_hand(db_url: str, tmp_path: Path) -> None:
    with gunicorn(db_url, tmp_path, workers=2, **NO_LIMITS) as server:
        phones = _phones(server)
        killed: list[int] = []

        def kill_workers(recorded: Callable[[], int]) -> None:
            """Every worker, SIGKILL, while a phone's hand is on its way (until one was cut off)."""
            for at in (4, 12, 20, 28, 36):
                _wait_for(recorded, at)
                if killed and sum(p.transport_errors for p in phones):
                    return
                deadline = time.monotonic() + 10
                while not any(p.sending for p in phones) and time.monotonic() < deadline:
                    time.sleep(0.001)
                for victim in workers_of(server.process):
                    os.kill(victim, signal.SIGKILL)
                    killed.append(victim)

        _write_while(phones, kill_workers)
        assert killed and server.process.poll() is None
        assert sum(p.transport_errors for p in phones), "no kill cut a request off"
        for phone in phones:  # each hand exactly once, in the order the phone recorded it
            assert phone.slate_entries() == phone.recorded
            assert 500 not in phone.statuses


# --- a throwaway PostgreSQL cluster --------------------------------------------------------
@dataclass
class Cluster:
    bindir: Path
    folder: Path
    port: int
    as_user: list[str]

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/scorekeeper"

    def pg_ctl(self, *args: str) -> None:
        subprocess.run(
            [*self.as_user, str(self.bindir / "pg_ctl"), "-D", str(self.data), *args],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.pg_ctl("-l", str(self.folder / "server.log"), "-o", options, "-w", "start")

    def stop(self) -> None:
        self.pg_ctl("-m", "fast", "-w", "stop")


def _postgres_bindir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if not found:
        if os.environ.get("SCOREKEEPER_REQUIRE_PG", "").strip().lower() in ("1", "true", "yes", "on"):
            pytest.fail("PostgreSQL required, but no initdb under /usr/lib/postgresql/*/bin")
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin")
    return Path(found[-1]).parent


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster of this test alone (initdb refuses root: run as ``postgres`` then)."""
    import psycopg

    bindir = _postgres_bindir()
    folder = Path(tempfile.mkdtemp(prefix="sk-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres user to run initdb as")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    made = Cluster(bindir, folder, free_port(), as_user)
    try:
        subprocess.run(
            [*as_user, str(bindir / "initdb"), "-D", str(made.data), "-U", "postgres", "--auth=trust", "-E", "UTF8"],
            check=True,
            capture_output=True,
            timeout=180,
        )
        made.start()
        with psycopg.connect(f"host=127.0.0.1 port={made.port} user=postgres dbname=postgres", autocommit=True) as c:
            c.execute("CREATE DATABASE scorekeeper")
        from tests.conftest import migrate_to

        migrate_to(made.url)
        yield made
    finally:
        try:
            made.stop()
        except (subprocess.SubprocessError, OSError):
            pass
        shutil.rmtree(folder, ignore_errors=True)


def test_postgres_restarted_during_writes(cluster: Cluster, tmp_path: Path) -> None:
    with gunicorn(cluster.url, tmp_path, workers=1, **NO_LIMITS) as server:
        phones = _phones(server)
        before = workers_of(server.process)

        polled: list[tuple[int, str]] = []  # an onlooker's slate page polling meanwhile: (status, Retry-After)

        def restart(recorded: Callable[[], int]) -> None:
            _wait_for(recorded, 6)
            cluster.stop()
            deadline = time.monotonic() + 3  # the phones write meanwhile, the page polls
            while time.monotonic() < deadline:
                polled.append(_poll(server.port, phones[0]))
                time.sleep(0.2)
            cluster.start()
            polled.append(_poll(server.port, phones[0]))

        _write_while(phones, restart)
        statuses = [s for p in phones for s in p.statuses]
        assert 500 not in statuses
        assert 503 in statuses, "no write met the outage"
        assert set().union(*(p.retry_after for p in phones)) == {"5"}  # every 503 said when to retry
        assert {status for status, _retry in polled} <= {200, 503} and (503, "5") in polled
        assert all(retry == "5" for status, retry in polled if status == 503)
        assert polled[-1][0] == 200  # the page answers again once the database is back
        assert workers_of(server.process) == before  # recovered without a restart
        for phone in phones:
            assert phone.slate_entries() == phone.recorded
        ready = _ok(server.port, "GET", "/readyz", None)
        assert ready["status"] == "ready"
