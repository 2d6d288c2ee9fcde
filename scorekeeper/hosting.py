"""Hosting: the links the app shows, the proxy in front, HTTPS-only cookies and headers, caching.

- **Links.** ``absolute_url(path)`` is the one function that turns an app path into a
  link a person can open. With ``PUBLIC_URL`` set (``https://jass.example.ch``) every
  link is built from it and the request's ``Host`` header is never used. Without it,
  a request to the loopback address (the organiser's laptop at ``make run``) gets
  links on ``LAN_URL`` (the address ``make run`` printed), so phones can open them;
  otherwise the request's own address is used. ``App.url_for(..., _external=True)``
  (pages, templates, QR codes) goes through it.
- **Proxy.** ``X-Forwarded-For/-Proto/-Host`` are honoured only from ``PROXY_HOPS``
  trusted proxies (werkzeug's ProxyFix); 0, the default, ignores them. ``X-Forwarded-Port``
  and ``-Prefix`` are never honoured: the documented proxy (Caddy) replaces only For, Proto
  and Host and passes a client's Port and Prefix on unchanged, so trusting them would let a
  client move every link and asset URL (``https://host:6666/...``, ``/evil/c/...``).
- **HTTPS.** When the request arrived over HTTPS or ``PUBLIC_URL`` is ``https://``,
  every cookie (the session and the seat cookie too) is ``Secure`` and HSTS is sent.
  Every answer carries a Permissions-Policy.
- **Content-Security-Policy.** Every answer (page, fragment, JSON, PNG, static file) carries
  ``CONTENT_SECURITY_POLICY``: scripts, styles, images and connections from this origin
  only, no inline script or style, no plugins, no ``<base>``, no framing, forms post here.
- **Static files.** ``asset(name)`` adds ``?v=`` (a hash of the content); a request
  with the current ``v`` is cached for a year as immutable, any other revalidates.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import brotli
from flask import Flask, current_app, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.security import safe_join
from werkzeug.wrappers import Response

ONE_YEAR = 365 * 24 * 3600
IMMUTABLE = f"public, max-age={ONE_YEAR}, immutable"
# Features the app never uses, switched off for every page (clipboard and web-share stay:
# the copy and share buttons).
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), hid=(), "
    "idle-detection=(), magnetometer=(), microphone=(), midi=(), payment=(), serial=(), usb=(), "
    "xr-spatial-tracking=()"
)
LOOPBACK_HOSTS = ("localhost", "::1")


class App(Flask):
    """Flask whose external URLs (``url_for(..., _external=True)``) come from ``absolute_url``,
    and whose error log writes no link's token."""

    def url_for(
        self,
        /,
        endpoint: str,
        *,
        _anchor: str | None = None,
        _method: str | None = None,
        _scheme: str | None = None,
        _external: bool | None = None,
        **values: Any,
    ) -> str:
        if _external and has_request_context() and link_base() is not None:
            path = super().url_for(endpoint, _anchor=_anchor, _method=_method, **values)
            root = request.script_root
            if root and path.startswith(root):
                path = path[len(root) :]
            return absolute_url(path)
        return super().url_for(
            endpoint, _anchor=_anchor, _method=_method, _scheme=_scheme, _external=_external, **values
        )

    def log_exception(self, exc_info: Any) -> None:
        """Flask's "Exception on <path>" line, with the link's token written as ``…`` (as the access log)."""
        from .accesslog import redact

        self.logger.error(f"Exception on {redact(request.path)} [{request.method}]", exc_info=exc_info)


def check_url(name: str, value: str) -> str:
    """A configured base URL, without its trailing slash; ValueError if it is not http(s)://host[/path]."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"{name} must look like https://host[:port][/path], not {value!r}")
    return value.rstrip("/")


def _is_loopback(host: str) -> bool:
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 or host.startswith("[") else host
    name = name.strip("[]").lower()
    return name in LOOPBACK_HOSTS or name.startswith("127.")


def link_base() -> str | None:
    """The base of every link for the current request, or None for the request's own address."""
    public: str = current_app.config.get("PUBLIC_URL") or ""
    if public:
        return public
    lan: str = current_app.config.get("LAN_URL") or ""
    if lan and _is_loopback(request.host):
        return lan
    return None


def absolute_url(path: str) -> str:
    """The link for an app path (``/s/<token>``): the one place external URLs are built."""
    if not path.startswith("/"):
        path = "/" + path
    base = link_base()
    if base is None:
        base = request.url_root.rstrip("/")
    return base + path


def https_now() -> bool:
    """Whether this request is served over HTTPS (as seen after ProxyFix) or the public URL is HTTPS."""
    public: str = current_app.config.get("PUBLIC_URL") or ""
    return public.startswith("https://") or (has_request_context() and request.is_secure)


class SessionInterface(SecureCookieSessionInterface):
    """The signed-cookie session, ``Secure`` whenever the request is HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(super().get_cookie_secure(app)) or https_now()


@lru_cache(maxsize=256)
def _content_hash(path: str, mtime_ns: int, size: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(65536), b""):
            digest.update(block)
    return digest.hexdigest()[:12]


def static_version(filename: str) -> str:
    """A short hash of a static file's content ("0" if it is missing): the same on every host."""
    folder = current_app.static_folder or ""
    path = os.path.join(folder, filename)
    try:
        st = os.stat(path)
    except OSError:
        return "0"
    return _content_hash(path, st.st_mtime_ns, st.st_size)


def _after(response: Response) -> Response:
    response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
    policy = current_app.config.get("CONTENT_SECURITY_POLICY")
    if policy:
        response.headers.setdefault("Content-Security-Policy", str(policy))
    if https_now():
        hsts = current_app.config.get("HSTS")
        if hsts:
            response.headers.setdefault("Strict-Transport-Security", str(hsts))
        cookies = response.headers.getlist("Set-Cookie")
        if any("secure" not in _attributes(c) for c in cookies):
            response.headers.remove("Set-Cookie")
            for cookie in cookies:
                response.headers.add("Set-Cookie", cookie if "secure" in _attributes(cookie) else cookie + "; Secure")
    if request.endpoint == "static" and 200 <= response.status_code < 400:
        filename = (request.view_args or {}).get("filename", "")
        if request.args.get("v") == static_version(filename):
            response.headers["Cache-Control"] = IMMUTABLE
        else:
            response.headers["Cache-Control"] = "no-cache"
        if response.status_code == 200:
            _pack_static(response, filename)
    return response


# Static text is packed once per worker at the strongest setting and kept (Flask-Compress packs
# every answer anew at a level cheap enough for pages): about a tenth fewer bytes on a phone's
# first load. Kept per file version; 64 files is more than the app has.
PACKED_TYPES = frozenset({"text/css", "text/javascript", "application/javascript", "image/svg+xml"})


@lru_cache(maxsize=64)
def _packed(path: str, mtime_ns: int, size: int, encoding: str) -> bytes:
    with open(path, "rb") as f:
        data = f.read()
    return brotli.compress(data, quality=11) if encoding == "br" else gzip.compress(data, 9, mtime=0)


def _pack_static(response: Response, filename: str) -> None:
    """A static file's body packed for the browser (brotli, else gzip), the same bytes every time;
    Flask-Compress leaves an answer that already has a Content-Encoding alone."""
    if response.mimetype not in PACKED_TYPES or "Content-Encoding" in response.headers:
        return
    encoding = next((e for e in ("br", "gzip") if request.accept_encodings[e] > 0), None)
    path = safe_join(current_app.static_folder or "", filename)
    if encoding is None or path is None:
        return
    try:
        st = os.stat(path)
    except OSError:
        return
    body = _packed(path, st.st_mtime_ns, st.st_size, encoding)
    response.close()  # the file send_file opened
    response.direct_passthrough = False
    response.set_data(body)
    response.headers["Content-Encoding"] = encoding
    response.headers.pop("Accept-Ranges", None)  # ranges of the file, not of the packed body
    response.headers.pop("Content-Disposition", None)  # "inline; filename=...": what a browser does anyway
    response.vary.add("Accept-Encoding")


def _attributes(cookie: str) -> set[str]:
    return {part.strip().split("=", 1)[0].lower() for part in cookie.split(";")[1:]}


def init_app(app: Flask) -> None:
    """Check the hosting settings, put ProxyFix in front if asked, add the headers and cookie rules."""
    for name in ("PUBLIC_URL", "LAN_URL"):
        if app.config.get(name):
            app.config[name] = check_url(f"SCOREKEEPER_{name}", str(app.config[name]))
    hops = int(app.config.get("PROXY_HOPS") or 0)
    if hops < 0:
        raise ValueError(f"SCOREKEEPER_PROXY_HOPS must be 0 or more, not {hops}")
    if hops:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]  # Flask's documented way to wrap it
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=0, x_prefix=0
        )
    app.session_interface = SessionInterface()
    app.after_request(_after)
