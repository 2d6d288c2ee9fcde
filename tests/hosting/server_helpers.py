"""Real servers for the hosting tests: gunicorn with the project's config on a free port."""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

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
