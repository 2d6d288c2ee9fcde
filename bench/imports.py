"""What a refused import costs the server: prints figures, is not a test.

    python bench/imports.py [--mb 30] [--workers 2]

gunicorn with the project's config (``--workers`` workers, 4 threads each) on a fresh SQLite
database. Bodies of about ``--mb`` MB sent to ``POST /api/v1/circles/import``:

- ``invalid``: a real export of some thousands of evenings whose last hand does not add up
  (the whole file is read, parsed and checked before the refusal);
- ``damaged``: the same file without its ``circle`` (read and parsed whole, refused at once);
- ``not_json``: the same size of bytes that are not JSON;
- ``chunked``: ``Transfer-Encoding: chunked``, larger than the limit (``IMPORT_MAX_BYTES``).

For each, on a fresh server of one worker: the answer's status, its wall time and how much
the worker's peak memory (``VmHWM``) grew. Then one, and six, damaged imports at once to
``--workers`` workers: the workers' peak memory and how long a small request
(``GET /healthz``) waits meanwhile.

The last line is exactly:
``imports mb=<n> invalid_ms=<x> invalid_peak_mb=<x> damaged_ms=<x> damaged_peak_mb=<x> six_peak_mb=<x>
six_healthz_max_ms=<x> one_healthz_max_ms=<x>`` (one line)
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.history.export import dumps
from scorekeeper.history.sample import sample_circle
from scorekeeper.models import utcnow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def migrate(url: str) -> None:
    import flask_migrate

    from scorekeeper.app import create_app

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "TESTING": True})
    with app.app_context():
        flask_migrate.upgrade()


def invalid_export(mb: float) -> bytes:
    """An export of about ``mb`` MB whose last evening's first hand does not add up."""
    evenings = max(10, int(mb * 1_000_000 / 8_000))
    doc = json.loads(dumps(sample_circle(7, evenings=evenings, paper_rate=0.0), utcnow()))
    doc["evenings"][-1]["log"][0]["hand"]["declarer_points"] = 100
    doc["evenings"][-1]["log"][0]["hand"]["defender_points"] = 100
    return json.dumps(doc, separators=(",", ":")).encode()


def workers(master: int) -> list[int]:
    return sorted(int(p) for p in Path(f"/proc/{master}/task/{master}/children").read_text().split())


def peak_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def reset_peaks(pids: list[int]) -> None:
    for pid in pids:
        Path(f"/proc/{pid}/clear_refs").write_text("5")


def post(port: int, body: bytes, *, chunked: bool = False) -> tuple[int, float]:
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        if chunked:
            conn.putrequest("POST", "/api/v1/circles/import")
            conn.putheader("Content-Type", "application/json")
            conn.putheader("Transfer-Encoding", "chunked")
            conn.endheaders()
            piece = 1 << 20
            try:
                for i in range(0, len(body), piece):
                    part = body[i : i + piece]
                    conn.send(f"{len(part):x}\r\n".encode() + part + b"\r\n")
                conn.send(b"0\r\n\r\n")
            except OSError:
                pass  # the server answered before reading it all
        else:
            conn.request("POST", "/api/v1/circles/import", body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        status = resp.status
    except (OSError, http.client.HTTPException):
        status = 0
    finally:
        conn.close()
    return status, (time.perf_counter() - t0) * 1000


@contextmanager
def serving(url: str, folder: Path, workers_n: int) -> Iterator[tuple[int, list[int]]]:
    """A fresh gunicorn (port, worker pids): every figure starts from workers that read nothing."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.update(
        DATABASE_URL=url,
        SCOREKEEPER_SECRET_KEY="bench",
        SCOREKEEPER_INSTANCE_PATH=str(folder / "instance"),
        SCOREKEEPER_LIMIT_IMPORTS="1000 per hour",
        SCOREKEEPER_LIMIT_NEW_CIRCLES="1000 per hour",
    )
    cmd = [sys.executable, "-m", "gunicorn", "-c", "python:scorekeeper.gunicorn_conf", "--workers", str(workers_n)]
    cmd += ["--threads", "4", "--bind", f"127.0.0.1:{port}", "scorekeeper.app:create_app()"]
    with (folder / "gunicorn.log").open("ab") as log:
        server = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                c.request("GET", "/healthz")
                if c.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.3)
        else:
            raise SystemExit("gunicorn did not come up")
        pids = workers(server.pid)
        for _ in range(4 * len(pids)):  # every worker has loaded the app and answered an import
            post(port, b"{}")
        reset_peaks(pids)
        yield port, pids
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=30.0)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-imports-"))
    url = f"sqlite:///{folder / 'db.sqlite3'}"
    migrate(url)
    invalid = invalid_export(args.mb)
    doc = json.loads(invalid)
    doc.pop("circle")
    damaged = json.dumps(doc, separators=(",", ":")).encode()  # read and parsed whole, refused at once
    garbage = b"x" * len(invalid)
    over = b"{" + b" " * (32 * 1024 * 1024 + 1024 * 1024)
    print(f"files: invalid {len(invalid) / 1e6:.1f} MB, damaged {len(damaged) / 1e6:.1f} MB")
    figures: dict[str, tuple[int, float, float]] = {}
    for name, body, chunked in (
        ("invalid", invalid, False),
        ("damaged", damaged, False),
        ("not_json", garbage, False),
        ("chunked", over, True),
    ):
        with serving(url, folder, 1) as (port, pids):
            base = peak_kb(pids[0])
            status, took = post(port, body, chunked=chunked)
            peak = (peak_kb(pids[0]) - base) / 1024
        figures[name] = (status, took, peak)
        print(f"{name:9} status={status} {took:7.0f} ms  worker peak +{peak:6.1f} MB")
    crowd: dict[int, tuple[list[int], float, list[float]]] = {}
    for n in (1, 6):
        with serving(url, folder, args.workers) as (port, pids):
            crowd[n] = at_once(port, pids, damaged, n)
        statuses, slowest, peaks = crowd[n]
        print(f"{n} damaged at once: statuses={statuses}; {slowest:.0f} ms; worker peaks +MB {peaks[0]:.1f}")
    for n, (_statuses, _slowest, peaks) in crowd.items():
        print(f"  {n} at once: /healthz waited at most {peaks[1]:.0f} ms meanwhile")
    print(
        f"imports mb={len(invalid) / 1e6:.1f} invalid_ms={figures['invalid'][1]:.0f} "
        f"invalid_peak_mb={figures['invalid'][2]:.1f} damaged_ms={figures['damaged'][1]:.0f} "
        f"damaged_peak_mb={figures['damaged'][2]:.1f} six_peak_mb={crowd[6][2][0]:.1f} "
        f"six_healthz_max_ms={crowd[6][2][1]:.0f} one_healthz_max_ms={crowd[1][2][1]:.0f}"
    )


def at_once(port: int, pids: list[int], body: bytes, n: int) -> tuple[list[int], float, list[float]]:
    """``n`` imports of ``body`` at once while a small request is asked again and again:
    (statuses, the slowest answer in ms, [the largest worker peak growth in MB, the longest
    wait of the small request in ms])."""
    base_each = {p: peak_kb(p) for p in pids}
    waits: list[float] = []
    done = threading.Event()

    def poll() -> None:
        while not done.is_set():
            t0 = time.perf_counter()
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            c.request("GET", "/healthz")
            c.getresponse().read()
            c.close()
            waits.append((time.perf_counter() - t0) * 1000)
            time.sleep(0.05)

    poller = threading.Thread(target=poll)
    poller.start()
    results: list[tuple[int, float]] = []
    senders = [threading.Thread(target=lambda: results.append(post(port, body))) for _ in range(n)]
    for t in senders:
        t.start()
    for t in senders:
        t.join()
    done.set()
    poller.join()
    peak = max((peak_kb(p) - base_each[p]) / 1024 for p in pids)
    return sorted(s for s, _ms in results), max(ms for _s, ms in results), [peak, max(waits)]


if __name__ == "__main__":
    main()
