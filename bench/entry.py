"""Entry benchmark (issue 23, point 3): prints figures, is not a test.

    python bench/entry.py [--hands N] [--verbose]

The app on a fresh SQLite database (migrated), served on 127.0.0.1, and Debian's Chromium at
360x740 through Playwright, as a cheap phone on a slow network: the CPU throttled 4x
(``Emulation.setCPUThrottlingRate``) and the network emulated with a 150 ms round trip, 1.6 Mbps
down and 750 kbps up (``Network.emulateNetworkConditions``, DevTools' "Fast 3G" bandwidths). The
service worker is blocked: its own fetches would escape the page's network emulation (a reload
through it would look faster than on the phone); the static files come from the browser's cache
as on a phone that has opened the slate before.

An evening of four playing each for themselves (8 rows x 4 columns: room for 20 hands); per
hand, as a person does it: tap an open cell (the form takes its row and declarer), type the
declarer's points, tap the submit button. Measured in the page: from the submit button's
click (a capturing listener, the first to hear it) to the frame in which the cell shows its
value (a MutationObserver notices the cell filled, the time is taken in the next
``requestAnimationFrame``: the frame that paints it). The click time is kept in
``sessionStorage``, so a full page load after the tap is measured the same way as an update in
place. Bytes per entry: every request the entry made, from the tap until the page settled
(request and response, headers and bodies as sent, compressed; nothing taken from the
browser's cache), polls that answered 204 left out.

The last line is exactly:
``entry tap_to_paint_p50_ms=<x> tap_to_paint_p95_ms=<x> bytes_per_entry=<n>``
(p95: nearest rank; bytes: the median over the hands).
"""

from __future__ import annotations

import argparse
import logging
import math
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from phone_app import CHROMIUM, bench_app, bench_evening

PHONE: ViewportSize = {"width": 360, "height": 740}
NETWORK = {
    "offline": False,
    "latency": 150,  # ms, the round trip
    "downloadThroughput": 1_600_000 / 8,  # bytes per second
    "uploadThroughput": 750_000 / 8,
}

# In every document, before its own scripts: the click on the record form's submit button (kept
# across a page load) and the frame in which the watched cell is painted filled.
WATCH = """
(function () {
  var KEY = "sk-bench";
  function now() { return performance.timeOrigin + performance.now(); }
  function state() { try { return JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch (e) { return null; } }
  function save(s) { sessionStorage.setItem(KEY, JSON.stringify(s)); }
  window.addEventListener("click", function (e) {
    var b = e.target && e.target.closest && e.target.closest("form[data-record] button[type=submit]");
    var s = state();
    if (b && s && !s.t0) { s.t0 = now(); save(s); }
  }, true);
  function filled() {
    var s = state();
    if (!s || !s.t0 || s.t1) return;
    var row = document.querySelectorAll("#slate tbody tr")[s.row];
    var td = row && row.querySelectorAll("td")[s.side];
    if (!td || !td.classList.contains("filled")) return;
    s.t1 = -1; save(s);
    requestAnimationFrame(function () { var t = state(); t.t1 = now(); save(t); });
  }
  new MutationObserver(filled).observe(document, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", filled);
})();
"""


def _open_cell(page: Any, n: int) -> tuple[int, int, str, str]:
    """An open cell of the slate (the players' columns in turn): its row and column (indexes),
    row key and side."""
    found = page.evaluate(
        """n => {
        const rows = Array.from(document.querySelectorAll('#slate tbody tr'));
        const sides = rows[0].querySelectorAll('td').length;
        for (let k = 0; k < sides; k++) for (let i = 0; i < rows.length; i++) {
          const side = String((n + k) % sides);
          const tds = Array.from(rows[i].querySelectorAll('td'));
          const j = tds.findIndex(td => td.matches('td.open[data-row]') && td.dataset.side === side);
          if (j >= 0) return [i, j, tds[j].dataset.row, side];
        }
        return null; }""",
        n,
    )
    if found is None:
        raise SystemExit("no open cell left")
    return int(found[0]), int(found[1]), str(found[2]), str(found[3])


def _hand(page: Any, n: int, traffic: list[tuple[float, int]], verbose: bool = False) -> tuple[float, int]:
    """One hand through the page: (tap to paint in ms, bytes)."""
    row, side, key, side_key = _open_cell(page, n)
    page.evaluate("s => sessionStorage.setItem('sk-bench', JSON.stringify(s))", {"row": row, "side": side})
    page.click(f"#slate td.open[data-row='{key}'][data-side='{side_key}'] .cell")
    form = page.locator("#record form[data-record]")
    if form.locator("input[name=declarer]:checked").count() == 0:
        form.locator(f"input[name=declarer][data-side='{side_key}']").first.check()
    played_as = form.locator("select[name=played_as]")
    if played_as.is_visible():  # a choice row (Joker...): what it was played as
        played_as.select_option(
            played_as.locator("option:not([disabled]):not([value=''])").first.get_attribute("value")
        )
    points = form.locator("input[name=declarer_points]")
    points.fill(str(40 + n % 100))
    start = time.time() * 1000
    form.locator("button[type=submit]").click(no_wait_after=True)
    deadline = time.monotonic() + 30
    while True:
        try:
            got = page.evaluate("() => JSON.parse(sessionStorage.getItem('sk-bench') || 'null')")
        except Exception:  # noqa: BLE001 - the page is between two documents: asked again
            got = None
        if got and got.get("t0") and got.get("t1", 0) > 0:
            break
        if time.monotonic() > deadline:
            said = page.evaluate(
                "() => Array.from(document.querySelectorAll('.flash, .errors')).map(e => e.textContent.trim())"
            )
            raise SystemExit(f"hand {n + 1}: the cell was not painted: {got} {said}")
        time.sleep(0.02)
    if verbose:  # where the time went: click -> request sent -> answer read -> painted
        steps = page.evaluate(
            """s => { const r = performance.getEntriesByType('resource')
              .filter(e => e.name.indexOf('/hands') > 0).pop();
            if (!r) return null; const o = performance.timeOrigin;
            return [o + r.startTime - s.t0, o + r.responseStart - s.t0, o + r.responseEnd - s.t0, s.t1 - s.t0]; }""",
            got,
        )
        if steps:
            print("    sent {:.0f} ms, answer starts {:.0f} ms, read {:.0f} ms, painted {:.0f} ms".format(*steps))
    page.wait_for_load_state("load")
    page.wait_for_timeout(500)  # the page settles: what the entry fetched after the paint is counted too
    spent = sum(size for at, size in traffic if at >= start)
    traffic.clear()
    return float(got["t1"]) - float(got["t0"]), spent


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--verbose", action="store_true", help="every request an entry made")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        app = bench_app(Path(tmp) / "bench.db", LIMIT_EVENING_WRITES="100000 per minute")
        path = bench_evening(app, "solo4", "bench-entry")
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{server.server_port}{path}"
        times: list[float] = []
        sizes: list[int] = []
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
                context = browser.new_context(
                    viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, service_workers="block"
                )
                context.add_init_script(WATCH)
                page = context.new_page()
                if args.verbose:
                    page.on("console", lambda m: print("    console:", m.text))
                traffic: list[tuple[float, int]] = []

                def finished(request: Any) -> None:
                    response = request.response()
                    if response is not None and response.status == 204:
                        return
                    got = request.sizes()
                    if int(got["responseBodySize"]) < 0:  # from the browser's cache: nothing on the wire
                        return
                    total = sum(int(got[k]) for k in got)
                    traffic.append((float(request.timing["startTime"]), total))
                    if args.verbose:
                        where = request.url.split("/")[-1][:24]
                        t = request.timing
                        wait = t["responseStart"] - t["requestStart"]
                        print("   ", request.method, where, response and response.status, total, f"wait {wait:.0f} ms")

                page.on("requestfinished", finished)
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.emulateNetworkConditions", NETWORK)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
                page.goto(url)
                page.wait_for_load_state("networkidle")
                traffic.clear()
                for n in range(args.hands):
                    spent_ms, spent_bytes = _hand(page, n, traffic, args.verbose)
                    times.append(spent_ms)
                    sizes.append(spent_bytes)
                    print(f"hand {n + 1:2d}: {spent_ms:7.1f} ms, {spent_bytes} bytes", flush=True)
                browser.close()
        finally:
            server.shutdown()
            thread.join(timeout=10)
            server.server_close()
    p50, p95 = statistics.median(times), _percentile(times, 0.95)
    per_entry = int(statistics.median(sizes))
    print(f"{len(times)} hands, tap to paint: min {min(times):.0f} ms, max {max(times):.0f} ms")
    print(f"entry tap_to_paint_p50_ms={p50:.0f} tap_to_paint_p95_ms={p95:.0f} bytes_per_entry={per_entry}")


if __name__ == "__main__":
    main()
