"""Offline benchmark: prints figures, is not a test.

    python bench/offline.py

The app on a fresh SQLite database (migrated), served on 127.0.0.1, and Debian's
Chromium at 360x740 through Playwright:

- first load of a slate page with nothing cached: the bytes over the wire (response
  bodies as sent, compressed, plus headers) of every request the page made, from
  Playwright's network events (the limit of issue 11 is 60 KB); and everything the
  server sent in that time, the service worker's own fetches included (server_bytes);
- a repeat load of the same page (the service worker in control): how many static
  files reached the server (the goal is none).

The last line is exactly:
``offline first_load_bytes=<n> first_load_kb=<x.x> requests=<n> server_bytes=<n> repeat_static_fetches=<n>``
"""

from __future__ import annotations

import logging
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from phone_app import CHROMIUM, bench_app, bench_evening


def main() -> None:
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        app = bench_app(Path(tmp) / "bench.db")
        path = bench_evening(app, "teams", "bench-start")
        seen: list[str] = []
        sent = [0]  # bytes the server sent: status line, headers, bodies as compressed

        def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
            seen.append(environ["PATH_INFO"])

            def counting(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
                sent[0] += len(status) + sum(len(k) + len(v) + 4 for k, v in headers)
                return start_response(status, headers, exc_info)

            for chunk in app.wsgi_app(environ, counting):
                sent[0] += len(chunk)
                yield chunk

        server = make_server("127.0.0.1", 0, wsgi, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{server.server_port}{path}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
                context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
                page = context.new_page()
                sizes: list[int] = []
                page.on(
                    "requestfinished",
                    lambda r: sizes.append(int(r.sizes()["responseBodySize"]) + int(r.sizes()["responseHeadersSize"])),
                )
                page.goto(url)
                deadline = time.monotonic() + 15
                while not page.evaluate("navigator.serviceWorker.controller !== null"):
                    if time.monotonic() > deadline:
                        raise SystemExit("the service worker did not take control")
                    time.sleep(0.1)
                page.wait_for_load_state("networkidle")
                time.sleep(1)  # the worker's own fetches (the shell from the HTTP cache, this page to keep)
                first, requests, server_bytes = sum(sizes), len(sizes), sent[0]
                seen.clear()
                page.goto(url)
                page.wait_for_load_state("networkidle")
                repeat = len([s for s in seen if s.startswith("/static/")])
                browser.close()
        finally:
            server.shutdown()
            thread.join(timeout=10)
            server.server_close()
    print(f"first load of a slate page: {first} bytes over the wire in {requests} requests")
    print(f"  everything the server sent meanwhile (the worker's fetches too): {server_bytes} bytes")
    print(f"repeat load: {repeat} static files fetched from the server")
    kb = f"{first / 1024:.1f}"
    print(
        f"offline first_load_bytes={first} first_load_kb={kb} requests={requests} "
        f"server_bytes={server_bytes} repeat_static_fetches={repeat}"
    )


if __name__ == "__main__":
    main()
