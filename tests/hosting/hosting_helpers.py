"""Helpers for the hosting tests (``from hosting_helpers import ...``): circles, evenings and seat links
through the API and the pages; what a page must not hold under the Content-Security-Policy; the Redis
server for the rate-limit storages; real servers (gunicorn with the project's config on a free port)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from shared_helpers import rid
from werkzeug.test import TestResponse

API = "/api/v1"
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_circle(client: FlaskClient, **kw: Any) -> TestResponse:
    return client.post(f"{API}/circles", json={"name": "Donnschtig-Jass"}, **kw)


def circle_tokens(client: FlaskClient, **kw: Any) -> tuple[str, str]:
    """(write token, view token) of a new circle."""
    resp = new_circle(client, **kw)
    assert resp.status_code == 201, resp.get_data(as_text=True)
    data = resp.get_json()
    return data["write_token"], data["view_token"]


def start_evening(client: FlaskClient, token: str, n: int = 4, **kw: Any) -> dict[str, Any]:
    body = {
        "variant": "three" if n == 3 else "teams",
        "players": ["Anna", "Beat", "Cla", "Dora"][:n],
        "first_dealer": 0,
        "request_id": rid("start"),
    }
    resp = client.post(f"{API}/evenings", json=body, headers=bearer(token), **kw)
    assert resp.status_code == 201, resp.get_data(as_text=True)
    data: dict[str, Any] = resp.get_json()
    return data


def hand(evening: dict[str, Any], points: int = 90) -> dict[str, Any]:
    """A valid first hand of a teams evening (its first open suit row, seat 0 declares)."""
    key = evening["slate"]["open_rows"][0][0]
    return {
        "expected_version": evening["version"],
        "request_id": rid("hand"),
        "declarer_seat": 0,
        "row_key": key,
        "declarer_points": points,
        "defender_points": 157 - points,
    }


def csrf(html: str) -> str:
    m = CSRF.search(html)
    assert m, "no CSRF token on the page"
    return m.group(1)


# --- Content-Security-Policy: what a page must not hold ----------------------------------
EVENT_HANDLER = re.compile(r"^on[a-z]+$")
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "data")


class _InlineCode(HTMLParser):
    """Collects what the strict policy would refuse: inline script or style, event handlers,
    ``javascript:`` URLs, scripts and style sheets from elsewhere than /static/."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self._in_script = False
        self._script_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v or "") for k, v in attrs}
        where = f"<{tag} {' '.join(f'{k}={v!r}' for k, v in list(a.items())[:3])}>"
        if tag == "style":
            self.problems.append(f"<style> element: {where}")
        if "style" in a:
            self.problems.append(f"style attribute: {where}")
        self.problems += [f"event handler {k}: {where}" for k in a if EVENT_HANDLER.match(k)]
        for name in URL_ATTRIBUTES:
            if a.get(name, "").strip().lower().startswith("javascript:"):
                self.problems.append(f"javascript: URL: {where}")
        if tag == "script":
            if "src" in a:
                if not a["src"].startswith("/static/"):
                    self.problems.append(f"script from elsewhere: {where}")
            elif a.get("type", "").lower() != "application/json":
                self.problems.append(f"inline script: {where}")
            self._in_script, self._script_text = True, []
        if tag == "link" and "stylesheet" in a.get("rel", "").split() and not a.get("href", "").startswith("/static/"):
            self.problems.append(f"style sheet from elsewhere: {where}")

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self._script_text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            text = "".join(self._script_text).strip()
            if text:
                try:
                    json.loads(text)
                except ValueError:
                    self.problems.append(f"script body that is not JSON: {text[:60]!r}")
            self._in_script = False


def inline_code(html: str) -> list[str]:
    """What in a page (or fragment) a strict Content-Security-Policy refuses; [] when clean."""
    parser = _InlineCode()
    parser.feed(html)
    parser.close()
    return parser.problems


# --- the rate-limit storages' Redis server -----------------------------------------------
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def redis_url() -> str:
    """The Redis server for the tests; skips (fails under SCOREKEEPER_REQUIRE_REDIS=1) when none answers."""
    import redis

    url = os.environ.get("TEST_REDIS_URL") or DEFAULT_REDIS_URL
    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except redis.RedisError:
        if os.environ.get("SCOREKEEPER_REQUIRE_REDIS", "").strip().lower() in ("1", "true", "yes", "on"):
            pytest.fail(f"Redis required (SCOREKEEPER_REQUIRE_REDIS=1) but none answers at {url}")
        pytest.skip(f"no Redis server answers at {url}")
    return url


# --- real servers: gunicorn with the project's config on a free port ----------------------
STARTUP_S = 90.0  # a loaded 2-core machine boots a worker slowly


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    port: int
    log: Path  # gunicorn's access and error log
    process: subprocess.Popen[bytes]

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for_log(self, needle: str, timeout: float = 30.0) -> str:
        """The log once it holds ``needle`` (gunicorn writes the access line after the answer)."""
        deadline = time.monotonic() + timeout
        while needle not in (text := self.text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        return text


def wait_until_up(port: int, process: subprocess.Popen[bytes] | None, log: Path | None, path: str = "/healthz") -> None:
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}:\n{log.read_text() if log else ''}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                conn.close()
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"server on {port} did not come up:\n{log.read_text() if log else ''}")


def workers_of(process: subprocess.Popen[bytes]) -> list[int]:
    """The gunicorn master's worker processes (its children), by pid."""
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    return sorted(int(pid) for pid in children)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextlib.contextmanager
def gunicorn(db_url: str, folder: Path, *, workers: int = 1, **settings: str) -> Iterator[Server]:
    """gunicorn -c python:scorekeeper.gunicorn_conf on 127.0.0.1:<free port>; ``settings`` become
    ``SCOREKEEPER_<NAME>`` variables. The database must be migrated already."""
    port = free_port()
    log = folder / f"gunicorn-{port}.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.update(
        DATABASE_URL=db_url,
        SCOREKEEPER_SECRET_KEY="gunicorn-test-secret",
        SCOREKEEPER_INSTANCE_PATH=str(folder / "instance"),
        **{f"SCOREKEEPER_{k}": v for k, v in settings.items()},
    )
    args = [sys.executable, "-m", "gunicorn", "-c", "python:scorekeeper.gunicorn_conf", "--workers", str(workers)]
    args += ["--threads", "4", "--bind", f"127.0.0.1:{port}", "--access-logfile", "-", "scorekeeper.app:create_app()"]
    with log.open("wb") as out:
        process = subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_until_up(port, process, log)
        yield Server(port, log, process)
    finally:
        stop(process)
