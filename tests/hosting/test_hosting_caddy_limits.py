"""docs/DEPLOY.md's Caddyfile and the app take the same bytes for a restore: Caddy's ``32MB``
is 32,000,000 bytes, below the app's 32 MiB, so a 32.5 MB file the app takes got Caddy's
502. The Caddyfile is read from the document itself (``caddy adapt``, and Caddy running it in
front of gunicorn over plain HTTP)."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hosting_helpers import STARTUP_S, free_port, gunicorn, stop

from scorekeeper.config import defaults
from scorekeeper.history import export
from scorekeeper.history.sample import sample_circle
from scorekeeper.models import utcnow

pytestmark = [pytest.mark.caddy, pytest.mark.slow]

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "DEPLOY.md"
RESTORE_PATHS = {"/api/v1/circles/import", "/restore"}


def _caddy() -> str:
    path = shutil.which("caddy")
    if path is None:
        if os.environ.get("SCOREKEEPER_REQUIRE_CADDY", "").strip().lower() in ("1", "true", "yes", "on"):
            pytest.fail("Caddy required (SCOREKEEPER_REQUIRE_CADDY=1) but `caddy` is not installed")
        pytest.skip("Debian's caddy is not installed")
    return path


def deploy_site_block() -> list[str]:
    """The lines inside the site block of DEPLOY.md's Caddyfile, before ``reverse_proxy``."""
    text = DEPLOY.read_text()
    found = re.search(r"`/etc/caddy/Caddyfile`\n\n((?:    .*\n|\n)+)", text)
    assert found, "DEPLOY.md has no Caddyfile block"
    lines = [line[4:] for line in found.group(1).splitlines()]
    start = next(i for i, line in enumerate(lines) if line.rstrip().endswith("{"))
    end = next(i for i, line in enumerate(lines) if line.strip().startswith("reverse_proxy"))
    return lines[start + 1 : end]


def _env(folder: Path) -> dict[str, str]:
    return {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder), "XDG_CONFIG_HOME": str(folder)}


def test_the_deploy_caddyfile_takes_the_apps_bytes(tmp_path: Path) -> None:
    caddy = _caddy()
    config = tmp_path / "Caddyfile"
    config.write_text("jass.example.ch {\n" + "\n".join(deploy_site_block()) + "\nreverse_proxy 127.0.0.1:8000\n}\n")
    adapted = subprocess.run(
        [caddy, "adapt", "--config", str(config), "--adapter", "caddyfile"],
        env=_env(tmp_path),
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    limits: dict[tuple[bool, frozenset[str]], int] = {}  # (negated?, paths) -> max_size

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            routes = node.get("routes")
            for route in routes if isinstance(routes, list) else []:
                sizes = [h["max_size"] for h in route.get("handle", []) if h.get("handler") == "request_body"]
                for match in route.get("match", []):
                    negated = "not" in match
                    paths = match["not"][0].get("path") if negated else match.get("path")
                    for size in sizes:
                        limits[(negated, frozenset(paths or ()))] = size
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(adapted.splitlines()[0]))
    app = defaults("")
    assert limits[(False, frozenset(RESTORE_PATHS))] == app["IMPORT_MAX_BYTES"]  # the same bytes
    assert limits[(True, frozenset(RESTORE_PATHS))] >= app["MAX_CONTENT_LENGTH"]  # every other path


@pytest.fixture
def deployed(db_url: str, tmp_path: Path) -> Iterator[int]:
    """gunicorn behind Caddy running DEPLOY.md's request limits (plain HTTP on a free port)."""
    caddy = _caddy()
    port = free_port()
    with gunicorn(db_url, tmp_path) as upstream:
        config = tmp_path / "Caddyfile"
        block = "\n".join(deploy_site_block())
        config.write_text(
            "{\n admin off\n auto_https off\n storage file_system " + str(tmp_path / "caddy") + "\n}\n"
            f"http://127.0.0.1:{port} {{\n{block}\nreverse_proxy 127.0.0.1:{upstream.port}\n}}\n"
        )
        log = tmp_path / "caddy.log"
        with log.open("wb") as out:
            process = subprocess.Popen(
                [caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
                env=_env(tmp_path),
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            deadline = time.monotonic() + STARTUP_S
            while time.monotonic() < deadline and process.poll() is None:
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    conn.request("GET", "/healthz")
                    if conn.getresponse().status == 200:
                        break
                except OSError:
                    pass
                time.sleep(0.3)
            else:
                raise RuntimeError(f"caddy did not come up:\n{log.read_text()}")
            yield port
        finally:
            stop(process)


def test_a_file_of_32_5_mb_passes_caddy_and_the_app(deployed: int) -> None:
    """Under the app's limit (33,554,432 bytes) but over Caddy's old ``32MB``: restored."""
    small = export.dumps(sample_circle(3, evenings=2, players=4), utcnow()).encode()
    body = small + b" " * (32_500_000 - len(small))  # trailing blanks: still the same JSON
    conn = http.client.HTTPConnection("127.0.0.1", deployed, timeout=120)
    conn.request("POST", "/api/v1/circles/import", body=body, headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    text = resp.read().decode(errors="replace")
    conn.close()
    assert resp.status == 201, text[:300]
