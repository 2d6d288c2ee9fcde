"""gunicorn with the project's config (scorekeeper.gunicorn_conf): a 413 leaves no kept-alive
connection broken, and no token reaches the access log."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hosting_helpers import Server, gunicorn

from scorekeeper.gunicorn_conf import DRAIN_LIMIT, must_close, post_worker_init

TOKEN = "q1W2e3R4t5Y6u7I8o9P0a1S2d3F4g5H6j7K8l9Z0x1C"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One gunicorn for the module, on its own migrated SQLite database."""
    from tests.conftest import migrate_to

    folder = tmp_path_factory.mktemp("gunicorn")
    url = f"sqlite:///{folder / 'db.sqlite3'}"
    migrate_to(url)
    with gunicorn(url, folder) as running:
        yield running


def _response(sock: socket.socket, buf: bytearray) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response read off a raw socket (Content-Length framed)."""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before a response")
        buf += chunk
    head, _, rest = bytes(buf).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed inside a body")
        rest += chunk
    buf[:] = rest[length:]
    return status, headers, rest[:length]


def _post(path: str, size: int, content_type: str = "application/json") -> bytes:
    head = f"POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: {content_type}\r\nContent-Length: {size}\r\n\r\n"
    return head.encode() + b"x" * size


GET = b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"


@pytest.mark.parametrize(
    ("path", "size", "status"),
    [
        ("/api/v1/circles", 300 * 1024, 413),  # over MAX_CONTENT_LENGTH (256 KiB)
        ("/api/v1/circles", 100 * 1024, 413),  # over the API's own 64 KiB
        ("/", 200 * 1024, 400),  # a form nobody reads this far (CSRF missing)
        ("/api/v1/circles", 1000, 400),  # small: gunicorn skips the rest, the connection lives on
    ],
)
def test_a_refused_body_never_breaks_the_next_request(server: Server, path: str, size: int, status: int) -> None:
    """20 rounds on raw keep-alive sockets: either the connection carries the next request, or
    the refusal said ``Connection: close`` (and a client then opens a new one): never a reset."""
    kind = "application/x-www-form-urlencoded" if path == "/" else "application/json"
    for _ in range(20):
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
            buf = bytearray()
            try:
                sock.sendall(_post(path, size, kind))
            except OSError:
                pass  # the server answered and stopped reading early: the answer is still there
            got, headers, _body = _response(sock, buf)
            assert got == status
            if headers.get("connection", "").lower() == "close":
                assert size >= DRAIN_LIMIT
                assert sock.recv(1) == b""  # and it did close
                continue
            sock.sendall(GET)
            again, _h, body = _response(sock, buf)
            assert again == 200 and json.loads(body) == {"status": "ok"}


def test_must_close_rule() -> None:
    assert not must_close([("CONTENT-LENGTH", str(DRAIN_LIMIT - 1))])
    assert must_close([("CONTENT-LENGTH", str(DRAIN_LIMIT))])
    assert must_close([("TRANSFER-ENCODING", "chunked")])
    assert must_close([("CONTENT-LENGTH", "lots")])
    assert not must_close([("HOST", "t")])


def test_no_token_reaches_the_access_log(server: Server) -> None:
    import http.client

    requests = [
        f"/c/{TOKEN}/e/abc",
        f"/s/{TOKEN}",
        f"/api/v1/circle?token={TOKEN}",
        f"/?lang=de&seat_token={TOKEN}",
        f"/static/css/app.css?{TOKEN}",
        f"/?secret=short&x={TOKEN}",
    ]
    for path in requests:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request("GET", path, headers={"Referer": f"http://t/c/{TOKEN}"})
        conn.getresponse().read()
        conn.close()
    log = server.wait_for_log("&x=")
    assert TOKEN not in log
    assert "secret=…" in log and "token=…" in log and "GET /c/…/e/abc" in log
    assert re.search(r"GET /\?lang=de&seat_token=… HTTP/1.1", log)


def test_sharing_the_slate_picture_writes_no_link_to_the_access_log(server: Server) -> None:
    """The share button's requests (the redirect to the picture link, the picture) with the slate
    page as their Referer: neither the write link nor the picture link reaches the log."""
    import http.client

    def call(method: str, path: str, body: object = None, **headers: str) -> tuple[int, str, bytes]:
        """(status, Location, body) of one request."""
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        data = json.dumps(body) if body is not None else None
        sent = {"Content-Type": "application/json", **headers} if data else dict(headers)
        conn.request(method, path, body=data, headers=sent)
        resp = conn.getresponse()
        answer = (resp.status, resp.getheader("Location") or "", resp.read())
        conn.close()
        return answer

    write = json.loads(call("POST", "/api/v1/circles", {"name": "Log"})[2])["write_token"]
    start = {"variant": "teams", "players": ["A", "B", "C", "D"], "first_dealer": 0, "request_id": "log-1"}
    evening = json.loads(call("POST", "/api/v1/evenings", start, Authorization=f"Bearer {write}")[2])["id"]
    slate = f"http://t/c/{write}/e/{evening}"
    status, link, _body = call("GET", f"/c/{write}/e/{evening}/picture", Referer=slate)
    assert status == 302 and link.startswith("/p/"), (status, link)
    assert call("GET", link, Referer=slate)[0] == 200
    key = link.split("/")[2]
    log = server.wait_for_log("GET /p/")
    assert f"GET /c/…/e/{evening}/picture" in log and "GET /p/…/slate.png" in log
    assert write not in log and key not in log


def test_gunicorn_trusts_no_forwarded_header_itself(server: Server) -> None:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", "/", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.5"})
    resp = conn.getresponse()
    resp.read()
    conn.close()
    assert resp.getheader("Strict-Transport-Security") is None  # not taken for HTTPS
    assert "203.0.113.5" not in server.wait_for_log('"GET / HTTP/1.1"')


def test_a_worker_freezes_what_it_loaded_out_of_the_collectors_way() -> None:
    import gc

    gc.unfreeze()
    try:
        post_worker_init(None)
        assert gc.get_freeze_count() > 1000  # the modules and the app: never walked again
    finally:
        gc.unfreeze()


def test_a_chunked_import_over_the_limit_is_413(server: Server) -> None:
    """A chunked body has no length to check first: it is read in pieces and refused with 413
    (not 422) as soon as it passes IMPORT_MAX_BYTES, and the connection is closed."""
    from scorekeeper.config import defaults

    limit = defaults("")["IMPORT_MAX_BYTES"]
    piece = b"{" + b" " * (1024 * 1024 - 1)
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
        head = "POST /api/v1/circles/import HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        sock.sendall((head + "Transfer-Encoding: chunked\r\n\r\n").encode())
        try:
            for _ in range(limit // len(piece) + 4):
                sock.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server answered and stopped reading: the answer is still there
        status, headers, body = _response(sock, bytearray())
    assert status == 413, body[:300]
    assert json.loads(body)["error"]["code"] == "too_large"
    assert headers.get("connection", "").lower() == "close"


def _sockets_per_worker(master: int, port: int, state: str) -> list[set[str]]:
    """The sockets (inodes) on local ``port`` in ``state`` (/proc/net/tcp: "01" established, "0A"
    listening) that each worker of the gunicorn ``master`` holds (its /proc/<pid>/fd)."""
    wanted = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == state:
            wanted.add(fields[9])
    held = []
    for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split():
        inodes = set()
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        held.append(inodes & wanted)
    return held


def test_both_workers_serve_a_proxys_few_long_connections(tmp_path: Path) -> None:
    """A proxy opens a few connections at once and keeps them: with a listening socket per worker
    (``reuse_port``) the kernel spreads them, so both workers serve (with one shared socket the
    worker that woke first took them all: bench/web.py --proxy)."""
    from tests.conftest import migrate_to

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    migrate_to(url)
    with gunicorn(url, tmp_path, workers=2) as running:
        deadline = time.monotonic() + 30
        while len(Path(f"/proc/{running.process.pid}/task/{running.process.pid}/children").read_text().split()) < 2:
            assert time.monotonic() < deadline, "the second worker did not start"
            time.sleep(0.1)
        time.sleep(1)  # both workers listening
        socks = [socket.create_connection(("127.0.0.1", running.port), timeout=30) for _ in range(16)]
        try:
            for sock in socks:  # one request each, the connection kept alive
                sock.sendall(GET)
                assert _response(sock, bytearray())[0] == 200
            counts = [len(held) for held in _sockets_per_worker(running.process.pid, running.port, "01")]
            listening = _sockets_per_worker(running.process.pid, running.port, "0A")
        finally:
            for sock in socks:
                sock.close()
    # a listening socket of its own per worker (a shared one: the same socket in both)
    assert [len(held) for held in listening] == [1, 1] and not listening[0] & listening[1], listening
    assert sorted(counts) != [0, 16] and len(counts) == 2 and sum(counts) == 16, counts
