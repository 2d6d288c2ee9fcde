"""WebKit for the browser tests: WebKitGTK's own WebDriver (``WebKitWebDriver``, Debian's
``webkit2gtk-driver``) driving its MiniBrowser under Xvfb, the engine of every browser on an
iPhone (it answers as ``AppleWebKit/605.1.15 ... Safari/605.1.15``).

- ``WebKit``: one Xvfb per test process (a free display, chosen by Xvfb itself:
  ``-displayfd``), so pytest-xdist workers never share one; per phone a ``WebKitWebDriver`` (a
  free port; it drives one browser at a time) and its MiniBrowser (a phone of its own, with its
  own storage), kept for the next test and wiped of what the last test left
  (``Session.wipe``): starting one costs seconds on a loaded machine.
- ``WebKitPage`` (``e2e_webkit_page``): the part of Playwright's ``Page`` the flows use.
- The window is 360 x 740 CSS px of page (the phone of every browser test): MiniBrowser's
  toolbar would keep its window wider than 360 px, so its GTK theme is shrunk for the test
  (``_GTK_CSS``, in a private ``XDG_CONFIG_HOME``); nothing of the page is touched.
- What the page refused (``Watch`` for WebKit): WebDriver has no console log, so every page
  answers with its policy plus a ``report-uri`` (``report_violations``: the browser itself
  posts each refusal, during the page's load too), kept in ``SEEN``; the page's side is in
  ``e2e_webkit_page``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

DRIVER = Path("/usr/bin/WebKitWebDriver")
MINIBROWSER = Path("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
XVFB = Path("/usr/bin/Xvfb")
PHONE = {"width": 360, "height": 740}  # the phone of every browser test, in both engines
CSP_REPORTS = "/__csp-report"
DEFAULT_TIMEOUT = 30_000  # ms, as Playwright's

# MiniBrowser's toolbar (back, forward, the address, ...) asks for a window about 450 px wide;
# shrunk to nothing, the window (and so the page) can be 360 px wide.
_GTK_CSS = "* { min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; font-size: 2px; }\n"


def missing() -> str | None:
    """What is missing to run WebKit here (None: nothing)."""
    for path, package in ((DRIVER, "webkit2gtk-driver"), (MINIBROWSER, "libwebkit2gtk-4.1-0"), (XVFB, "xvfb")):
        if not path.exists():
            return f"{path} is missing (apt-get install {package})"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class WebKit:
    """The Xvfb of this test process and its phones (``Session``), the idle ones kept."""

    def __init__(self) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="sk-webkit-"))
        (self.tmp / "gtk-3.0").mkdir()
        (self.tmp / "gtk-3.0" / "gtk.css").write_text(_GTK_CSS)
        self._procs: list[subprocess.Popen[bytes]] = []
        self.idle: list[Session] = []
        self.all: list[Session] = []
        try:
            self.display = self._xvfb()
        except BaseException:
            self.close()
            raise

    def _xvfb(self) -> str:
        read, write = os.pipe()
        try:
            xvfb = subprocess.Popen(
                [str(XVFB), "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                pass_fds=(write,),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            self._procs.append(xvfb)
            os.close(write)
            write = -1
            got = b""
            deadline = time.monotonic() + 30
            while not got.endswith(b"\n"):
                if time.monotonic() > deadline or xvfb.poll() is not None:
                    raise RuntimeError("Xvfb did not start")
                chunk = os.read(read, 16)
                if not chunk:
                    raise RuntimeError("Xvfb did not name its display")
                got += chunk
            return ":" + got.decode().strip()
        finally:
            os.close(read)
            if write >= 0:
                os.close(write)

    def session(self) -> Session:
        """An idle MiniBrowser, or a new one."""
        if self.idle:
            return self.idle.pop()
        s = Session(self)
        self.all.append(s)
        return s

    def give_back(self, session: Session) -> None:
        try:
            session.wipe()
        except Exception:  # noqa: BLE001 - a broken browser is not lent again
            session.quit()
            self.all.remove(session)
            return
        self.idle.append(session)

    def close(self) -> None:
        for s in self.all:
            s.quit()
        self.all.clear()
        for proc in reversed(self._procs):
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)


def _start_driver(webkit: WebKit) -> tuple[subprocess.Popen[bytes], str]:
    """A WebKitWebDriver on a free port (it drives one browser at a time) and its address."""
    port = _free_port()
    env = dict(os.environ, DISPLAY=webkit.display, XDG_CONFIG_HOME=str(webkit.tmp), GDK_BACKEND="x11")
    env.pop("WAYLAND_DISPLAY", None)
    log_path = webkit.tmp / f"driver-{port}.log"
    with log_path.open("wb") as log:
        driver = subprocess.Popen(
            [str(DRIVER), f"--port={port}", "--host=local"], env=env, stdout=log, stderr=subprocess.STDOUT
        )
    deadline = time.monotonic() + 30
    while True:
        with suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return driver, f"http://127.0.0.1:{port}"
        if driver.poll() is not None or time.monotonic() > deadline:
            driver.kill()
            raise RuntimeError(f"WebKitWebDriver did not start: {log_path.read_text()[-2000:]}")
        time.sleep(0.1)


class Session:
    """One phone: a WebKitWebDriver and its MiniBrowser, 360 x 740 CSS px of page."""

    def __init__(self, webkit: WebKit) -> None:
        from selenium import webdriver
        from selenium.webdriver.remote.client_config import ClientConfig
        from selenium.webdriver.remote.remote_connection import RemoteConnection
        from selenium.webdriver.webkitgtk.options import Options

        options = Options()
        options.binary_location = str(MINIBROWSER)
        options.add_argument("--automation")
        options.set_capability("unhandledPromptBehavior", "ignore")  # the test answers (Page.on "dialog")
        self.process, url = _start_driver(webkit)
        try:
            connection = RemoteConnection(client_config=ClientConfig(remote_server_addr=url))
            self.driver = webdriver.Remote(command_executor=connection, options=options)
        except BaseException:
            self._stop()
            raise
        try:
            self._phone_sized()
        except BaseException:
            self.quit()
            raise

    def _phone_sized(self) -> None:
        self.driver.set_script_timeout(DEFAULT_TIMEOUT / 1000)
        want = [PHONE["width"], PHONE["height"]]
        outer = list(want)
        size: list[int] = []
        for _ in range(5):  # GTK resizes the window a moment later: measure once it holds still
            self.driver.set_window_rect(x=0, y=0, width=outer[0], height=outer[1])
            size = self._inner()
            for _ in range(20):
                time.sleep(0.1)
                size, before = self._inner(), size
                if size == before:
                    break
            if size == want:
                return
            outer = [outer[0] + want[0] - size[0], outer[1] + want[1] - size[1]]  # the toolbar's pixels
        raise RuntimeError(f"WebKit's page is {size[0]} x {size[1]}, not 360 x 740")

    def _inner(self) -> list[int]:
        return [int(v) for v in self.driver.execute_script("return [innerWidth, innerHeight]")]

    def wipe(self) -> None:
        """Forget the last test: the worker, caches, storage and cookies of the page's origin
        (every test serves on a port of its own, but a port may come back), then a blank page."""
        with suppress(Exception):
            self.driver.switch_to.alert.dismiss()
        if self.driver.current_url.startswith("http"):
            if self.driver.execute_async_script(_WIPE) is not True:
                raise RuntimeError("WebKit: the page's storage was not wiped in time")
            self.driver.delete_all_cookies()
        self.driver.get("about:blank")

    def quit(self) -> None:
        with suppress(Exception):
            self.driver.quit()
        self._stop()

    def _stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_WIPE = """
const done = arguments[arguments.length - 1];
const steps = [];
try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}
if (navigator.serviceWorker)
  steps.push(navigator.serviceWorker.getRegistrations().then(rs => Promise.all(rs.map(r => r.unregister()))));
if (window.caches) steps.push(caches.keys().then(ks => Promise.all(ks.map(k => caches.delete(k)))));
if (window.indexedDB && indexedDB.databases)
  steps.push(indexedDB.databases().then(ds => Promise.all(ds.map(d => new Promise(ok => {
    const r = indexedDB.deleteDatabase(d.name); r.onsuccess = r.onerror = r.onblocked = () => ok();
  })))));
// a step that hangs (seen after a long walk of pages: 30 s, the script's whole timeout) ends
// the wipe in 5 s with false: that browser is then not lent again
const late = new Promise(ok => setTimeout(() => ok(false), 5000));
Promise.race([Promise.all(steps.map(p => p.catch(() => null))).then(() => true), late]).then(done);
"""


# --- what the page refused --------------------------------------------------------------------
SEEN: list[str] = []  # every report this test process received (a phone reads its own test's part)
_LOCK = threading.Lock()


class CspReports:
    """WSGI middleware: the browser's reports of a refusal (``report-uri``) are kept in ``SEEN``
    and answered 204; everything else goes to the app."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("PATH_INFO") == CSP_REPORTS and environ.get("REQUEST_METHOD") == "POST":
            size = int(environ.get("CONTENT_LENGTH") or 0)
            body = environ["wsgi.input"].read(size).decode("utf-8", "replace")
            with _LOCK:
                SEEN.append(_report_text(body))
            start_response("204 No Content", [])
            return [b""]
        return self.app(environ, start_response)


def _report_text(body: str) -> str:
    try:
        report = json.loads(body).get("csp-report", {})
    except (ValueError, AttributeError):
        return body[:300]
    keys = ("effective-directive", "violated-directive", "blocked-uri", "source-file", "line-number", "script-sample")
    return " | ".join(str(report.get(k, "")) for k in keys)


def report_violations(app: Any) -> None:
    """Make ``app`` name a ``report-uri`` in its policy and keep what the browser reports."""
    policy = app.config.get("CONTENT_SECURITY_POLICY")
    if policy and "report-uri" not in policy:
        app.config["CONTENT_SECURITY_POLICY"] = f"{policy}; report-uri {CSP_REPORTS}"
    app.wsgi_app = CspReports(app.wsgi_app)


def webkit_browser(required: bool, fail: Callable[[str], Any], skip: Callable[[str], Any]) -> Iterator[WebKit]:
    """The session's WebKit (skipped where it is missing, failed where it is required)."""
    why = missing()
    if why:
        (fail if required else skip)(why)
    wk = WebKit()
    try:
        yield wk
    finally:
        wk.close()
