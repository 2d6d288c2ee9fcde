"""The WebKit phone's page (``WebKitPage``): the part of Playwright's ``Page`` that the
table-side flows and ``e2e_helpers`` use, over WebKit's WebDriver, so the same test body runs in
Chromium (Playwright) and in WebKit (the browser itself: ``e2e_webkit``).

- Selectors: CSS (WebKit's own, ``:has`` included), ``text=...``, ``:has-text(...)``,
  ``:visible`` and a final ``>> nth=N``, found by a script in the page (``_FIND``).
- An action is tried again only where nothing happened yet (covered, not yet shown, replaced
  by a swap), as Playwright waits for an element; a click that went through is never repeated.
- What the page refused or failed at: WebDriver runs no script before the page's own, so the
  page listens for uncaught errors and refusals after each load (``_ARM``, kept in the tab's
  ``sessionStorage`` across the test's pages); the browser's own reports of a refusal during
  the load come to the test server (``e2e_webkit.report_violations``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from e2e_webkit import DEFAULT_TIMEOUT, SEEN, Session, WebKit

# Installed after each load (WebDriver runs no script before the page's own): uncaught errors
# and refusals after that, kept in the tab's sessionStorage (it outlives the tab's pages).
_ARM = """
if (!window.__skWatch && location.protocol.indexOf('http') === 0) {
  window.__skWatch = true;
  const keep = text => { try {
    const got = JSON.parse(sessionStorage.getItem('__skRefused') || '[]');
    got.push(text); sessionStorage.setItem('__skRefused', JSON.stringify(got));
  } catch (e) {} };
  const at = () => 'uncaught on ' + location.href + ': ';
  window.addEventListener('error', e => keep(at() + e.message + ' at ' + e.filename + ':' + e.lineno));
  window.addEventListener('unhandledrejection', e => keep(at() + (e.reason && e.reason.stack || e.reason)));
  document.addEventListener('securitypolicyviolation', e => keep(
    [e.effectiveDirective, e.blockedURI, e.sourceFile + ':' + e.lineNumber, e.sample].join(' | ')));
}
"""
_REFUSED = "try { return JSON.parse(sessionStorage.getItem('__skRefused') || '[]'); } catch (e) { return []; }"


# --- Playwright's Page, as far as the flows use it -----------------------------------------
class BetweenDocuments(Exception):
    """The page was being replaced while a script ran: look again."""


# A selector (see WebKitPage) found in the page: CSS, or text=; :has-text() filters; :visible.
_FIND = """
const [css, text, hasText, visibleOnly] = arguments;
const norm = s => (s || '').replace(/\\s+/g, ' ').trim().toLowerCase();
const shown = e => { const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
let found;
if (text !== null) {
  const want = norm(text);
  const all = [...document.querySelectorAll('body *')].filter(e => !/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(e.tagName)
    && norm(e.innerText).includes(want));
  found = all.filter(e => ![...e.children].some(c => norm(c.innerText).includes(want)));
} else found = [...document.querySelectorAll(css)];
if (hasText !== null) found = found.filter(e => norm(e.innerText || e.textContent).includes(norm(hasText)));
if (visibleOnly) found = found.filter(shown);
return found;
"""

_HAS_TEXT = re.compile(r""":has-text\((["'])(.*?)\1\)""")


def _parse(selector: str) -> tuple[str, str | None, str | None, bool, int | None]:
    """(css, text, has-text, visible only, nth) of a selector."""
    nth = None
    if " >> " in selector:
        selector, tail = selector.split(" >> ", 1)
        match = re.fullmatch(r"nth=(-?\d+)", tail.strip())
        if not match:
            raise ValueError(f"unsupported selector part for WebKit: {tail!r}")
        nth = int(match[1])
    if selector.startswith("text="):
        return "", selector[5:].strip("\"'"), None, False, nth
    has_text = None
    match = _HAS_TEXT.search(selector)
    if match:
        has_text = match[2]
        selector = _HAS_TEXT.sub("", selector)
    visible = ":visible" in selector
    return selector.replace(":visible", ""), None, has_text, visible, nth


class Locator:
    """Playwright's Locator, as far as the flows use it (``first``, ``nth``, ``count``, ``click``...)."""

    def __init__(self, page: WebKitPage, selector: str, has_text: str | None = None, index: int | None = None) -> None:
        self.page = page
        self.selector = selector
        self.has_text = has_text
        self.index = index

    def _all(self, *, visible: bool = False) -> list[Any]:
        return self.page._find(self.selector, has_text=self.has_text, visible=visible)

    def _one(self, *, visible: bool = False) -> Any:
        found = self._all(visible=visible)
        if not found:
            return None
        i = 0 if self.index is None else self.index
        return found[i] if -len(found) <= i < len(found) else None

    def _wait(self, timeout: float = DEFAULT_TIMEOUT, *, visible: bool = True) -> Any:
        deadline = time.monotonic() + timeout / 1000
        while True:
            el = self.page._retry_between_documents(lambda: self._one(visible=visible))
            if el is not None:
                return el
            if time.monotonic() > deadline:
                raise AssertionError(f"WebKit: nothing visible for {self.selector!r} within {timeout / 1000:.0f} s")
            time.sleep(0.1)

    @property
    def first(self) -> Locator:
        return Locator(self.page, self.selector, self.has_text, 0)

    @property
    def last(self) -> Locator:
        return Locator(self.page, self.selector, self.has_text, -1)

    def nth(self, index: int) -> Locator:
        return Locator(self.page, self.selector, self.has_text, index)

    def count(self) -> int:
        return len(self._all())

    def click(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.page._click(lambda: self._wait(timeout), timeout)

    tap = click

    def is_visible(self) -> bool:
        el = self._one()
        return el is not None and bool(
            self.page._js(
                "return arguments[0].getClientRects().length > 0 && "
                "getComputedStyle(arguments[0]).visibility !== 'hidden'",
                el,
            )
        )

    def inner_text(self) -> str:
        return str(self.page._js("return arguments[0].innerText", self._wait(visible=False)))

    def all_inner_texts(self) -> list[str]:
        # the elements found again in the page: WebKit's WebDriver passes no list of elements in
        return [
            str(t)
            for t in self.page.eval_on_selector_all(self.selector, "els => els.map(e => e.innerText)", self.has_text)
        ]

    def get_attribute(self, name: str) -> str | None:
        value = self.page._js("return arguments[0].getAttribute(arguments[1])", self._wait(visible=False), name)
        return None if value is None else str(value)

    def is_checked(self) -> bool:
        return bool(self.page._js("return arguments[0].checked", self._wait(visible=False)))


class Dialog:
    """A confirm() or alert() that the page opened, as Playwright hands it to ``page.on("dialog")``."""

    def __init__(self, alert: Any) -> None:
        self._alert = alert
        self.message = str(alert.text)

    def accept(self) -> None:
        self._alert.accept()

    def dismiss(self) -> None:
        self._alert.dismiss()


class WebKitPage:
    """One phone in WebKit, with the methods of Playwright's ``Page`` the flows call."""

    engine = "webkit"

    def __init__(self, session: Session) -> None:
        self.session = session
        self.driver = session.driver
        self._dialogs: list[Callable[[Dialog], None]] = []

    # -- plumbing
    def _js(self, script: str, *args: Any) -> Any:
        from selenium.common.exceptions import JavascriptException, StaleElementReferenceException

        try:
            return self.driver.execute_script(script, *args)
        except StaleElementReferenceException as exc:
            raise BetweenDocuments(str(exc)) from exc
        except JavascriptException as exc:
            if "navigat" in str(exc).lower() or "unload" in str(exc).lower():
                raise BetweenDocuments(str(exc)) from exc
            raise

    def _retry_between_documents(self, work: Callable[[], Any]) -> Any:
        for _ in range(50):
            try:
                return work()
            except BetweenDocuments:
                time.sleep(0.1)
        return work()

    def _find(self, selector: str, *, has_text: str | None = None, visible: bool = False) -> list[Any]:
        css, text, inner, vis, nth = _parse(selector)
        if has_text is not None:
            inner = has_text if inner is None else inner
        found = list(self._js(_FIND, css, text, inner, vis or visible) or [])
        if nth is not None:
            found = [found[nth]] if -len(found) <= nth < len(found) else []
        return found

    def _arm(self) -> None:
        with suppress(Exception):
            self.driver.execute_script(_ARM)

    def _answer_dialogs(self) -> None:
        from selenium.common.exceptions import NoAlertPresentException

        try:
            alert = self.driver.switch_to.alert
            dialog = Dialog(alert)
        except NoAlertPresentException:
            return
        if not self._dialogs:
            dialog.dismiss()  # as Playwright does with a dialog nobody listens to
        for handler in self._dialogs:
            handler(dialog)

    def _again(self, work: Callable[[], Any], timeout: float, what: str) -> Any:
        """``work`` until it gets through, as Playwright waits for an element to take an action:
        again only where nothing happened yet (covered, not yet shown, replaced by a swap)."""
        from selenium.common.exceptions import (
            ElementClickInterceptedException,
            ElementNotInteractableException,
            NoSuchElementException,
            StaleElementReferenceException,
        )

        not_yet = (
            ElementClickInterceptedException,
            ElementNotInteractableException,
            NoSuchElementException,
            StaleElementReferenceException,
            BetweenDocuments,
        )
        deadline = time.monotonic() + timeout / 1000
        while True:
            try:
                return work()
            except not_yet as exc:
                if time.monotonic() > deadline:
                    raise AssertionError(f"WebKit could not {what}: {exc}") from exc
                time.sleep(0.1)

    def _click(self, element: Callable[[], Any], timeout: float) -> None:
        self._again(lambda: element().click(), timeout, "click")
        self._answer_dialogs()
        self._arm()

    def refused(self) -> list[str]:
        """What this tab's pages refused or failed at since the test began (see ``_ARM``)."""
        try:
            return [str(t) for t in self.driver.execute_script(_REFUSED) or []]
        except Exception:  # noqa: BLE001 - best effort: a tab that cannot run script reports nothing
            return []

    # -- Playwright's Page
    def on(self, event: str, handler: Callable[[Dialog], None]) -> None:
        if event != "dialog":
            raise NotImplementedError(f"WebKit pages tell only of dialogs, not {event!r}")
        self._dialogs.append(handler)

    @property
    def url(self) -> str:
        return str(self.driver.current_url)

    def goto(self, url: str) -> None:
        self.driver.get(url)
        self._arm()

    def reload(self) -> None:
        self.driver.refresh()
        self._arm()

    def locator(self, selector: str, has_text: str | None = None) -> Locator:
        return Locator(self, selector, has_text)

    def wait_for_selector(self, selector: str, timeout: float = DEFAULT_TIMEOUT, state: str = "visible") -> None:
        Locator(self, selector)._wait(timeout, visible=state == "visible")
        self._arm()

    def wait_for_load_state(self, state: str = "load", timeout: float = DEFAULT_TIMEOUT) -> None:
        want = "complete" if state == "load" else "interactive"
        deadline = time.monotonic() + timeout / 1000
        while True:
            with suppress(BetweenDocuments):
                if self._js("return document.readyState") in (want, "complete"):
                    self._arm()
                    return
            if time.monotonic() > deadline:
                raise AssertionError(f"WebKit: the page did not reach {state!r}")
            time.sleep(0.1)

    def wait_for_url(self, url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout / 1000
        while self.url != url:
            if time.monotonic() > deadline:
                raise AssertionError(f"WebKit: at {self.url}, not {url}")
            time.sleep(0.1)
        self.wait_for_load_state()

    def click(self, selector: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.locator(selector).click(timeout)

    tap = click

    def check(self, selector: str) -> None:
        if not self.is_checked(selector):
            self.click(selector)

    def is_checked(self, selector: str) -> bool:
        return self.locator(selector).is_checked()

    def fill(self, selector: str, value: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        """As Playwright: the field's text replaced by ``value`` (typed, so the page hears it)."""

        def fill() -> None:
            el = Locator(self, selector)._wait(timeout)
            el.clear()
            self._js("arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", el)
            if value:
                el.send_keys(value)

        self._again(fill, timeout, f"fill {selector!r}")

    def select_option(
        self, selector: str, value: str | None = None, *, label: str | None = None, index: int | None = None
    ) -> None:
        """As Playwright: the option chosen, then ``input`` and ``change``."""
        el = Locator(self, selector)._wait(visible=False)
        chosen = self._js(
            """const [s, value, label, index] = arguments;
            const o = [...s.options].find((o, i) => index !== null ? i === index
              : label !== null ? o.label.trim() === label || o.text.trim() === label : o.value === value);
            if (!o) return false;
            s.value = o.value;
            s.dispatchEvent(new Event('input', {bubbles: true}));
            s.dispatchEvent(new Event('change', {bubbles: true}));
            return true;""",
            el,
            value,
            label,
            index,
        )
        if not chosen:
            raise AssertionError(f"WebKit: no option {value or label or index!r} in {selector!r}")

    def input_value(self, selector: str) -> str:
        return str(self._js("return arguments[0].value", Locator(self, selector)._wait(visible=False)))

    def inner_text(self, selector: str) -> str:
        return self.locator(selector).inner_text()

    def evaluate(self, expression: str, arg: Any = None) -> Any:
        """``expression`` (or a function given ``arg``) in the page; a promise is awaited."""
        from selenium.common.exceptions import JavascriptException, TimeoutException

        call = f"({expression})(arg)" if _is_function(expression) else f"({expression})"
        script = (
            "const done = arguments[arguments.length - 1]; const arg = arguments[0];\n"
            f"Promise.resolve().then(() => {call})"
            ".then(v => done({ok: true, v: v === undefined ? null : v}),"
            " e => done({ok: false, e: String(e) + ' ' + (e && e.stack || '')}));"
        )
        try:
            got = self.driver.execute_async_script(script, arg)
        except (JavascriptException, TimeoutException) as exc:
            if "navigat" in str(exc).lower() or "unload" in str(exc).lower():
                raise BetweenDocuments(str(exc)) from exc
            raise
        if got is None:
            raise BetweenDocuments("the page went away during the script")
        if not got["ok"]:
            raise AssertionError(f"WebKit: {expression} failed: {got['e']}")
        return got["v"]

    def eval_on_selector_all(self, selector: str, function: str, has_text: str | None = None) -> Any:
        css, text, inner, visible, nth = _parse(selector)
        inner = inner if has_text is None else has_text
        if nth is not None:
            raise ValueError("WebKit: no nth= in eval_on_selector_all")
        script = f"const found = (function () {{ {_FIND} }}).apply(null, arguments); return ({function})(found);"
        return self._js(script, css, text, inner, visible)

    def screenshot(self, path: str, full_page: bool = False, caret: str = "initial") -> None:
        """The page (``full_page``: all of it, else what the window shows) as a PNG."""
        if full_page:
            from selenium.webdriver.common.by import By

            self.driver.find_element(By.TAG_NAME, "html").screenshot(path)
        else:
            self.driver.save_screenshot(path)

    def read_clipboard(self) -> str:
        """What a paste brings (the system's clipboard, as a person would paste it)."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        area = self._js(
            "const t = document.createElement('textarea'); t.className = 'sk-test-paste';"
            " document.body.prepend(t); t.focus(); return t;"
        )
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("v").key_up(Keys.CONTROL).perform()
        text = str(self._js("const t = arguments[0]; const v = t.value; t.remove(); return v;", area))
        return text


def _is_function(expression: str) -> bool:
    """Whether ``expression`` is a function (called with the argument) rather than a value."""
    return bool(re.match(r"\s*(async\s+)?(function\b|\((?!\()[^)]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)", expression))


class WebKitPhones:
    """``phone()``: a new phone in WebKit (a MiniBrowser of its own: its own storage)."""

    def __init__(self, webkit: WebKit) -> None:
        self.webkit = webkit
        self.pages: list[WebKitPage] = []
        self._reports_from = len(SEEN)

    def __call__(self) -> WebKitPage:
        page = WebKitPage(self.webkit.session())
        self.pages.append(page)
        return page

    def refused(self) -> list[str]:
        out = [r for p in self.pages for r in p.refused()]
        return out + SEEN[self._reports_from :]

    def close(self) -> None:
        for page in self.pages:
            self.webkit.give_back(page.session)
